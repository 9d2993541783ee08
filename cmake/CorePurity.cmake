# Keeps core/ free of GUI and GL (docs/ARCHITECTURE.md, "Layers"). An allow-list: a core file may
# include only
#   - the C++ standard library (<vector>, <cmath>: a bare lower-case name),
#   - Eigen (<Eigen/...>) and nlohmann-json (<nlohmann/...>),
#   - core's own headers ("normlab/<layer>/x.hpp", and "<layer>/x.hpp" private to core/src),
#   - the few system headers named in NORMLAB_CORE_SYSTEM_HEADERS, each for a stated reason.
# Run as a script (cmake -DFILES=a;b -P CorePurity.cmake) it checks FILES and fails naming the
# first include outside the list; core's build runs it whenever a core file changes, and ctest runs
# it too (core.purity), with a fixture that must be refused (core.purity_refuses).

# zlib.h: datasets.cpp reads digits.csv.gz. POSIX (unistd, fcntl, dirent, signal, sys/stat, sys/file):
# file_io.cpp's atomic saves, bounded reads and lock files; datasets.cpp's regular-file check. immintrin.h: fast_norm.cpp's AVX2 kernels,
# chosen at run time. sys/resource.h: thread_priority.cpp's worker threads below the UI thread's priority.
set(NORMLAB_CORE_SYSTEM_HEADERS "zlib|unistd|fcntl|dirent|signal|sys/stat|sys/file|sys/resource|immintrin")
set(NORMLAB_CORE_ALLOWED
    "<[a-z_]+>|<Eigen/[A-Za-z]+>|<nlohmann/[a-z_]+\\.hpp>|\"normlab/[a-z_]+/[a-z0-9_]+\\.hpp\"|\"(base|norm|models|labs|plot|scene)/[a-z_]+\\.hpp\"|<(${NORMLAB_CORE_SYSTEM_HEADERS})\\.h>")

if(CMAKE_SCRIPT_MODE_FILE)
  foreach(file IN LISTS FILES)
    file(STRINGS "${file}" lines REGEX "^[ \t]*#[ \t]*include")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*([<\"][^>\"]*[>\"]).*$" "\\1" header "${line}")
      if(NOT header MATCHES "^(${NORMLAB_CORE_ALLOWED})$")
        message(FATAL_ERROR "core may include only the C++ standard library, Eigen, nlohmann-json, "
                            "its own headers and the system headers named in cmake/CorePurity.cmake: ${file} includes ${header}")
      endif()
    endforeach()
  endforeach()
  if(STAMP)
    file(TOUCH "${STAMP}")
  endif()
  return()
endif()

# Build time: a stamp that core's library depends on, remade whenever a core file changes.
function(normlab_check_core_sources target)
  set(stamp ${CMAKE_CURRENT_BINARY_DIR}/core_purity.stamp)
  list(JOIN ARGN ";" files)
  add_custom_command(OUTPUT ${stamp}
                     COMMAND ${CMAKE_COMMAND} "-DFILES=${files}" -DSTAMP=${stamp}
                             -P ${CMAKE_CURRENT_FUNCTION_LIST_FILE}
                     DEPENDS ${ARGN} ${CMAKE_CURRENT_FUNCTION_LIST_FILE}
                     COMMENT "Checking that core includes only what it may"
                     VERBATIM)
  add_custom_target(${target}_purity DEPENDS ${stamp})
  add_dependencies(${target} ${target}_purity)
  if(BUILD_TESTING)
    add_test(NAME core.purity
             COMMAND ${CMAKE_COMMAND} "-DFILES=${files}" -P ${CMAKE_CURRENT_FUNCTION_LIST_FILE})
    add_test(NAME core.purity_refuses
             COMMAND ${CMAKE_COMMAND} "-DFILES=${PROJECT_SOURCE_DIR}/tests/core/impure_fixture.hpp"
                     -P ${CMAKE_CURRENT_FUNCTION_LIST_FILE})
    set_tests_properties(core.purity_refuses PROPERTIES
                         PASS_REGULAR_EXPRESSION "impure_fixture.hpp includes <GLFW/glfw3.h>")
  endif()
endfunction()

# Configure time: core must not link anything graphical.
function(normlab_check_core_links target)
  get_target_property(libs ${target} LINK_LIBRARIES)
  get_target_property(ilibs ${target} INTERFACE_LINK_LIBRARIES)
  foreach(lib IN LISTS libs ilibs)
    if(lib MATCHES "(imgui|glfw|GLFW|epoxy|OpenGL|GL|EGL|stb)")
      message(FATAL_ERROR "core must not link GUI/GL libraries: ${target} links ${lib}")
    endif()
  endforeach()
endfunction()
