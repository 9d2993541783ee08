// Scenes and lectures (core/src/scene/scene.cpp, state_json.cpp, the labs' state_to_json /
// state_from_json) and the figures of a scene (core/src/scene/scene_plots.cpp).
//
// [SECTION] Helpers
// [SECTION] Round trip      — save → open gives every lab's state back exactly
// [SECTION] Defaults        — missing sections and keys; keys this NormLab does not know
// [SECTION] Refused files   — corrupt (a table of exact messages), truncated, newer; nothing written
// [SECTION] Shipped scenes  — every file in assets/scenes and assets/lectures opens
// [SECTION] Figures         — scene_plots names and order
// [SECTION] Undo / redo     — SessionHistory: one step per edit, drags coalesced, bounded
#include "normlab/base/file_io.hpp"
#include "normlab/base/i18n.hpp"
#include "normlab/base/json_read.hpp"
#include "normlab/scene/scene.hpp"
#include "normlab/scene/scene_history.hpp"
#include "normlab/scene/scene_plots.hpp"
#include "temp_dir.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <unistd.h>

namespace normlab {
namespace {

// The default session and an empty scene, named once: GCC 12 warns (falsely) of an uninitialized
// string in the destructor of their temporaries.
const Session kDefaultSession;
const Scene kEmptyScene;

namespace fs = std::filesystem;
using nlohmann::json;

// [SECTION] Helpers -------------------------------------------------------------------------

std::string session_text(const Session& s) { return session_to_json(s).dump(); }

// A session in which every lab differs from its default in every kind of field, with values
// that only an exact (17-digit) round trip keeps.
Session unusual_session() {
    Session s;
    ExplorerState& e = s.explorer;
    explorer_set_square_W(e, false);
    explorer_resize(e, 5, 3);
    e.x << 0.1 + 0.2, -1e-300, 12345.678901234567, 1.0 / 3.0, -0.0;
    e.W(1, 4) = 2.0 / 7.0;
    e.W(2, 0) = -987654.3210987654;   // near kExplorerEntryRule's end, all 17 digits
    e.g(1) = 0.7;
    e.b(2) = -0.25;
    e.delta = 3.14159;
    e.target = ScaleTarget::W;
    e.eps = 1e-12;
    e.eps_mode = EpsMode::AddToRms;
    e.seed = std::numeric_limits<std::uint64_t>::max();

    InvarianceLabState& inv = s.invariance;
    invariance_lab_new_batch(inv, 77, 4, 3, 5);
    inv.data.g(2) = 1.5;
    inv.shift = 2.5;
    inv.delta = 0.05;
    inv.tolerance = 1e-7;
    inv.spec.eps = 0.001;
    inv.spec.eps_mode = EpsMode::AddToRms;
    inv.spec.p = 0.3;
    inv.spec.rounding = PartialRounding::Floor;
    inv.curve_norms = {true, false, false, false, true};
    inv.curve_transforms = {false, true, false, true, false, true};

    WorkedState& w = s.worked;
    w.eps = 0.0;
    w.claimed_name.reset();
    w.claimed_outputs = "[−1, 0, \"1\"]\n\t1.5";
    w.claimed_steps = "μ = 5; σ² = 5";

    GradientLabState& g = s.gradients;
    g.loss = GradientLoss::RandomUpstream;
    g.target = (Vec(3) << 0.5, -2.0, 1e-8).finished();
    g.seed = 123456789012345ULL;
    g.eps = 1e-3;
    g.eps_mode = EpsMode::AddToRms;
    g.p = 0.5;
    g.show = {false, true, false};
    g.show_gradient = {true, false, true, false};
    g.fd_norm = 2;
    g.sgd_norm = 0;
    g.sgd_delta = 0.125;
    g.learning_rate = 0.03;
    g.sgd_steps = 7;

    GeometryLabState& geo = s.geometry;
    geometry_set_dimension(geo, 2);
    geometry_set_batch_size(geo, 3);
    geo.points(0, 1) = -3.99;
    geo.g = (Vec(2) << 0.5, 1.75).finished();
    geo.eps = 0.2;
    geo.eps_mode = EpsMode::AddToRms;
    geo.shrink = 0.001;
    geo.seed = 99;

    s.depth.init = TransformerInit::Xavier;
    return s;
}

Scene unusual_scene() {
    Scene scene;
    scene.title = "A title with “quotes”, δ and a \\ backslash";
    scene.caption = "Two lines:\nthe second.";
    scene.lab = "gradients";
    scene.session = unusual_session();
    return scene;
}

std::string scene_text_with(const std::string& labs) {
    return R"({"format": "normlab-scene", "version": 1, "labs": )" + labs + "}";
}

// [SECTION] Round trip ----------------------------------------------------------------------

TEST(SceneRoundTrip, EveryLabHasASection) {
    const std::vector<std::string_view> sections = scene_lab_sections();
    for (std::string_view lab : {"explorer", "invariance", "worked", "gradients", "geometry"})
        EXPECT_NE(std::find(sections.begin(), sections.end(), lab), sections.end()) << lab;
    const json labs = session_to_json(kDefaultSession);
    EXPECT_EQ(labs.size(), sections.size());
}

TEST(SceneRoundTrip, SaveThenOpenReproducesEveryLabExactly) {
    const TempDir dir;
    const Scene before = unusual_scene();
    ASSERT_NE(session_text(before.session), session_text(kDefaultSession)) << "the test session must not be the default";
    save_scene(before, dir.file("s.json"), IfExists::Replace);
    std::vector<std::string> ignored;
    const Scene after = load_scene(dir.file("s.json"), &ignored);
    EXPECT_TRUE(ignored.empty());
    EXPECT_EQ(after.title, before.title);
    EXPECT_EQ(after.caption, before.caption);
    EXPECT_EQ(after.lab, before.lab);
    // Section by section, so that a failure names the lab.
    const json a = session_to_json(after.session), b = session_to_json(before.session);
    for (const auto& item : b.items()) EXPECT_EQ(a.at(item.key()), item.value()) << "lab " << item.key();
    EXPECT_EQ(scene_to_text(after), scene_to_text(before));

    // The fields themselves, bit for bit (JSON equality could hide a lossy conversion on both sides).
    const ExplorerState &e1 = after.session.explorer, &e0 = before.session.explorer;
    EXPECT_EQ(e1.x.size(), 5);
    for (Eigen::Index i = 0; i < 5; ++i) EXPECT_EQ(e1.x(i), e0.x(i)) << i;
    EXPECT_TRUE(std::signbit(e1.x(4)));   // −0 stays −0
    EXPECT_TRUE(e1.W == e0.W);
    EXPECT_FALSE(e1.square_W);
    EXPECT_TRUE(e1.g == e0.g && e1.b == e0.b);
    EXPECT_EQ(e1.delta, e0.delta);
    EXPECT_EQ(e1.target, ScaleTarget::W);
    EXPECT_EQ(e1.eps_mode, EpsMode::AddToRms);
    EXPECT_EQ(e1.seed, std::numeric_limits<std::uint64_t>::max());
    const InvarianceLabState &i1 = after.session.invariance, &i0 = before.session.invariance;
    EXPECT_EQ(i1.seed, 77u);
    EXPECT_TRUE(i1.data.x == i0.data.x && i1.data.W == i0.data.W && i1.data.g == i0.data.g &&
                i1.data.b == i0.data.b && i1.data.gamma_W == i0.data.gamma_W && i1.data.gamma_x == i0.data.gamma_x);
    EXPECT_TRUE(!same_curve_inputs(i1, InvarianceLabState{}) && same_curve_inputs(i1, i0));
    EXPECT_EQ(i1.delta, i0.delta);
    EXPECT_EQ(i1.tolerance, i0.tolerance);
    const WorkedState& w1 = after.session.worked;
    EXPECT_FALSE(w1.claimed_name.has_value());
    EXPECT_EQ(w1.claimed_outputs, before.session.worked.claimed_outputs);
    EXPECT_EQ(w1.claimed_steps, before.session.worked.claimed_steps);
    EXPECT_EQ(w1.eps, 0.0);
    EXPECT_TRUE(after.session.gradients == before.session.gradients);
    const GeometryLabState &g1 = after.session.geometry, &g0 = before.session.geometry;
    EXPECT_TRUE(g1.points == g0.points && g1.g == g0.g);
    EXPECT_EQ(g1.eps, g0.eps);
    EXPECT_EQ(g1.shrink, g0.shrink);
    EXPECT_EQ(g1.seed, g0.seed);
    EXPECT_EQ(g1.eps_mode, EpsMode::AddToRms);
    EXPECT_EQ(after.session.depth.init, TransformerInit::Xavier);
    EXPECT_TRUE(after.session.depth == before.session.depth);
}

TEST(SceneRoundTrip, TheDefaultSessionToo) {
    Scene scene;
    const Scene again = parse_scene(scene_to_text(scene));
    EXPECT_EQ(session_text(again.session), session_text(kDefaultSession));
    EXPECT_EQ(again.lab, "explorer");
}

TEST(SceneRoundTrip, SaveReplacesAnExistingFileWhole) {
    const TempDir dir;
    const std::string path = dir.file("s.json");
    write_file_atomically(path, std::string(100000, 'x'), IfExists::Replace);
    save_scene(unusual_scene(), path, IfExists::Replace);
    EXPECT_EQ(read_file(path), scene_to_text(unusual_scene()));
    EXPECT_THROW(save_scene(kEmptyScene, dir.file("no/such/dir/s.json"), IfExists::Replace), std::runtime_error);
    EXPECT_FALSE(fs::exists(dir.file("no")));
}

// [SECTION] Defaults ------------------------------------------------------------------------

TEST(SceneDefaults, MissingSectionsAndKeysKeepTheDefaults) {
    const Scene bare = parse_scene(R"({"format": "normlab-scene", "version": 1})");
    EXPECT_EQ(session_text(bare.session), session_text(kDefaultSession));
    EXPECT_EQ(bare.lab, "explorer");
    EXPECT_EQ(bare.title, "");

    const Scene empty_labs = parse_scene(scene_text_with("{}"));
    EXPECT_EQ(session_text(empty_labs.session), session_text(kDefaultSession));

    // One key of one lab: the rest of that lab and every other lab at their defaults.
    const Scene one = parse_scene(scene_text_with(R"({"gradients": {"sgd_steps": 12}})"));
    GradientLabState want;
    want.sgd_steps = 12;
    EXPECT_TRUE(one.session.gradients == want);
    EXPECT_EQ(session_to_json(one.session).at("explorer"), session_to_json(kDefaultSession).at("explorer"));
}

// The depth lab's init: absent (files from before it existed) is the uniform ±1/√n_in draw.
TEST(SceneDefaults, DepthInitIsUniformUnlessNamed) {
    const Scene old_file = parse_scene(scene_text_with(R"({"depth": {"layers": 4}})"));
    EXPECT_EQ(old_file.session.depth.init, TransformerInit::Uniform);
    EXPECT_EQ(old_file.session.depth.layers, 4);
    EXPECT_EQ(session_to_json(kDefaultSession).at("depth").at("init"), "uniform");
    for (TransformerInit init : kAllTransformerInits) {
        const std::string name(to_string(init));
        const Scene s = parse_scene(scene_text_with(R"({"depth": {"init": ")" + name + R"("}})"));
        EXPECT_EQ(s.session.depth.init, init) << name;
        EXPECT_EQ(session_to_json(s.session).at("depth").at("init"), name);
    }
}

TEST(SceneDefaults, ExplorerShapesFollowTheKeysGiven) {
    const Scene s = parse_scene(scene_text_with(R"({"explorer": {"x": [1, 2, 3]}})"));
    EXPECT_TRUE(s.session.explorer.W == Mat::Identity(3, 3));
    EXPECT_TRUE(s.session.explorer.g == Vec::Ones(3));
    EXPECT_TRUE(s.session.explorer.b == Vec::Zero(3));
    EXPECT_NO_THROW(compute_explorer(s.session.explorer));
    EXPECT_TRUE(s.session.explorer.square_W);
    // Without the key, "n follows m" is whether the file's W is square.
    const Scene wide = parse_scene(scene_text_with(R"({"explorer": {"x": [1, 2, 3], "W": [[1, 0, 0], [0, 1, 0]]}})"));
    EXPECT_FALSE(wide.session.explorer.square_W);
    const Scene kept = parse_scene(scene_text_with(R"({"explorer": {"x": [1, 2], "W": [[1, 0], [0, 1]], "square_W": false}})"));
    EXPECT_FALSE(kept.session.explorer.square_W);
}

TEST(SceneDefaults, InvarianceSeedAloneDrawsItsBatch) {
    const Scene s = parse_scene(scene_text_with(R"({"invariance": {"seed": 5}})"));
    InvarianceLabState want;
    invariance_lab_new_batch(want, 5, 8, 6, 5);
    EXPECT_TRUE(s.session.invariance.data.x == want.data.x);
    EXPECT_TRUE(s.session.invariance.data.gamma_W == want.data.gamma_W);
}

TEST(SceneDefaults, UnknownKeysAreSkippedAndNamed) {
    std::vector<std::string> ignored;
    const Scene s = parse_scene(R"({"format": "normlab-scene", "version": 1, "extra": 1, "lab": "invariance",
        "labs": {"explorer": {"delat": 3, "delta": 2}, "future_lab": {"a": 1}}})",
                                &ignored);
    EXPECT_EQ(ignored, (std::vector<std::string>{"labs.explorer.delat", "labs.future_lab", "extra"}));
    EXPECT_EQ(s.session.explorer.delta, 2.0);
    EXPECT_EQ(s.lab, "invariance");
}

