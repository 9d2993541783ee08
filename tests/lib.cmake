# Included by the CMake test scripts of tests/cli and tests/gui (cmake -P):
#   include(${CMAKE_CURRENT_LIST_DIR}/../lib.cmake)
#   fail(WHAT)          adds a line "  WHAT" to `failures` (empty at the include); the script reports
#                       them all at its end
#   expect_exit(CODE EXPECTED)          fail()s unless the exit code CODE is EXPECTED
#   run_retrying(CODE OUT ERR ARGS...)  execute_process(COMMAND ARGS...) into the variables CODE,
#                       OUT and ERR; a run whose stderr says "xvfb_run.sh: error:" (Xvfb did not
#                       start: nothing was run) is tried again, up to 3 times in all
set(failures "")
macro(fail what)
  string(APPEND failures "\n  ${what}")
endmacro()

macro(expect_exit code expected)
  if(NOT "${code}" STREQUAL "${expected}")
    fail("exit code ${code}, expected ${expected}")
  endif()
endmacro()

function(run_retrying code_var out_var err_var)
  foreach(attempt RANGE 1 3)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT err MATCHES "xvfb_run.sh: error:")
      break()
    endif()
    message("attempt ${attempt}: ${err}")
  endforeach()
  set(${code_var} "${code}" PARENT_SCOPE)
  set(${out_var} "${out}" PARENT_SCOPE)
  set(${err_var} "${err}" PARENT_SCOPE)
endfunction()
