// One GL program from its shader stages: compile each, link them, and say in one line why not.
#pragma once

#include "gl.hpp"

#include <string>
#include <vector>

namespace normlab::ui {

// A shader stage: its kind (GL_VERTEX_SHADER, GL_FRAGMENT_SHADER, GL_COMPUTE_SHADER), its source
// in parts that the driver joins, and how messages name it ("geometry_line" + ".vert").
struct ShaderStage {
    GLenum kind;
    std::vector<std::string> parts;
    std::string suffix;
};

// Compiles the stages and links them into a program. Returns it, or 0 with `error` set to one
// line: `NAME.vert does not compile: <the driver's first line>` or `NAME does not link: …`;
// nothing is left allocated then.
GLuint build_gl_program(const std::string& name, const std::vector<ShaderStage>& stages, std::string& error);

}  // namespace normlab::ui
