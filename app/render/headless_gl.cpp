// GL contexts through EGL without a window (see headless_gl.hpp).
#include "headless_gl.hpp"

#include <epoxy/egl.h>   // EGL through libepoxy, which also dispatches GL in an EGL context
#include <epoxy/gl.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <cstdio>
#include <cstring>

namespace normlab::ui {

namespace {

std::string egl_error(const char* what) {
    char code[16];
    std::snprintf(code, sizeof code, "0x%04x", static_cast<unsigned>(eglGetError()));
    return std::string(what) + " failed (EGL error " + code + ")";
}

// A GPU device's display when asked for and EGL lists one that is not Mesa's software device.
EGLDisplay device_display() {
    if (!epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_EXT_platform_device") ||
        !epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_EXT_device_enumeration"))
        return EGL_NO_DISPLAY;
    EGLDeviceEXT devices[16];
    EGLint count = 0;
    if (eglQueryDevicesEXT(16, devices, &count) != EGL_TRUE) return EGL_NO_DISPLAY;
    for (EGLint i = 0; i < count; ++i) {
        const char* ext = eglQueryDeviceStringEXT(devices[i], EGL_EXTENSIONS);
        if (ext == nullptr || std::strstr(ext, "EGL_MESA_device_software") == nullptr)
            return eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
    }
    return EGL_NO_DISPLAY;
}

EGLDisplay headless_display(EglPlatform platform, std::string& error) {
    if (!epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_EXT_platform_base")) {
        error = "this EGL cannot open a display without a window system (EGL_EXT_platform_base)";
        return EGL_NO_DISPLAY;
    }
    if (platform == EglPlatform::PreferDevice)
        if (EGLDisplay d = device_display(); d != EGL_NO_DISPLAY) return d;
    if (!epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_MESA_platform_surfaceless")) {
        error = "EGL offers no surfaceless platform (EGL_MESA_platform_surfaceless: Debian's libegl-mesa0)";
        return EGL_NO_DISPLAY;
    }
    EGLDisplay d = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    if (d == EGL_NO_DISPLAY) error = egl_error("opening EGL's surfaceless display");
    return d;
}

}  // namespace

std::unique_ptr<EglContext> EglContext::create(int major, int minor, EglPlatform platform, std::string& error) {
    std::unique_ptr<EglContext> gl(new EglContext);
    const EGLDisplay display = headless_display(platform, error);
    if (display == EGL_NO_DISPLAY) return nullptr;
    if (eglInitialize(display, nullptr, nullptr) != EGL_TRUE) {
        error = egl_error("initialising the headless EGL display");
        return nullptr;
    }
    gl->display_ = display;
    if (eglBindAPI(EGL_OPENGL_API) != EGL_TRUE) {
        error = egl_error("choosing desktop OpenGL");
        return nullptr;
    }
    // No surface: EGL_KHR_no_config_context lets the context go without a configuration.
    const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
    EGLConfig config = EGL_NO_CONFIG_KHR;
    EGLint configs = 0;
    if (eglChooseConfig(display, config_attribs, &config, 1, &configs) != EGL_TRUE || configs == 0)
        config = EGL_NO_CONFIG_KHR;
    const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, major, EGL_CONTEXT_MINOR_VERSION, minor,
                                      EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attribs);
    if (context == EGL_NO_CONTEXT) {
        error = egl_error(("creating an OpenGL " + std::to_string(major) + "." + std::to_string(minor) +
                           " core context").c_str());
        return nullptr;
    }
    gl->context_ = context;
    if (eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context) != EGL_TRUE) {
        error = egl_error("making the OpenGL context current without a surface");
        return nullptr;
    }
    return gl;
}

EglContext::~EglContext() {
    if (display_ == nullptr) return;
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (context_ != nullptr) eglDestroyContext(display_, context_);
    eglTerminate(display_);
}

std::unique_ptr<HeadlessGl> HeadlessGl::create(std::string& error) {
    std::unique_ptr<HeadlessGl> h(new HeadlessGl);
    h->gl_ = EglContext::create(3, 3, EglPlatform::Surfaceless, error);
    if (!h->gl_) return nullptr;
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    h->imgui_ = true;
    if (!ImGui_ImplOpenGL3_Init("#version 330 core")) {
        const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
        error = std::string("ImGui's OpenGL3 renderer does not start on ") + (renderer ? renderer : "this GL");
        return nullptr;
    }
    return h;
}

HeadlessGl::~HeadlessGl() {
    if (!imgui_) return;
    if (ImGui::GetIO().BackendRendererUserData != nullptr) ImGui_ImplOpenGL3_Shutdown();
    ImGui::DestroyContext();
}

}  // namespace normlab::ui
