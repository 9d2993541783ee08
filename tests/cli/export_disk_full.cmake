# `normlab-cli export --out` onto a full disk (used by cli.export.disk_full in CMakeLists.txt):
# the shell limits the files it may write to 1 block (`ulimit -f 1`) and ignores SIGXFSZ, so the
# export's write() fails with EFBIG ("File too large") part-way, as on a full disk. Checks: exit
# code 2, one line on stderr that names the file and the reason, the file that was there before
# is intact, and no temporary file is left beside it.
#   cmake -DCLI=<normlab-cli> -DSCENE=<scene.json> -DPLOT=<name> -DOUT=<file.svg> -P export_disk_full.cmake
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/../lib.cmake)   # fail, expect_exit, run_retrying

get_filename_component(dir "${OUT}" DIRECTORY)
get_filename_component(name "${OUT}" NAME)
file(REMOVE_RECURSE "${dir}")
file(MAKE_DIRECTORY "${dir}")
set(old "the figure from the last lecture\n")
file(WRITE "${OUT}" "${old}")
execute_process(COMMAND sh -c "trap '' XFSZ; ulimit -f 1; exec \"$0\" \"$@\""
                        "${CLI}" export --scene "${SCENE}" --plot "${PLOT}" --out "${OUT}" --replace
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)

expect_exit("${code}" 2)
string(REGEX REPLACE "\\.tmp\\.[0-9]+\\.[0-9]+" ".tmp.PID.N" line "${err}")
set(expected "cannot write \"${OUT}\": write to \"${OUT}.tmp.PID.N\" failed: File too large\n")
if(NOT line STREQUAL expected)
  fail("stderr is not the one line ${expected}")
endif()
if(NOT out STREQUAL "")
  fail("stdout is not empty")
endif()
file(READ "${OUT}" now)
if(NOT now STREQUAL old)
  fail("${OUT} was changed: ${now}")
endif()
file(GLOB left RELATIVE "${dir}" "${dir}/*")
if(NOT left STREQUAL name)
  fail("files left in ${dir}: ${left} (expected ${name} alone)")
endif()
if(failures)
  message(FATAL_ERROR "normlab-cli export under ulimit -f 1${failures}\nstderr: ${err}")
endif()
file(REMOVE_RECURSE "${dir}")
