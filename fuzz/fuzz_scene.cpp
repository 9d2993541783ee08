// NormLab fuzzing: the scene loader (normlab/scene/scene.hpp, parse_scene: a scene file's text → Scene).
//
// Input: any bytes, taken as the file's text (up to -max_len, 16384 in scripts/fuzz.sh).
// Expected: parse_scene returns a Scene or throws InputError. A scene it accepts must then
//   - save and load again, to the same JSON (scene_to_text writes every double exactly), and
//   - satisfy every lab's invariants: the computations the app runs on the first frame after
//     opening the file (Explorer, Geometry, Invariance table, Worked example) do not throw.
#include "fuzz_target.hpp"

#include "normlab/base/input_error.hpp"   // InputError
#include "normlab/scene/scene.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using normlab::fuzz::expect;
    normlab::Scene scene;
    try {
        scene = normlab::parse_scene(normlab::fuzz::as_text(data, size));
    } catch (const normlab::InputError&) {
        return 0;   // a bad file, reported with the path of the bad value
    }

    // From here on nothing may throw: an InputError now is a finding too.
    const nlohmann::json saved = normlab::scene_to_json(scene);
    const normlab::Scene reloaded = normlab::parse_scene(normlab::scene_to_text(scene));
    expect(normlab::scene_to_json(reloaded) == saved, "the scene does not load back to the same JSON");

    const normlab::Session& s = scene.session;
    normlab::compute_explorer(s.explorer);
    normlab::compute_geometry(s.geometry);
    normlab::invariance_lab_table(s.invariance);
    normlab::compute_worked(s.worked, s.explorer.x);
    return 0;
}