// [SECTION] Refused files -------------------------------------------------------------------

struct BadScene {
    const char* name;
    std::string text;
    std::string message;   // exactly what parse_scene throws
};

std::vector<BadScene> bad_scenes() {
    const auto labs = [](const std::string& l) { return scene_text_with(l); };
    return {
        {"empty", "", "file is empty"},
        {"blank", "  \n\t\n", "file is empty"},
        {"not_json", "{\"format\": normlab}",
         "file is not valid JSON: parse error at line 1, column 13: syntax error while parsing value - invalid literal; last read: '\"format\": no'"},
        {"list", "[1, 2]", "not a NormLab scene (expected \"normlab-scene\" in a JSON object, got a list)"},
        {"no_format", R"({"version": 1})", "not a NormLab scene: \"format\" is missing (expected \"normlab-scene\")"},
        {"lecture_format", R"({"format": "normlab-lecture", "version": 1})",
         "not a NormLab scene: format is string \"normlab-lecture\" (expected \"normlab-scene\")"},
        {"no_version", R"({"format": "normlab-scene"})", "version is missing (this NormLab reads versions 1 to 1)"},
        {"version_text", R"({"format": "normlab-scene", "version": "1"})",
         "version is not a whole number (got string \"1\") (this NormLab reads versions 1 to 1)"},
        {"version_zero", R"({"format": "normlab-scene", "version": 0})",
         "version 0 is not a valid version (this NormLab reads versions 1 to 1)"},
        {"future_version", R"({"format": "normlab-scene", "version": 7, "labs": {"new": "layout"}})",
         "version 7 is newer than this NormLab (1): update NormLab to open it"},
        {"title", R"({"format": "normlab-scene", "version": 1, "title": 3})", "title is not a string (got number 3)"},
        {"lab_id", R"({"format": "normlab-scene", "version": 1, "lab": "Explorer!"})",
         "lab \"Explorer!\" is not a lab id (lower-case letters, digits, '_' and '-', e.g. \"explorer\")"},
        {"labs_list", labs("[]"), "labs is not an object (got a list)"},
        {"section_number", labs(R"({"explorer": 3})"), "labs.explorer is not an object (got number 3)"},
        {"x_string", labs(R"({"explorer": {"x": [1, 2, "a"]}})"), "labs.explorer.x[2] is not a number (got string \"a\")"},
        {"x_overflow", labs(R"({"explorer": {"x": [1, 1e999]}})"),
         "labs.explorer.x[1] is not finite (it overflows the double range)"},
        {"x_short", labs(R"({"explorer": {"x": [1]}})"), "labs.explorer.x has 1 entry, expected 2 to 64"},
        {"W_columns", labs(R"({"explorer": {"x": [1, 2, 3, 4], "W": [[1, 0, 0], [0, 1, 0]]}})"),
         "labs.explorer.W has 3 columns, labs.explorer.x has 4 entries"},
        {"W_ragged", labs(R"({"explorer": {"x": [1, 2], "W": [[1, 0], [0]]}})"),
         "labs.explorer.W[1] has 1 entry, labs.explorer.W[0] has 2"},
        {"g_length", labs(R"({"explorer": {"g": [1, 1, 1]}})"),
         "labs.explorer.g has 3 entries, expected n = 4 (the rows of W)"},
        {"delta_range", labs(R"({"explorer": {"delta": 5000}})"),
         "labs.explorer.delta = 5000 is out of range [0.001, 1000]"},
        {"eps_negative", labs(R"({"explorer": {"eps": -1}})"), "labs.explorer.eps = -1 is out of range (0, 1]"},
        {"eps_mode", labs(R"({"explorer": {"eps_mode": "sqrt"}})"),
         "labs.explorer.eps_mode is \"sqrt\", expected one of: inside_sqrt, add_to_rms"},
        {"use_W", labs(R"({"explorer": {"use_W": 1}})"), "labs.explorer.use_W is not true or false (got number 1)"},
        {"seed", labs(R"({"explorer": {"seed": -1}})"), "labs.explorer.seed is not a whole number ≥ 0 (got number -1)"},
        {"curve_norm", labs(R"({"invariance": {"curve_norms": ["layernorm", "foo"]}})"),
         "labs.invariance.curve_norms[1] is \"foo\", expected one of: batchnorm, weightnorm, layernorm, rmsnorm, prmsnorm"},
        {"curve_repeat", labs(R"({"invariance": {"curve_norms": ["layernorm", "layernorm"]}})"),
         "labs.invariance.curve_norms[1] repeats \"layernorm\""},
        {"inv_gamma", labs(R"({"invariance": {"gamma_x": [1, 2]}})"),
         "labs.invariance.gamma_x has 2 entries, expected 6 (m, the columns of x)"},
        {"p_zero", labs(R"({"invariance": {"p": 0}})"), "labs.invariance.p = 0 is out of range (0, 1]"},
        {"steps_range", labs(R"({"gradients": {"sgd_steps": 500}})"),
         "labs.gradients.sgd_steps = 500 is out of range [1, 200]"},
        {"steps_fraction", labs(R"({"gradients": {"sgd_steps": 2.5}})"), "labs.gradients.sgd_steps = 2.5 is not a whole number"},
        {"loss", labs(R"({"gradients": {"loss": "l1"}})"),
         "labs.gradients.loss is \"l1\", expected one of: squared_error, random_upstream"},
        {"depth_lr", labs(R"({"depth": {"lr": 0}})"), "labs.depth.lr = 0 is out of range [1e-05, 1]"},
        {"depth_width", labs(R"({"depth": {"width": 48}})"), "labs.depth.width = 48 is not one of 8, 16, 32, 64, 128, 256"},
        {"depth_sweep", labs(R"({"depth": {"sweep_lr_min": 0.1, "sweep_lr_max": 0.01}})"),
         "labs.depth.sweep_lr_max must be larger than sweep_lr_min (0.1)"},
        {"depth_task", labs(R"({"depth": {"task": "translate"}})"),
         "labs.depth.task is \"translate\", expected one of: sort, copy, text"},
        {"depth_init", labs(R"({"depth": {"init": "glorot"}})"),
         "labs.depth.init is \"glorot\", expected one of: uniform, xavier"},
        {"depth_init_number", labs(R"({"depth": {"init": 1}})"),
         "labs.depth.init is not a string (got number 1)"},
        {"geometry_dim", labs(R"({"geometry": {"points": [[1, 2, 3, 4]]}})"),
         "labs.geometry.points has 4 coordinates per point, expected 2 or 3"},
        {"geometry_far", labs(R"({"geometry": {"points": [[1, 2, 3], [0, 9, 0]]}})"),
         "labs.geometry.points[1][1] = 9.0 is outside [−4, 4]"},
        {"claimed_name", labs(R"({"worked": {"claimed_name": "batchnorm"}})"),
         "labs.worked.claimed_name is \"batchnorm\", expected one of: layernorm, layernorm_sample, rmsnorm, l2norm"},
    };
}

