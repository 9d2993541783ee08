# A lecture whose caption mixes Hangul and Han draws real glyphs (docs/i18n/TRANSLATING.md, Fonts):
# its presenter screenshot differs from the same caption with '?' for each of those characters,
# and from one whose characters no font has (drawn as boxes, said in the status line once).
#   cmake -DAPP=<normlab> -DXVFB=<xvfb-run> -DCOMPARE=<normlab_compare_png> -DDIR=<scenes> -DOUT=<dir> -P cjk_caption.cmake
cmake_minimum_required(VERSION 3.25)
foreach(kind caption question box)
  set(png ${OUT}/cjk_${kind}.png)
  file(REMOVE ${png})
  execute_process(COMMAND ${XVFB} -a -s "-screen 0 1280x720x24" ${APP} --lecture ${DIR}/cjk_${kind}_lecture.json
                          --presenter --screenshot ${png} --frames 8
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0 OR NOT EXISTS ${png})
    message(FATAL_ERROR "cjk_${kind}: exit ${code}\n${out}${err}")
  endif()
endforeach()
# compare_png exits 1 when two images differ beyond its thresholds.
foreach(other question box)
  execute_process(COMMAND ${COMPARE} ${OUT}/cjk_caption.png ${OUT}/cjk_${other}.png --max-mean 0.05 --max-differing 0.0005
                  RESULT_VARIABLE code OUTPUT_VARIABLE out)
  if(NOT code EQUAL 1)
    message(FATAL_ERROR "the CJK caption's screenshot does not differ from the ${other} caption's (exit ${code}): ${out}")
  endif()
endforeach()
