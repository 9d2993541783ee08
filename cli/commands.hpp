// normlab-cli subcommands: one run_xxx per subcommand, each in its own file, listed in main.cpp.
// A subcommand gets the arguments after its name, writes its result on stdout and returns the
// exit code; bad input or usage throws normlab::InputError (one line; main prints it, exits 2).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace normlab {
struct Scene;   // normlab/scene/scene.hpp
}

namespace normlab::cli {

using Args = std::vector<std::string_view>;

// `normlab-cli eval`: one JSON request on stdin, one JSON result on stdout (eval_command.cpp).
extern const char kEvalHelp[];
int run_eval(const Args& args);

// `normlab-cli train`: trains the training lab's MLP, prints its curve (train_command.cpp).
extern const char kTrainHelp[];
int run_train(const Args& args);

// `normlab-cli invariance`: the paper's Table 1, measured (invariance_command.cpp).
extern const char kInvarianceHelp[];
int run_invariance(const Args& args);

// `normlab-cli explain`: the worked example and the claim checker (explain_command.cpp).
extern const char kExplainHelp[];
int run_explain(const Args& args);

// `normlab-cli gradients`: gradient-magnitude slopes against δ (gradients_command.cpp).
extern const char kGradientsHelp[];
int run_gradients(const Args& args);

// `normlab-cli bench --cpu`: times the fast float32 kernels against a copy (bench_command.cpp).
extern const char kBenchHelp[];
int run_bench(const Args& args);

// `normlab-cli depth`: the depth lab's transformer; per-layer FFN gradients (depth_command.cpp).
extern const char kDepthHelp[];
int run_depth(const Args& args);

// `normlab-cli export`: a scene's figures, listed or written as SVG / CSV (export_command.cpp).
extern const char kExportHelp[];
int run_export(const Args& args);

// The scene at `path`, its unknown keys noted on stderr; data files it names outside its own
// folder and assets/ are refused unless read_outside (docs/ARCHITECTURE.md, File safety;
// export_command.cpp).
Scene open_scene(const std::string& path, bool read_outside);

}  // namespace normlab::cli