class RefusedScene : public ::testing::TestWithParam<BadScene> {};

TEST_P(RefusedScene, SaysWhatAndWhere) {
    const BadScene& c = GetParam();
    try {
        parse_scene(c.text);
        FAIL() << "accepted: " << c.text;
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), c.message);
        EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << "one line";
    }
}

INSTANTIATE_TEST_SUITE_P(Cases, RefusedScene, ::testing::ValuesIn(bad_scenes()),
                         [](const ::testing::TestParamInfo<BadScene>& param_info) { return std::string(param_info.param.name); });

TEST(RefusedSceneFile, TruncatedAtAnyPointIsNamedTruncated) {
    const std::string text = scene_to_text(unusual_scene());
    // Cut inside a string, a number, a list, between keys, before the last brace: all say "truncated".
    ASSERT_EQ(text.substr(text.size() - 2), "}\n");
    for (std::size_t cut : {std::size_t{5}, text.size() / 3, text.size() / 2, text.size() - 3, text.size() - 2}) {
        try {
            parse_scene(text.substr(0, cut));
            ADD_FAILURE() << "a file cut at " << cut << " was accepted";
        } catch (const InputError& e) {
            EXPECT_EQ(std::string(e.what()).rfind("file is truncated: parse error at line ", 0), 0u)
                << "cut at " << cut << ": " << e.what();
        }
    }
}

