# Runs normlab once and checks what it did (used by the gui.* tests in CMakeLists.txt):
#   cmake -DAPP=<normlab> [-DARGS=a|b] [-DXVFB=<xvfb-run>] [-DNO_DISPLAY=ON] -DEXIT=<code>
#         [-DSTDOUT=<text>] [-DSTDERR=<text>] [-DPNG=<file> -DCHECKER=<checker> [-DCHECK_ARGS=a|b]] -P run_gui.cmake
# XVFB        run inside a virtual 1600×1000×24 display (tests/xvfb_run.sh); SCREEN=WxH another size.
# NO_DISPLAY  run with DISPLAY and WAYLAND_DISPLAY unset.
# EXIT        the expected exit code.
# STDOUT      text that stdout must contain; STDERR: text that stderr must contain.
# PNG         a screenshot the run must write (removed first, so that an old one cannot pass);
#             CHECKER then checks its pixels (`CHECKER PNG CHECK_ARGS...`) and must exit 0.
# Lists are '|'-separated here because ';' would split the argument on its way through ctest.
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/../lib.cmake)   # fail, expect_exit, run_retrying

string(REPLACE "|" ";" args "${ARGS}")
string(REPLACE "|" ";" check_args "${CHECK_ARGS}")
set(prefix "")
if(NOT SCREEN)
  set(SCREEN 1600x1000)
endif()
if(XVFB)
  set(prefix "${XVFB}" -a -s "-screen 0 ${SCREEN}x24")
elseif(NO_DISPLAY)
  set(prefix env -u DISPLAY -u WAYLAND_DISPLAY)
endif()
if(PNG)
  file(REMOVE "${PNG}" "${PNG}.tmp")
endif()
run_retrying(code out err ${prefix} "${APP}" ${args})   # Xvfb's failures to start tried again

expect_exit("${code}" "${EXIT}")
foreach(stream IN ITEMS STDOUT STDERR)
  string(TOLOWER ${stream} name)
  set(text "${out}")
  if(stream STREQUAL "STDERR")
    set(text "${err}")
  endif()
  if(NOT "${${stream}}" STREQUAL "")
    string(FIND "${text}" "${${stream}}" at)
    if(at EQUAL -1)
      fail("${name} lacks \"${${stream}}\"")
    endif()
  endif()
endforeach()
if(PNG)
  if(NOT EXISTS "${PNG}")
    fail("no screenshot at ${PNG}")
  else()
    execute_process(COMMAND "${CHECKER}" "${PNG}" ${check_args} RESULT_VARIABLE check_code OUTPUT_VARIABLE check_out
                    ERROR_VARIABLE check_out)
    message("${check_out}")
    if(NOT check_code EQUAL 0)
      fail("the screenshot failed its checks (above)")
    endif()
  endif()
endif()

if(failures)
  message(FATAL_ERROR "normlab ${args}:${failures}\n--- stdout ---\n${out}\n--- stderr ---\n${err}")
endif()
