# `normlab --lang ko --export-plot` draws the figure's texts in Korean with real glyphs (Noto Sans
# CJK merged into the export's fonts, docs/i18n/TRANSLATING.md, Fonts): the PNG differs from the
# same export with the CJK font pointed away (each Hangul syllable a box), and from the English.
#   cmake -DAPP=<normlab> -DXVFB=<xvfb-run> -DCOMPARE=<normlab_compare_png> -DOUT=<dir> -P lang_export_plot.cmake
cmake_minimum_required(VERSION 3.25)
foreach(kind ko no_cjk en)
  set(png ${OUT}/lang_export_${kind}.png)
  file(REMOVE ${png})
  set(lang ko)
  set(env)
  if(kind STREQUAL "en")
    set(lang en)
  elseif(kind STREQUAL "no_cjk")
    set(env ${CMAKE_COMMAND} -E env NORMLAB_CJK_FONTS=${OUT}/no-such-font-folder)
  endif()
  execute_process(COMMAND ${env} ${XVFB} -a ${APP} --lang ${lang} --export-plot invariance_vs_delta --out ${png}
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0 OR NOT EXISTS ${png})
    message(FATAL_ERROR "lang_export_${kind}: exit ${code}\n${out}${err}")
  endif()
endforeach()
# compare_png exits 1 when two images differ beyond its thresholds.
foreach(other no_cjk en)
  execute_process(COMMAND ${COMPARE} ${OUT}/lang_export_ko.png ${OUT}/lang_export_${other}.png --max-mean 0.05
                          --max-differing 0.0005
                  RESULT_VARIABLE code OUTPUT_VARIABLE out)
  if(NOT code EQUAL 1)
    message(FATAL_ERROR "the Korean export does not differ from the ${other} one (exit ${code}): ${out}")
  endif()
endforeach()
