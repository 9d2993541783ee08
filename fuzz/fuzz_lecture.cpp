// NormLab fuzzing: the lecture loader (normlab/scene/scene.hpp, lecture_from_json over parse_json: a
// lecture file's text → the scenes of its slides).
//
// Input: any bytes, taken as the file's text (up to -max_len, 8192 in scripts/fuzz.sh).
// Expected: a Lecture or an InputError (bad JSON, limits of parse_json, a missing or empty
// "slides", a slide without a scene). An accepted lecture has at least one slide, and every
// slide's scene is a non-empty path under the lecture's folder or an absolute one.
#include "fuzz_target.hpp"

#include "normlab/base/json_read.hpp"   // InputError, parse_json
#include "normlab/scene/scene.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using normlab::fuzz::expect;
    normlab::Lecture lecture;
    try {
        lecture = normlab::lecture_from_json(normlab::parse_json(normlab::fuzz::as_text(data, size), "file"), "/talks");
    } catch (const normlab::InputError&) {
        return 0;
    }
    expect(!lecture.slides.empty(), "a lecture without slides was accepted");
    for (const normlab::LectureSlide& slide : lecture.slides) {
        expect(!slide.scene.empty(), "a slide without a scene was accepted");
        expect(slide.scene.front() == '/', "a slide's scene is not an absolute path: " + slide.scene);
    }
    return 0;
}
