// The GL the app draws with: OpenGL 3.3 core (4.3 for the GPU lab) through libepoxy on the
// desktop; WebGL2 (OpenGL ES 3.0) through emscripten's GLES3 headers in the page
// (docs/ARCHITECTURE.md, "The web build").
#pragma once

#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#else
#include <epoxy/gl.h>
#endif

#include <cstddef>
#include <string>
#include <vector>

namespace normlab::ui {

// The context's version as major·10 + minor (45 for OpenGL 4.5; 30 for WebGL2's ES 3.0).
inline int gl_version() {
#ifdef __EMSCRIPTEN__
    return 30;
#else
    return epoxy_gl_version();
#endif
}

// A GLSL source written for "#version 330 core" (shaders/*.vert, *.frag) as this context takes
// it: in the page, "#version 300 es" with float precision stated.
inline std::string glsl_for_context(const char* source) {
#ifdef __EMSCRIPTEN__
    std::string s = source;
    const std::string desktop = "#version 330 core";
    if (s.rfind(desktop, 0) == 0) s.replace(0, desktop.size(), "#version 300 es\nprecision highp float;");
    return s;
#else
    return source;
#endif
}

// glReadPixels of the bound read buffer as RGB bytes, width × height, bottom row first, into
// `out` (3·width·height bytes). WebGL2 reads only RGBA bytes: the page reads those and drops alpha.
inline void read_pixels_rgb(int width, int height, unsigned char* out) {
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
#ifdef __EMSCRIPTEN__
    const std::size_t n = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
    std::vector<unsigned char> rgba(4 * n);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t c = 0; c < 3; ++c) out[3 * i + c] = rgba[4 * i + c];
#else
    glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, out);
#endif
}

}  // namespace normlab::ui
