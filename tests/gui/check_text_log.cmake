# Runs normlab under Xvfb with --text-log and checks what the last frame said and stderr:
#   cmake -DAPP=<normlab> -DXVFB=<xvfb-run> -DARGS="a|b|…" -DLOG=FILE -DTEXT=REGEX [-DSTDERR=REGEX]
#         -P check_text_log.cmake
# TEXT must match a line of the text log (the texts of the latest frame, one per line).
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/../lib.cmake)   # fail, expect_exit, run_retrying
string(REPLACE "|" ";" args "${ARGS}")
file(REMOVE ${LOG})
run_retrying(code out err "${XVFB}" -a -s "-screen 0 2560x1440x24" "${APP}" ${args} --text-log ${LOG})
if(NOT code EQUAL 0)
  message(FATAL_ERROR "normlab exited ${code}\n${out}\n${err}")
endif()
file(READ ${LOG} log)
if(NOT log MATCHES "${TEXT}")
  message(FATAL_ERROR "the last frame did not show /${TEXT}/; it showed:\n${log}")
endif()
if(DEFINED STDERR AND NOT err MATCHES "${STDERR}")
  message(FATAL_ERROR "stderr lacks /${STDERR}/:\n${err}")
endif()
message("ok: /${TEXT}/ shown\n${err}")