// The autosave's reading: a refused lab section costs that lab only (it keeps its defaults, the
// message is kept); a file that is no scene at all is still refused whole.
TEST(RefusedSceneFile, TheAutosaveKeepsTheLabsThatLoad) {
    Session session;
    session.gradients.sgd_steps = 77;
    json j = scene_to_json(Scene{"t", "c", "gradients", session, "", {}});
    j["labs"]["explorer"]["eps"] = 0;   // allowed before NormLab's ranges, refused now
    std::vector<std::string> dropped;
    const Scene scene = parse_scene_keeping_labs(j.dump(), dropped);
    ASSERT_EQ(dropped.size(), 1u);
    EXPECT_EQ(dropped[0], "labs.explorer.eps = 0 is out of range (0, 1]");
    EXPECT_EQ(scene.session.gradients.sgd_steps, 77);
    EXPECT_EQ(scene.session.explorer.eps, ExplorerState{}.eps);
    EXPECT_EQ(scene.lab, "gradients");
    EXPECT_THROW(parse_scene(j.dump()), InputError);   // opening it as a scene still refuses it

    for (const std::string& bad : {std::string("{\"format\": \"normlab-scene\", \"version\": 9}"), std::string("[1, 2"),
                                  std::string("")}) {
        std::vector<std::string> none;
        EXPECT_THROW(parse_scene_keeping_labs(bad, none), InputError) << bad;
        EXPECT_TRUE(none.empty());
    }
}

TEST(RefusedSceneFile, NothingIsWrittenAndThePathIsNamed) {
    const TempDir dir;
    const std::string autosave = dir.file("autosave.json");
    save_scene(unusual_scene(), autosave, IfExists::Replace);
    const std::string autosave_before = read_file(autosave);
    const std::string truncated = scene_to_text(kEmptyScene).substr(0, 40);
    const struct {
        const char* file;
        std::string text;
        std::string message;
    } cases[] = {
        {"corrupt.json", scene_text_with(R"({"explorer": {"x": [1, 2, "a"]}})"),
         "labs.explorer.x[2] is not a number (got string \"a\")"},
        {"truncated.json", truncated, ""},
        {"future.json", R"({"format": "normlab-scene", "version": 7})",
         "version 7 is newer than this NormLab (1): update NormLab to open it"},
    };
    for (const auto& c : cases) {
        const std::string path = dir.file(c.file);
        write_file_atomically(path, c.text, IfExists::Replace);
        Session session = unusual_session();
        const std::string session_before = session_text(session);
        try {
            session = load_scene(path).session;   // as the app does: replaced only on success
            ADD_FAILURE() << c.file << " was accepted";
        } catch (const InputError& e) {
            const std::string message = e.what();
            EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << message;
            if (!c.message.empty()) EXPECT_EQ(message, path + ": " + c.message);
            else EXPECT_NE(message.find(": file is truncated: "), std::string::npos) << message;
        }
        EXPECT_EQ(session_text(session), session_before) << c.file;
        EXPECT_EQ(read_file(path), c.text) << c.file << " must not be rewritten";
        EXPECT_EQ(read_file(autosave), autosave_before) << "the autosave must not be touched";
    }
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()), 4) << "no stray files";
    try {
        load_scene(dir.file("missing.json"));
        ADD_FAILURE() << "a missing file was accepted";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), "cannot read \"" + dir.file("missing.json") + "\": cannot open: No such file or directory");
    }
}

// [SECTION] Shipped scenes ------------------------------------------------------------------

const std::set<std::string> kKnownLabs = {"explorer", "invariance", "worked", "gradients",
                                          "geometry", "training",   "depth", "precision"};

std::vector<fs::path> files_in(const std::string& folder) {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(folder))
        if (e.path().extension() == ".json") out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

TEST(ShippedScenes, EveryOneOpensWithATitleAndCaption) {
    const std::string folder = std::string(NORMLAB_ASSETS_DIR) + "/scenes";
    const std::vector<fs::path> files = files_in(folder);
    for (const char* required : {"seed_example.json", "invariance_table.json", "gradient_slopes.json",
                                 "training_spiral_four_norms.json", "postln_preln_normformer.json"})
        EXPECT_TRUE(fs::exists(folder + "/" + required)) << required;
    for (const fs::path& file : files) {
        SCOPED_TRACE(file.string());
        std::vector<std::string> ignored;
        Scene scene;
        ASSERT_NO_THROW(scene = load_scene(file.string(), &ignored));
        EXPECT_TRUE(ignored.empty()) << "skipped: " << (ignored.empty() ? "" : ignored.front());
        EXPECT_FALSE(scene.title.empty());
        EXPECT_FALSE(scene.caption.empty());
        EXPECT_LE(scene.caption.size(), 320u) << "a caption is short: it sits above the figures";
        EXPECT_EQ(kKnownLabs.count(scene.lab), 1u) << scene.lab;
        EXPECT_NO_THROW(compute_explorer(scene.session.explorer));
        // Its own lab's figures (the depth lab's take a minute to train: test_depth_lab does).
        if (scene.lab != "depth") {
            EXPECT_NO_THROW(lab_plots(scene.session, scene.lab));
        }
        // What the file says, it says exactly: written out and read back, nothing changes.
        EXPECT_EQ(scene_to_text(parse_scene(scene_to_text(scene))), scene_to_text(scene));
    }
    EXPECT_GE(files.size(), 5u);
}

TEST(ShippedScenes, SeedExampleIsTheExplainersVector) {
    const Scene s = load_scene(std::string(NORMLAB_ASSETS_DIR) + "/scenes/seed_example.json");
    EXPECT_EQ(s.lab, "explorer");
    const ExplorerResults r = compute_explorer(s.session.explorer);
    EXPECT_NEAR(r.layernorm.y(0, 0), -1.342, 5e-4);
    EXPECT_NEAR(r.rmsnorm.y(0, 3), 1.461, 5e-4);
}

TEST(ShippedLectures, EverySlideOpens) {
    const std::vector<fs::path> files = files_in(std::string(NORMLAB_ASSETS_DIR) + "/lectures");
    ASSERT_FALSE(files.empty());
    for (const fs::path& file : files) {
        SCOPED_TRACE(file.string());
        Lecture lecture;
        ASSERT_NO_THROW(lecture = load_lecture(file.string()));
        EXPECT_FALSE(lecture.title.empty());
        for (const LectureSlide& slide : lecture.slides) EXPECT_NO_THROW(load_scene(slide.scene)) << slide.scene;
    }
}

