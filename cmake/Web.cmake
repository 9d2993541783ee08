# The browser build (docs/ARCHITECTURE.md, "The web build"): configured by scripts/web.sh with
# Debian's emscripten (emcmake cmake -DNORMLAB_WEB=ON). Emscripten's sysroot holds no Eigen,
# nlohmann-json, zlib or Dear ImGui, and the system's /usr/include must not be on its include path
# (glibc's headers would shadow emscripten's libc), so:
#   - Eigen and nlohmann-json: header-only, included from Debian's folders (nlohmann through a link
#     folder that holds only it; stb_image_write likewise);
#   - zlib and Dear ImGui: compiled here from Debian's source packages, which scripts/web.sh
#     unpacks into NORMLAB_WEB_DEPS (apt-get source, pinned to the installed binary's version).
# Everything is compiled with -pthread and -fexceptions: Training and Depth keep their worker threads (Web Workers
# sharing the WebAssembly memory; the page must be cross-origin isolated: COOP/COEP headers).
if(NOT EMSCRIPTEN)
  message(FATAL_ERROR "NORMLAB_WEB needs emscripten's toolchain: run ./scripts/web.sh --build "
                      "(or emcmake cmake -S . -B build-web -DNORMLAB_WEB=ON)")
endif()
set(NORMLAB_WEB_DEPS "${CMAKE_BINARY_DIR}/deps" CACHE PATH "Debian's imgui and zlib sources, unpacked (scripts/web.sh)")
file(GLOB NORMLAB_WEB_IMGUI_DIR LIST_DIRECTORIES true "${NORMLAB_WEB_DEPS}/imgui-*")
file(GLOB NORMLAB_WEB_ZLIB_DIR LIST_DIRECTORIES true "${NORMLAB_WEB_DEPS}/zlib-*")
if(NOT EXISTS "${NORMLAB_WEB_IMGUI_DIR}/imgui.cpp" OR NOT EXISTS "${NORMLAB_WEB_ZLIB_DIR}/inflate.c")
  message(FATAL_ERROR "Debian's imgui and zlib sources are not unpacked in ${NORMLAB_WEB_DEPS}: "
                      "./scripts/web.sh --build fetches them (apt-get source)")
endif()
enable_language(C)
string(APPEND CMAKE_C_FLAGS " -pthread")
# NormLab reports bad input by exceptions (InputError …): catching them needs -fexceptions
# (emscripten's default only lets them abort).
string(APPEND CMAKE_CXX_FLAGS " -pthread -fexceptions")

# Header-only libraries, each from a folder of its own.
set(_links "${CMAKE_BINARY_DIR}/web-include")
file(MAKE_DIRECTORY "${_links}")
foreach(_dir nlohmann stb)
  if(NOT EXISTS "${_links}/${_dir}")
    file(CREATE_LINK "/usr/include/${_dir}" "${_links}/${_dir}" SYMBOLIC)
  endif()
endforeach()
add_library(Eigen3::Eigen INTERFACE IMPORTED GLOBAL)
set_target_properties(Eigen3::Eigen PROPERTIES INTERFACE_INCLUDE_DIRECTORIES /usr/include/eigen3
                      INTERFACE_COMPILE_DEFINITIONS EIGEN_DONT_VECTORIZE)
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED GLOBAL)
set_target_properties(nlohmann_json::nlohmann_json PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${_links}")

# zlib (core reads assets/digits.csv.gz through it).
file(GLOB _zlib_sources "${NORMLAB_WEB_ZLIB_DIR}/*.c")
add_library(normlab_web_zlib STATIC ${_zlib_sources})
target_include_directories(normlab_web_zlib SYSTEM PUBLIC "${NORMLAB_WEB_ZLIB_DIR}")
target_compile_definitions(normlab_web_zlib PRIVATE HAVE_UNISTD_H)
target_compile_options(normlab_web_zlib PRIVATE -w)
add_library(ZLIB::ZLIB ALIAS normlab_web_zlib)

# Dear ImGui 1.86 with its GLFW and OpenGL3 backends (the latter picks GLES3 under emscripten),
# and stb_image_write's implementation (Debian's libstb holds it on the desktop).
add_library(normlab_web_imgui STATIC
  ${NORMLAB_WEB_IMGUI_DIR}/imgui.cpp ${NORMLAB_WEB_IMGUI_DIR}/imgui_draw.cpp
  ${NORMLAB_WEB_IMGUI_DIR}/imgui_tables.cpp ${NORMLAB_WEB_IMGUI_DIR}/imgui_widgets.cpp
  ${NORMLAB_WEB_IMGUI_DIR}/backends/imgui_impl_glfw.cpp ${NORMLAB_WEB_IMGUI_DIR}/backends/imgui_impl_opengl3.cpp
  ${NORMLAB_WEB_IMGUI_DIR}/misc/cpp/imgui_stdlib.cpp
  ${PROJECT_SOURCE_DIR}/app/kit/web_stb_image_write.cpp)
target_include_directories(normlab_web_imgui SYSTEM PUBLIC "${NORMLAB_WEB_IMGUI_DIR}"
                           "${NORMLAB_WEB_IMGUI_DIR}/backends" "${NORMLAB_WEB_IMGUI_DIR}/misc/cpp" "${_links}")
target_compile_options(normlab_web_imgui PUBLIC -sUSE_GLFW=3 PRIVATE -w)

# Link flags of the page (app/CMakeLists.txt adds the packaged files): WebGL2 with the full ES 3
# emulation, GLFW 3, memory that grows (the Depth lab's model asks for up to its 2 GB budget),
# and a pool of workers started with the page, so that std::thread never waits for one to load:
# the Training and Depth workers, fast_norm's pool (hardware_concurrency - 1) and spares.
set(NORMLAB_WEB_LINK_OPTIONS
  -fexceptions -sDISABLE_EXCEPTION_CATCHING=0
  -sUSE_GLFW=3 -sUSE_WEBGL2=1 -sFULL_ES3=1 -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2
  -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=134217728 -sMAXIMUM_MEMORY=2147483648
  "-sPTHREAD_POOL_SIZE=navigator.hardwareConcurrency+4"
  -sEXIT_RUNTIME=0 -sFORCE_FILESYSTEM=1 -lidbfs.js
  "-sEXPORTED_RUNTIME_METHODS=['ccall','cwrap','FS','UTF8ToString','stringToUTF8','lengthBytesUTF8']"
  "-sEXPORTED_FUNCTIONS=['_main','_malloc','_free','_normlab_explorer_json','_normlab_open_scene','_normlab_scene_text','_normlab_view_json','_normlab_palette_json','_normlab_gpu_json']"
  -sENVIRONMENT=web,worker)
