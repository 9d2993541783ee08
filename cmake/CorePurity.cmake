# Keeps core/ free of GUI and GL: no such header included by its sources, no such library linked.
set(NORMLAB_FORBIDDEN_IN_CORE "imgui|GLFW|glfw|epoxy|GL/|GLES|EGL|stb_image")

# Configure-time: every listed file of core must not include a forbidden header.
function(normlab_check_core_sources)
  foreach(file IN LISTS ARGN)
    file(STRINGS "${file}" bad REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](${NORMLAB_FORBIDDEN_IN_CORE})")
    if(bad)
      message(FATAL_ERROR "core must not include GUI/GL headers: ${file}: ${bad}")
    endif()
  endforeach()
endfunction()

# Configure-time: the core target must not link a forbidden library.
function(normlab_check_core_links target)
  get_target_property(libs ${target} LINK_LIBRARIES)
  get_target_property(ilibs ${target} INTERFACE_LINK_LIBRARIES)
  foreach(lib IN LISTS libs ilibs)
    if(lib MATCHES "(${NORMLAB_FORBIDDEN_IN_CORE}|OpenGL|imgui)")
      message(FATAL_ERROR "core must not link GUI/GL libraries: ${target} links ${lib}")
    endif()
  endforeach()
endfunction()
