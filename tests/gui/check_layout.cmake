# Runs `normlab --check-layout --all-labs` (or, with -DLECTURE=FILE, every slide of the lecture in
# presenter view) at one window size, UI scale and theme, and fails on any overlapping or clipped
# text or number wrapped across lines (app/kit/layout_check.hpp); with -DOVER_DATA=ON (the
# projector theme at the room sizes 1024×768 and 1280×720) also on text over data it does not
# label, which is listed, not failed, elsewhere, and on "dropped" (a figure's label or value shown
# at 1920×1080 but not at SIZE: the same process lays every page out at 1920×1080 first, --dropped;
# -DDROPPED=OFF leaves that out):
#   cmake -DAPP=<normlab> -DXVFB=<xvfb-run> -DSIZE=1024x768 -DSCALE=1 -DTHEME=light [-DLECTURE=F] [-DOVER_DATA=ON] -P check_layout.cmake
# SIZE may list sizes (1024x768,1280x720: one run checks each in turn), and THEME themes
# (projector,light: each size in each theme, in the same run); -DLANG=ko|zh|pseudo picks
# the language (default English); -DLAB=NAME checks that lab alone; with -DTEXT_LOG=FILE
# -DI18N_CHECK=<normlab_i18n_check>, the run's texts go to FILE and at most 5 % of each page's
# worded texts may be English (normlab_i18n_check --english-share).
# (A scripted run sees the GPU lab's sweep whole, so that lab's page does not depend on the
# machine's speed.)
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/../lib.cmake)   # fail, expect_exit, run_retrying
if(NOT DEFINED DROPPED)   # -DDROPPED=OFF: over data, but not dropped
  set(DROPPED ${OVER_DATA})
endif()

if(LECTURE)
  set(pages --lecture ${LECTURE} --presenter)
elseif(LAB)
  set(pages --lab ${LAB})
else()
  set(pages --all-labs)
endif()

set(extra "")
if(LANG)
  list(APPEND extra --lang ${LANG})
endif()
if(TEXT_LOG)
  list(APPEND extra --text-log ${TEXT_LOG})
endif()
if(DROPPED)
  list(APPEND extra --dropped)
endif()
run_retrying(code out err "${XVFB}" -a -s "-screen 0 2560x1440x24" "${APP}" --check-layout ${pages} --size ${SIZE}
             --scale-ui ${SCALE} --theme ${THEME} --json ${extra})
if(NOT code EQUAL 0 AND NOT code EQUAL 1)
  message(FATAL_ERROR "normlab --check-layout exited ${code}\n${out}\n${err}")
endif()

# The labs with a problem, and each problem in a line.
set(failing "")
set(lines "")
set(kinds overlaps clipped split_numbers)
if(OVER_DATA)
  list(APPEND kinds over_data)
endif()
if(DROPPED)
  list(APPEND kinds dropped)
endif()
string(JSON listed LENGTH "${out}" over_data)
foreach(kind ${kinds})
  string(JSON n LENGTH "${out}" ${kind})
  if(n GREATER 0)
    math(EXPR last "${n} - 1")
    foreach(i RANGE ${last})
      string(JSON lab GET "${out}" ${kind} ${i} lab)
      string(JSON slide ERROR_VARIABLE no_slide GET "${out}" ${kind} ${i} slide)
      if(no_slide STREQUAL "NOTFOUND")
        set(lab "${lab} (slide ${slide})")
      endif()
      string(JSON texts GET "${out}" ${kind} ${i} texts)
      list(APPEND failing "${lab}")
      string(APPEND lines "\n  ${kind}: ${lab}: ${texts}")
    endforeach()
  endif()
endforeach()
list(REMOVE_DUPLICATES failing)
string(JSON pages GET "${out}" pages)
message("${LANG} ${SIZE} ×${SCALE}, ${THEME}: ${pages} pages checked; with problems: ${failing}${lines}\n"
        "texts over data: ${listed}")
if(failing)
  message(FATAL_ERROR "overlapping, clipped or split text, text over data, or dropped labels, in: ${failing}")
endif()
if(TEXT_LOG AND I18N_CHECK)
  execute_process(COMMAND "${I18N_CHECK}" --english-share ${TEXT_LOG} 5 RESULT_VARIABLE code OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  message("${out}${err}")
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "more than 5 % of a page's worded texts are English (${TEXT_LOG})")
  endif()
endif()
