// normlab-cli: the headless front end of NormLab (docs/ARCHITECTURE.md, "Command-line contract"). It links
// core, and for PNG export the app's render library (app/render: the plot painter, no widget).
//
// [SECTION] Subcommands — the table; each subcommand lives in its own file (commands.hpp)
// [SECTION] main        — --help, --version, dispatch, and the one place errors become exit codes
#include "commands.hpp"

#include "normlab/base/input_error.hpp"

#include <algorithm>
#include <iostream>
#include <new>
#include <string>
#include <string_view>

namespace {

using normlab::InputError;
using normlab::cli::Args;

// [SECTION] Subcommands ---------------------------------------------------------------------

struct Subcommand {
    std::string_view name;
    std::string_view summary;  // one line for the top-level --help
    const char* help;          // `normlab-cli NAME --help`
    int (*run)(const Args& args);
};

constexpr Subcommand kSubcommands[] = {
    {"eval", "one norm layer: a JSON request on stdin, a JSON result on stdout", normlab::cli::kEvalHelp,
     normlab::cli::run_eval},
    {"invariance", "the paper's Table 1, measured: which transforms each norm ignores", normlab::cli::kInvarianceHelp,
     normlab::cli::run_invariance},
    {"explain", "every step of LayerNorm and RMSNorm for a vector; checks claimed numbers", normlab::cli::kExplainHelp,
     normlab::cli::run_explain},
    {"gradients", "log-log slopes of gradient magnitudes against δ (paper eq. 8-10)", normlab::cli::kGradientsHelp,
     normlab::cli::run_gradients},
    {"train", "trains an MLP classifier with a chosen norm; prints its learning curve", normlab::cli::kTrainHelp,
     normlab::cli::run_train},
    {"bench", "times the float32 norm kernels (--cpu), training steps/s (--train) or transformer steps (--depth); --torch: beside PyTorch",
     normlab::cli::kBenchHelp, normlab::cli::run_bench},
    {"depth", "trains a small transformer (Post-LN, Pre-LN, NormFormer); per-layer FFN gradients",
     normlab::cli::kDepthHelp, normlab::cli::run_depth},
    {"export", "a scene's figures without a window: --list their names, or write one as SVG or CSV",
     normlab::cli::kExportHelp, normlab::cli::run_export},
};

std::string subcommand_names() {
    std::string out;
    for (const Subcommand& s : kSubcommands) out += (out.empty() ? "" : ", ") + std::string(s.name);
    return out;
}

void print_help() {
    std::cout << "Usage: normlab-cli <subcommand> [options]\n"
                 "       normlab-cli <subcommand> --help\n"
                 "       normlab-cli --help | --version\n\n"
                 "NormLab without a window: the same core computations as the app, for scripts and tests.\n\n"
                 "Subcommands:\n";
    // Two columns: the names, then each summary from the same column, wrapped at 100 characters
    // with its following lines indented to that column.
    std::size_t name_w = 0;
    for (const Subcommand& s : kSubcommands) name_w = std::max(name_w, s.name.size());
    const std::size_t column = 2 + name_w + 2, width = 100;
    for (const Subcommand& s : kSubcommands) {
        std::string line = "  " + std::string(s.name) + std::string(column - 2 - s.name.size(), ' ');
        std::size_t used = column;  // display columns: the summaries' few non-ASCII letters are one each
        std::string_view rest = s.summary;
        while (!rest.empty()) {
            const std::size_t end = std::min(rest.find(' '), rest.size());
            const std::string_view word = rest.substr(0, end);
            std::size_t word_w = 0;
            for (char c : word) word_w += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
            if (used > column && used + 1 + word_w > width) {
                std::cout << line << '\n';
                line = std::string(column, ' ');
                used = column;
            }
            if (used > column) {
                line += ' ';
                ++used;
            }
            line += word;
            used += word_w;
            rest.remove_prefix(std::min(end + 1, rest.size()));
        }
        std::cout << line << '\n';
    }
    std::cout << "\nExit codes: 0 success; 2 bad input or usage (one line on stderr says what and where).\n\n"
                 "The eval request\n================\n"
              << normlab::cli::kEvalHelp;
}

// [SECTION] main ----------------------------------------------------------------------------

int dispatch(const Args& args) {
    const std::string hint = "; see normlab-cli --help";
    if (args.empty()) throw InputError("missing subcommand (available: " + subcommand_names() + ")" + hint);
    const std::string_view first = args[0];
    if (first == "--help" || first == "-h") {
        print_help();
        return 0;
    }
    if (first == "--version") {
        std::cout << "normlab-cli " << NORMLAB_VERSION << '\n';
        return 0;
    }
    for (const Subcommand& s : kSubcommands) {
        if (s.name != first) continue;
        const Args rest(args.begin() + 1, args.end());
        if (!rest.empty() && (rest[0] == "--help" || rest[0] == "-h")) {
            std::cout << s.help;
            return 0;
        }
        return s.run(rest);
    }
    const std::string kind = first.substr(0, 1) == "-" ? "option" : "subcommand";
    throw InputError("unknown " + kind + " " + normlab::quote_for_message(first) +
                     " (available: " + subcommand_names() + ", --help, --version)" + hint);
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return dispatch(Args(argv + 1, argv + argc));
    } catch (const InputError& e) {
        std::cerr << e.what() << '\n';
        return 2;
    } catch (const std::bad_alloc&) {
        // The limits (file sizes, JSON values, model sizes) refuse what they can foresee; this
        // is what they did not: still a refusal of the input, not a crash.
        std::cerr << "normlab-cli: out of memory: the input needs more memory than this machine gives; "
                     "try smaller sizes\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "normlab-cli: internal error: " << e.what() << '\n';
        return 1;
    }
}
