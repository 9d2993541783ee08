// GL programs from shader stages (see gl_program.hpp).
#include "gl_program.hpp"

namespace normlab::ui {

namespace {

// The first non-empty line of a driver's log, without trailing white space.
std::string first_line(const char* log) {
    std::string text(log);
    std::size_t start = text.find_first_not_of(" \t\r\n");
    if (start == std::string::npos) return "no message from the driver";
    std::size_t end = text.find_first_of("\r\n", start);
    std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.pop_back();
    return line;
}

}  // namespace

GLuint build_gl_program(const std::string& name, const std::vector<ShaderStage>& stages, std::string& error) {
    std::vector<GLuint> shaders;
    const auto release = [&shaders] {
        for (GLuint s : shaders) glDeleteShader(s);   // flagged when attached; freed with the program
    };
    for (const ShaderStage& stage : stages) {
        std::vector<const char*> parts;
        for (const std::string& p : stage.parts) parts.push_back(p.c_str());
        const GLuint shader = glCreateShader(stage.kind);
        glShaderSource(shader, static_cast<GLsizei>(parts.size()), parts.data(), nullptr);
        glCompileShader(shader);
        shaders.push_back(shader);
        GLint ok = GL_FALSE;
        glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
        if (ok != GL_TRUE) {
            char log[2048] = "";
            glGetShaderInfoLog(shader, sizeof log, nullptr, log);
            error = name + stage.suffix + " does not compile: " + first_line(log);
            release();
            return 0;
        }
    }
    const GLuint program = glCreateProgram();
    for (GLuint s : shaders) glAttachShader(program, s);
    glLinkProgram(program);
    release();
    GLint ok = GL_FALSE;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (ok == GL_TRUE) return program;
    char log[2048] = "";
    glGetProgramInfoLog(program, sizeof log, nullptr, log);
    error = name + " does not link: " + first_line(log);
    glDeleteProgram(program);
    return 0;
}

}  // namespace normlab::ui