TEST(Lectures, SlidePathsAreRelativeToTheLecture) {
    const Lecture l = lecture_from_json(json::parse(R"({"format": "normlab-lecture", "version": 1, "title": "T",
        "slides": [{"scene": "../scenes/a.json", "caption": "c"}, {"scene": "/abs/b.json"}]})"),
                                        "/x/lectures");
    ASSERT_EQ(l.slides.size(), 2u);
    EXPECT_EQ(l.slides[0].scene, "/x/scenes/a.json");
    EXPECT_EQ(l.slides[0].caption, "c");
    EXPECT_EQ(l.slides[1].scene, "/abs/b.json");
    EXPECT_EQ(l.slides[1].caption, "");
}

TEST(Lectures, BadOnesSayWhatAndWhere) {
    const auto message = [](const std::string& text) {
        try {
            lecture_from_json(json::parse(text), "");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(message(R"({"format": "normlab-lecture", "version": 1, "slides": []})"),
              "slides is empty: a lecture needs at least one scene");
    EXPECT_EQ(message(R"({"format": "normlab-lecture", "version": 1, "slides": [{"scene": "a.json"}, {"caption": "x"}]})"),
              "slides[1].scene is missing (the scene file of this slide)");
    EXPECT_EQ(message(R"({"format": "normlab-lecture", "version": 1, "slides": [{"scene": 3}]})"),
              "slides[0].scene is not a string (got number 3)");
    EXPECT_EQ(message(R"({"format": "normlab-lecture", "version": 2, "slides": []})"),
              "version 2 is newer than this NormLab (1): update NormLab to open it");
    EXPECT_EQ(message(R"({"format": "normlab-scene", "version": 1})"),
              "not a NormLab lecture: format is string \"normlab-scene\" (expected \"normlab-lecture\")");
}

// A slide's presenter parts: figures (one or two), controls, whether its run starts on its own.
TEST(Lectures, SlidesNameTheirFiguresControlsAndRun) {
    const Lecture l = lecture_from_json(json::parse(R"({"format": "normlab-lecture", "version": 1, "slides": [
        {"scene": "a.json", "figures": ["training_maps", "training_loss"], "controls": ["play"], "run": "paused"},
        {"scene": "b.json"}]})"), "");
    ASSERT_EQ(l.slides.size(), 2u);
    EXPECT_EQ(l.slides[0].figures, (std::vector<std::string>{"training_maps", "training_loss"}));
    EXPECT_EQ(l.slides[0].controls, std::vector<std::string>{"play"});
    EXPECT_EQ(l.slides[0].run, SlideRun::Paused);
    EXPECT_TRUE(l.slides[1].figures.empty());
    EXPECT_TRUE(l.slides[1].controls.empty());
    EXPECT_EQ(l.slides[1].run, SlideRun::Auto);

    const auto message = [](const std::string& slide) {
        try {
            lecture_from_json(json::parse(R"({"format": "normlab-lecture", "version": 1, "slides": [)" + slide + "]}"), "");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(message(R"({"scene": "a.json", "figures": ["a", "b", "c"]})"),
              "slides[0].figures names 3 figures; a slide shows one or two");
    EXPECT_EQ(message(R"({"scene": "a.json", "controls": "play"})"),
              "slides[0].controls is not a list of names (got string \"play\")");
    EXPECT_EQ(message(R"({"scene": "a.json", "controls": ["play", 3]})"),
              "slides[0].controls[1] is not a name (got number 3)");
    EXPECT_EQ(message(R"({"scene": "a.json", "figures": ["x", "x"]})"), "slides[0].figures[1] repeats \"x\"");
    EXPECT_EQ(message(R"({"scene": "a.json", "run": "later"})").rfind("slides[0].run is \"later\"", 0), 0u);
}

// A slide's own title replaces its scene's; keys no reader knows are named, as paths.
TEST(Lectures, SlideTitlesAndUnknownKeys) {
    const Lecture l = lecture_from_json(json::parse(R"({"format": "normlab-lecture", "version": 1, "titel": "T",
        "slides": [{"scene": "a.json", "title": "Mean subtracted", "captoin": "c"}, {"scene": "b.json"}]})"), "");
    ASSERT_EQ(l.slides.size(), 2u);
    EXPECT_EQ(l.slides[0].title, "Mean subtracted");
    EXPECT_EQ(l.slides[0].caption, "");
    EXPECT_EQ(l.slides[1].title, "");
    EXPECT_EQ(l.ignored, (std::vector<std::string>{"titel", "slides[0].captoin"}));
    const Lecture shipped = load_lecture(std::string(NORMLAB_ASSETS_DIR) + "/lectures/rmsnorm_paper.json");
    EXPECT_TRUE(shipped.ignored.empty());
}

// Titles and captions per language (docs/LECTURES.md, Languages): "title_ko", "caption_zh" beside
// the file's own; the UI language picks; a key for a language NormLab has no catalog for is
// named as unknown; a scene keeps every language through save and load.
TEST(Lectures, TextsInTheUsersLanguage) {
    const Lecture l = lecture_from_json(json::parse(R"({"format": "normlab-lecture", "version": 1, "language": "ko",
        "title": "정규화", "title_en": "Normalization",
        "slides": [{"scene": "a.json", "caption": "평균", "caption_zh": "均值", "caption_fr": "moyenne", "title_de": "x"}]})"), "");
    EXPECT_EQ(l.language, "ko");
    EXPECT_EQ(l.ignored, (std::vector<std::string>{"slides[0].caption_fr", "slides[0].title_de"}));
    set_language(Language::En, Catalog{});
    EXPECT_EQ(shown_title(l), "Normalization");
    EXPECT_EQ(shown_caption(l.slides[0]), "평균");   // no English caption: the file's own
    set_language(Language::Zh, Catalog{});
    EXPECT_EQ(shown_title(l), "정규화");
    EXPECT_EQ(shown_caption(l.slides[0]), "均值");
    set_language(Language::En, Catalog{});
    EXPECT_THROW(lecture_from_json(json::parse(R"({"format": "normlab-lecture", "version": 1, "language": "fr",
        "slides": [{"scene": "a.json"}]})"), ""), InputError);

    // The shipped lecture and scenes in Korean: every caption has its ko and zh text.
    ASSERT_TRUE(set_language(Language::Ko, NORMLAB_ASSETS_DIR "/i18n").empty());
    const Lecture shipped = load_lecture(std::string(NORMLAB_ASSETS_DIR) + "/lectures/rmsnorm_paper.json");
    EXPECT_EQ(shown_title(shipped), "평균 제곱근 레이어 정규화 (Zhang & Sennrich, NeurIPS 2019)");
    EXPECT_NE(shown_caption(shipped.slides[6]).find("스텝 1–50"), std::string::npos);
    for (const LectureSlide& slide : shipped.slides) {
        const Scene scene = load_scene(slide.scene);
        for (const char* code : {"ko", "zh"}) {
            EXPECT_EQ(scene.translations.title.count(code), 1u) << slide.scene << " " << code;
            EXPECT_EQ(scene.translations.caption.count(code), 1u) << slide.scene << " " << code;
        }
    }
    set_language(Language::En, Catalog{});

    Scene scene;
    scene.title = "Mean";
    scene.language = "en";
    scene.translations.title["ko"] = "평균";
    scene.translations.caption["zh"] = "均值";
    std::vector<std::string> ignored;
    const Scene back = scene_from_json(scene_to_json(scene), &ignored);
    EXPECT_TRUE(ignored.empty());
    EXPECT_EQ(back.language, "en");
    EXPECT_EQ(back.translations.title, scene.translations.title);
    EXPECT_EQ(back.translations.caption, scene.translations.caption);
    EXPECT_EQ(text_in(back.title, back.translations.title, "ko"), "평균");
    EXPECT_EQ(text_in(back.title, back.translations.title, "zh"), "Mean");
}

// [SECTION] Figures -------------------------------------------------------------------------

std::vector<std::string> names(const std::vector<Plot>& plots) {
    std::vector<std::string> out;
    for (const Plot& p : plots) out.push_back(p.name);
    return out;
}

std::vector<std::string> names(const std::vector<std::string_view>& list) { return {list.begin(), list.end()}; }

TEST(ScenePlots, TheScenesOwnLabFirstThenTheOthers) {
    const std::vector<std::string> gradients = {"gradients_input_scaling", "gradients_weight_scaling",
                                                "implicit_lr_outputs", "implicit_lr_weight_norm",
                                                "implicit_lr_relative_step"};
    Scene scene;
    scene.lab = "gradients";
    std::vector<std::string> want = gradients;
    want.push_back("explorer_summed_inputs");
    const std::vector<std::string> got = names(scene_plot_names(scene));
    ASSERT_GE(got.size(), want.size());
    EXPECT_EQ(std::vector<std::string>(got.begin(), got.begin() + static_cast<long>(want.size())), want);

    scene.lab = "invariance";
    EXPECT_EQ(names(scene_plot_names(scene)).front(), "invariance_vs_delta");
    scene.lab = "worked";   // a lab without figures: every lab's, in table order
    const std::vector<std::string> all = names(scene_plot_names(scene));
    EXPECT_EQ(all.front(), "explorer_summed_inputs");
    EXPECT_EQ(all.back(), "precision_conventions");   // the last lab's last table
    EXPECT_EQ(std::set<std::string>(all.begin(), all.end()).size(), all.size()) << "names are unique";
    EXPECT_EQ(names(lab_plots(scene.session, "gradients")), gradients);
    EXPECT_EQ(names(lab_plots(scene.session, "explorer")),
              (std::vector<std::string>{"explorer_summed_inputs", "explorer_layernorm", "explorer_rmsnorm", "explorer_weights"}));
    EXPECT_TRUE(lab_plots(scene.session, "worked").empty());
    EXPECT_TRUE(lab_plots(scene.session, "nosuchlab").empty());
    EXPECT_TRUE(lab_plot_names("nosuchlab").empty());
}

// Every lab's listed names are the names of the figures it builds (small runs: a few steps).
TEST(ScenePlots, ListedNamesAreTheBuiltOnes) {
    Session session;
    session.training.train.steps = 20;
    session.depth.layers = 1;
    session.depth.width = 16;
    session.depth.steps = 3;
    session.depth.measure_steps = 2;
    session.depth.sweep_points = 2;
    session.depth.sweep_steps = 5;
    for (std::string_view lab : plot_labs()) {
        SCOPED_TRACE(std::string(lab));
        EXPECT_EQ(names(lab_plots(session, lab)), names(lab_plot_names(session, lab)));
        for (std::string_view n : lab_plot_names(session, lab)) {   // a session draws some of the lab's names
            const std::vector<std::string_view> all = lab_plot_names(lab);
            EXPECT_NE(std::find(all.begin(), all.end(), n), all.end()) << n;
        }
    }
    // The Training lab's maps follow the ticked variants, and there are none for digits.
    session.training.variants = {false, true, false, false, false, true};   // LayerNorm, BatchNorm
    std::vector<std::string> want = {"training_loss_vs_step", "training_accuracy_vs_step", "training_loss_vs_time",
                                     "training_accuracy_vs_time", "training_grad_norms", "training_step_time",
                                     "training_map_layernorm", "training_map_batchnorm"};
    EXPECT_EQ(names(lab_plot_names(session, "training")), want);
    EXPECT_EQ(names(lab_plots(session, "training")), want);
    training_lab_choose_dataset(session.training, DatasetKind::Digits);
    session.training.train.steps = 10;
    want.resize(6);
    EXPECT_EQ(names(lab_plot_names(session, "training")), want);
    EXPECT_EQ(names(lab_plots(session, "training")), want);
}

// An unticked variant's map is named in the message that refuses it, not computed.
TEST(ScenePlots, AMapOfAnUntickedVariantIsRefusedWithWhy) {
    Scene scene;
    scene.session.training.variants = {false, true, false, false, false, false};
    try {
        scene_plot(scene, "training_map_rmsnorm");
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("not drawn with this scene's training settings"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("training_map_layernorm"), std::string::npos) << e.what();
    }
}

// A CSV stands alone: every row of every figure names its series, and no two series of a
// figure share a name (the curves can be told apart): every lab at the defaults, and each shipped
// scene's own lab at its settings (runs shortened: the names do not depend on the length).
TEST(ScenePlots, EveryExportedRowNamesItsSeries) {
    std::vector<Scene> scenes(1);
    for (const fs::path& file : files_in(std::string(NORMLAB_ASSETS_DIR) + "/scenes"))
        scenes.push_back(load_scene(file.string()));
    for (std::size_t i = 0; i < scenes.size(); ++i) {
        Session& session = scenes[i].session;
        session.training.train.steps = std::min(session.training.train.steps, 20);
        session.depth.layers = 3;
        session.depth.width = 16;
        session.depth.steps = 3;
        session.depth.measure_steps = 2;
        session.depth.sweep_points = 2;
        session.depth.sweep_steps = 5;
        for (std::string_view lab : plot_labs()) {
            if (i > 0 && lab != scenes[i].lab) continue;
            for (const Plot& plot : lab_plots(session, lab)) {
                SCOPED_TRACE(plot.name);
                std::set<std::string> seen;
                for (const Series& s : plot.series) {
                    if (!drawn(s) || std::min(s.x.size(), s.y.size()) == 0) continue;
                    EXPECT_FALSE(series_name(s).empty()) << "a series of " << s.x.size() << " points has no name";
                    EXPECT_TRUE(seen.insert(series_name(s)).second) << "two series named " << series_name(s);
                }
            }
        }
    }
}

TEST(ScenePlots, OneFigureByNameOrAListOfThem) {
    Scene scene;
    EXPECT_EQ(to_csv(scene_plot(scene, "invariance_vs_delta")), to_csv(invariance_curve_plot(scene.session.invariance)));
    try {
        scene_plot(scene, "nope");
        FAIL() << "accepted";
    } catch (const InputError& e) {
        const std::string m = e.what();
        EXPECT_EQ(m.rfind("unknown plot \"nope\" (plots: explorer_summed_inputs, ", 0), 0u) << m;
    }
}

TEST(ScenePlots, BuiltFromTheScenesState) {
    Scene scene;
    scene.session.invariance.curve_norms = {false, false, true, false, false};   // LayerNorm only
    scene.session.invariance.curve_transforms = {true, false, false, true, false, false};
    std::vector<Plot> plots = lab_plots(scene.session, "invariance");
    ASSERT_EQ(plots.size(), 5u);   // the curves, x and W, the Explorer panel's two bar charts
    const Plot& curves = plot_named(plots, "invariance_vs_delta");
    EXPECT_EQ(curves.series.size(), 2u);   // one norm × two transforms
    const Plot same = invariance_curve_plot(scene.session.invariance);
    EXPECT_EQ(to_csv(curves), to_csv(same));
    // x and W as the editors show them: a cell per entry, row 1 on top, the entry's value.
    const Plot& x = plot_named(plots, "invariance_x");
    const Mat& bx = scene.session.invariance.data.x;
    ASSERT_TRUE(x.heat);
    EXPECT_EQ(x.heat->rows, bx.rows());
    EXPECT_EQ(x.heat->cols, bx.cols());
    EXPECT_TRUE(x.y.reversed);
    EXPECT_EQ(x.heat->values[0].v[static_cast<std::size_t>(bx.cols() + 2)], bx(1, 2));
    EXPECT_EQ(plot_named(plots, "invariance_weights").heat->rows, scene.session.invariance.data.W.rows());
    // The Explorer panel: the Explorer's outputs now, as the Explorer's own figures show them.
    std::vector<Plot> explorer = lab_plots(scene.session, "explorer");
    EXPECT_EQ(plot_named(plots, "invariance_explorer_rmsnorm").series.front().y,
              plot_named(explorer, "explorer_rmsnorm").series.front().y);
}

// [SECTION] Undo / redo ---------------------------------------------------------------------

// One frame of the app: `input` (a key, click, release…), `editing` (a widget held), at time t.
struct Frames {
    SessionHistory history;
    Session session;
    double t = 0.0;
    explicit Frames(std::size_t limit = kDefaultHistoryLimit) : history(limit) { frame(false, false); }
    bool frame(bool input, bool editing) {
        t += 1.0 / 60.0;
        return history.observe(session, input, editing, t);
    }
};

TEST(SessionUndo, ADragIsOneStep) {
    Frames f;
    const std::string before = session_text(f.session);
    for (int i = 1; i <= 30; ++i) {   // the δ slider dragged over 30 frames, the mouse down throughout
        f.session.explorer.delta = 1.0 + 0.1 * i;
        EXPECT_FALSE(f.frame(i == 1, true));
    }
    EXPECT_TRUE(f.frame(true, false));   // released: the edit ends
    EXPECT_EQ(f.history.undo_count(), 1u);
    const std::string after = session_text(f.session);
    ASSERT_TRUE(f.history.undo(f.session));
    EXPECT_EQ(session_text(f.session), before);
    EXPECT_EQ(f.history.redo_count(), 1u);
    ASSERT_TRUE(f.history.redo(f.session));
    EXPECT_EQ(session_text(f.session), after);
    EXPECT_FALSE(f.history.redo(f.session));
}

TEST(SessionUndo, EveryEditIsAStepAndANewEditDropsTheRedos) {
    Frames f;
    for (int i = 0; i < 3; ++i) {
        f.session.explorer.x(0) = 10.0 + i;   // three separate edits (a key press each)
        EXPECT_TRUE(f.frame(true, false));
    }
    EXPECT_EQ(f.history.undo_count(), 3u);
    f.history.undo(f.session);
    f.frame(true, false);   // the frame of Ctrl+Z: its key is not an edit
    f.history.undo(f.session);
    f.frame(true, false);
    EXPECT_EQ(f.session.explorer.x(0), 10.0);
    EXPECT_EQ(f.history.redo_count(), 2u);
    f.session.worked.eps = 0.5;   // a new edit
    EXPECT_TRUE(f.frame(true, false));
    EXPECT_EQ(f.history.redo_count(), 0u);
    EXPECT_EQ(f.history.undo_count(), 2u);
}

TEST(SessionUndo, InputWithoutAChangeIsNoStep) {
    Frames f;
    EXPECT_FALSE(f.frame(true, false));   // a tab clicked, a plot zoomed
    EXPECT_EQ(f.history.undo_count(), 0u);
    EXPECT_FALSE(f.history.undo(f.session));
}

TEST(SessionUndo, AChangeWithoutInputIsAStepAtThePeriodicCheck) {
    // No lab changes the session by itself (draw functions read it): a change that comes without
    // input is still an edit, found by the periodic check, and undone like any other.
    Frames f;
    f.session.explorer.x(0) = 7.0;
    EXPECT_TRUE(f.frame(true, false));
    f.session.gradients.target = Vec::Ones(4);
    EXPECT_FALSE(f.frame(false, false));   // not checked at once without input
    bool recorded = false;
    for (int i = 0; i < 120 && !recorded; ++i) recorded = f.frame(false, false);
    EXPECT_TRUE(recorded);
    EXPECT_EQ(f.history.undo_count(), 2u);
    ASSERT_TRUE(f.history.undo(f.session));
    EXPECT_EQ(f.session.gradients.target.size(), 0);
    EXPECT_EQ(f.session.explorer.x(0), 7.0);
}

TEST(SessionUndo, AnUnrecordedChangeCanBeRedoneAfterUndo) {
    Frames f;
    f.session.geometry.shrink = 0.5;   // changed, and undone before the frame ended
    ASSERT_TRUE(f.history.undo(f.session));
    EXPECT_EQ(f.session.geometry.shrink, 1.0);
    ASSERT_TRUE(f.history.redo(f.session));
    EXPECT_EQ(f.session.geometry.shrink, 0.5);
}

TEST(SessionUndo, TheHistoryIsBounded) {
    Frames f(3);
    for (int i = 0; i < 5; ++i) {
        f.session.explorer.delta = 2.0 + i;
        f.frame(true, false);
    }
    EXPECT_EQ(f.history.undo_count(), 3u);
    while (f.history.undo(f.session)) {
    }
    EXPECT_EQ(f.session.explorer.delta, 3.0);   // the oldest kept: after the 2nd edit
}

TEST(SessionUndo, AnOpenedFileIsOneStep) {
    Frames f;
    f.session = load_scene(std::string(NORMLAB_ASSETS_DIR) + "/scenes/gradient_slopes.json").session;
    f.history.mark_input();
    EXPECT_TRUE(f.frame(false, false));
    ASSERT_TRUE(f.history.undo(f.session));
    EXPECT_EQ(session_text(f.session), session_text(kDefaultSession));
}

TEST(SessionUndo, EachStepIsNamedByWhatChangedAndWhere) {
    Frames f;
    f.session.explorer.x(1) = 5.0;   // one entry
    ASSERT_TRUE(f.frame(true, false));
    f.session.explorer.delta = 10.0;   // a setting, named by its symbol
    ASSERT_TRUE(f.frame(true, false));
    f.session.explorer.W(0, 1) = 0.5;   // one entry of a matrix
    ASSERT_TRUE(f.frame(true, false));
    f.session.explorer.x = Vec::Constant(4, 3.0);   // a preset: the whole vector, and its seed
    f.session.explorer.seed = 2;
    ASSERT_TRUE(f.frame(true, false));
    const char* expected[] = {"x₂ = 5", "δ = 10", "W₁,₂ = 0.5", "x = [3, 3, 3, 3], seed = 2"};
    for (int i = 3; i >= 0; --i) {
        ASSERT_NE(f.history.next_undo(), nullptr);
        EXPECT_EQ(f.history.next_undo()->lab, "explorer");
        EXPECT_EQ(f.history.next_undo()->what, expected[i]);
        ASSERT_TRUE(f.history.undo(f.session));
        ASSERT_NE(f.history.next_redo(), nullptr);
        EXPECT_EQ(f.history.next_redo()->what, expected[i]);   // redo names the same change
    }
    EXPECT_EQ(f.history.next_undo(), nullptr);
    ASSERT_TRUE(f.history.redo(f.session));
    EXPECT_EQ(f.history.next_undo()->what, expected[0]);
    EXPECT_EQ(f.history.next_redo()->what, expected[1]);
}

TEST(SessionUndo, AStepThatChangesTwoLabsIsNamedForTheLabOnScreen) {
    Frames f;
    f.history.set_lab_on_screen("worked");
    f.session.explorer.x(0) = 9.0;   // a worked-example preset sets the Explorer's x too
    f.session.worked.eps = 0.5;
    ASSERT_TRUE(f.frame(true, false));
    EXPECT_EQ(f.history.next_undo()->lab, "worked");
    EXPECT_EQ(f.history.next_undo()->what, "ε = 0.5");
    f.history.set_lab_on_screen("gradients");   // not among the changed: the first that is
    f.session.explorer.x(0) = 8.0;
    f.session.worked.eps = 0.25;
    ASSERT_TRUE(f.frame(true, false));
    EXPECT_EQ(f.history.next_undo()->lab, "explorer");
    EXPECT_EQ(f.history.next_undo()->what, "x₁ = 8");
}

TEST(SessionUndo, ALongArrayIsCountedNotListed) {
    Session before, after;
    after.explorer.x = Vec::LinSpaced(64, -1.0, 1.0);
    const StepName name = describe_change(session_to_json(before), session_to_json(after));
    EXPECT_EQ(name.lab, "explorer");
    EXPECT_EQ(name.what, "x (64 values)");
    EXPECT_EQ(describe_change(session_to_json(before), session_to_json(before)).lab, "");
}

}  // namespace
}  // namespace normlab

namespace normlab {
namespace {

// A scene's data files: relative to the scene's folder (not the current one); those outside it
// and assets/ are named; a save writes the ones inside relative again.
TEST(SceneDataFiles, RelativeToTheSceneAndOutsideNamed) {
    const TempDir dir;
    std::filesystem::create_directories(dir.path / "talk" / "data");
    const std::string scene_path = dir.file("talk/scene.json");
    write_file_atomically(scene_path,
                          R"({"format": "normlab-scene", "version": 1, "labs": {"training": {"csv_path": "data/blobs.csv"},
                              "depth": {"text_path": "/etc/hostname"}}})",
                          IfExists::Refuse);
    const Scene scene = load_scene(scene_path);
    EXPECT_EQ(scene.session.training.data.path, dir.file("talk/data/blobs.csv"));
    EXPECT_EQ(scene.session.depth.text_path, "/etc/hostname");

    const std::vector<SceneDataFile> outside = data_files_outside(scene.session, {dir.file("talk"), dir.file("assets")});
    ASSERT_EQ(outside.size(), 1u);
    EXPECT_EQ(outside[0].key, "labs.depth.text_path");
    EXPECT_EQ(outside[0].path, "/etc/hostname");
    EXPECT_TRUE(data_files_outside(scene.session, {"/etc", dir.file("talk")}).empty());

    // A link inside the folder to a file outside it is outside.
    std::filesystem::create_symlink("/etc/hostname", dir.path / "talk" / "data" / "sneaky.txt");
    Session linked = scene.session;
    set_scene_data_file(linked, "labs.depth.text_path", dir.file("talk/data/sneaky.txt"));
    EXPECT_EQ(data_files_outside(linked, {dir.file("talk")}).size(), 1u);
    // "..": lexically outside.
    set_scene_data_file(linked, "labs.depth.text_path", dir.file("talk/../secret.txt"));
    EXPECT_EQ(data_files_outside(linked, {dir.file("talk")}).size(), 1u);

    // Saved in a folder that holds the data: relative to it; elsewhere: absolute.
    save_scene(scene, dir.file("talk/copy.json"), IfExists::Refuse);
    EXPECT_NE(read_file(dir.file("talk/copy.json")).find("\"csv_path\": \"data/blobs.csv\""), std::string::npos);
    save_scene(scene, dir.file("copy.json"), IfExists::Refuse);
    EXPECT_NE(read_file(dir.file("copy.json")).find("\"csv_path\": \"talk/data/blobs.csv\""), std::string::npos);
    EXPECT_EQ(load_scene(dir.file("copy.json")).session.training.data.path, dir.file("talk/data/blobs.csv"));
    std::filesystem::create_directory(dir.path / "elsewhere");
    save_scene(scene, dir.file("elsewhere/copy.json"), IfExists::Refuse);
    EXPECT_NE(read_file(dir.file("elsewhere/copy.json")).find("\"csv_path\": \"" + dir.file("talk/data/blobs.csv") + "\""),
              std::string::npos);
}

// Limits: a scene nested deeper than kMaxJsonDepth or bigger than kMaxSceneBytes is refused
// with a message that names the limit (20,000 levels crashed the app).
TEST(SceneLimits, DeepNestingAndSizeAreRefusedByName) {
    const std::string deep = R"({"format": "normlab-scene", "version": 1, "labs": {"worked": {"claimed_steps": )" +
                             std::string(20000, '[') + std::string(20000, ']') + "}}}";
    try {
        parse_scene(deep);
        ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("is nested deeper than 64 levels (the limit)"), std::string::npos) << e.what();
    }
    std::vector<std::string> dropped;
    EXPECT_THROW(parse_scene_keeping_labs(deep, dropped), InputError);
    // Cut short inside the nesting: still "truncated", found without building anything.
    try {
        parse_scene(std::string(30, '['));
        ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("file is truncated", 0), 0u) << e.what();
    }
    const TempDir dir;
    const std::string big = dir.file("big.json");
    write_file_atomically(big, std::string(kMaxSceneBytes + 1, ' '), IfExists::Refuse);
    try {
        load_scene(big);
        ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("more than the limit of 16 MB"), std::string::npos) << e.what();
    }
}

// Lists of values: more than kMaxJsonValues is refused before the parse builds them all.
TEST(SceneLimits, TooManyValuesAreRefused) {
    std::string many = "[";
    for (std::size_t i = 0; i <= kMaxJsonValues; ++i) many += "0,";
    many.back() = ']';
    try {
        parse_json(many, "request");
        ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), "request holds more than 8000000 values (the limit)");
    }
}

}  // namespace
}  // namespace normlab
