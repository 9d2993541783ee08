# `normlab-cli export --all` of one shipped scene, headless (used by cli.export.all_* in
# CMakeLists.txt). The scene's runs are shortened first (depth and training: a few steps, so that
# CI stays quick; the figures, their names and formats are the same), then:
#   every figure of `--list` is written as .svg and .csv, plots also as .png, tables also as .md
#   and .tex, and the paths are printed;
#   .svg: well-formed XML (xmllint --noout); .csv of a plot: every row names its series (CHECKER
#   --named); .png: a PNG of exactly 720·K × 450·K pixels (CHECK_PNG), white in the corner;
#   .md: a header, a rule and rows, all "| … |"; .tex: booktabs' three rules in a tabular;
#   a second run without --replace writes nothing and says which file exists.
#   cmake -DCLI=<normlab-cli> -DSCENE=<scene.json> -DDIR=<folder> -DCHECKER=<check_export_csv>
#         -DCHECK_PNG=<check_figure or ""> [-DXMLLINT=<xmllint>] [-DSCALE=K] -P export_all.cmake
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/../lib.cmake)   # fail, expect_exit, run_retrying

file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
if(NOT SCALE)
  set(SCALE 1)
endif()

# A shortened copy of the scene.
file(READ "${SCENE}" json)
string(JSON labs ERROR_VARIABLE no_labs GET "${json}" labs)
if(no_labs)
  string(JSON json SET "${json}" labs "{}")
endif()
foreach(lab depth training)
  string(JSON section ERROR_VARIABLE missing GET "${json}" labs ${lab})
  if(missing)
    string(JSON json SET "${json}" labs ${lab} "{}")
  endif()
endforeach()
foreach(key_value steps=4 measure_steps=2 sweep_points=2 sweep_steps=5 layers=2)
  string(REPLACE "=" ";" kv "${key_value}")
  list(GET kv 0 key)
  list(GET kv 1 value)
  string(JSON json SET "${json}" labs depth ${key} ${value})
endforeach()
string(JSON json SET "${json}" labs training steps 30)
set(small "${DIR}/scene.json")
file(WRITE "${small}" "${json}")

set(formats svg csv md tex)
if(CHECK_PNG)
  list(APPEND formats png)
endif()
list(JOIN formats "," format_arg)
set(out_dir "${DIR}/figures")
execute_process(COMMAND "${CLI}" export --scene "${small}" --list RESULT_VARIABLE code OUTPUT_VARIABLE names
                ERROR_VARIABLE err)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "export --list exited ${code}: ${err}")
endif()
string(REGEX REPLACE "\n$" "" names "${names}")
string(REPLACE "\n" ";" names "${names}")
execute_process(COMMAND "${CLI}" export --scene "${small}" --all --out-dir "${out_dir}" --format ${format_arg}
                        --scale ${SCALE}
                RESULT_VARIABLE code OUTPUT_VARIABLE written ERROR_VARIABLE err)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "export --all exited ${code}: ${err}")
endif()

foreach(name IN LISTS names)
  set(kind plot)
  if(EXISTS "${out_dir}/${name}.md")
    set(kind table)
  endif()
  foreach(format IN LISTS formats)
    set(file "${out_dir}/${name}.${format}")
    if((kind STREQUAL "plot" AND format MATCHES "^(md|tex)$") OR (kind STREQUAL "table" AND format STREQUAL "png"))
      if(EXISTS "${file}")
        fail("${file}: a ${kind} is not written as .${format}")
      endif()
      continue()
    endif()
    string(FIND "${written}" "${file}\n" printed)
    if(printed EQUAL -1)
      fail("${file} is not among the paths printed")
    endif()
    if(NOT EXISTS "${file}")
      fail("no ${file}")
      continue()
    endif()
    file(READ "${file}" text)
    if(format STREQUAL "svg" AND XMLLINT)
      execute_process(COMMAND "${XMLLINT}" --noout "${file}" RESULT_VARIABLE xml_code ERROR_VARIABLE xml_err)
      if(NOT xml_code EQUAL 0)
        fail("${file} is not well-formed XML: ${xml_err}")
      endif()
    elseif(format STREQUAL "csv" AND kind STREQUAL "plot")
      execute_process(COMMAND "${CHECKER}" --named "${file}" RESULT_VARIABLE csv_code OUTPUT_VARIABLE csv_out)
      if(NOT csv_code EQUAL 0)
        fail("${file}: ${csv_out}")
      endif()
    elseif(format STREQUAL "png")
      math(EXPR w "720 * ${SCALE}")
      math(EXPR h "450 * ${SCALE}")
      execute_process(COMMAND "${CHECK_PNG}" "${file}" --size ${w} ${h} --corner ffffff
                      RESULT_VARIABLE png_code OUTPUT_VARIABLE png_out)
      if(NOT png_code EQUAL 0)
        fail("${file}: ${png_out}")
      endif()
    elseif(format STREQUAL "md" AND NOT text MATCHES "\n\\| [^\n]* \\|\n\\| :---")
      fail("${file}: no Markdown header row and rule")
    elseif(format STREQUAL "tex" AND NOT text MATCHES "begin{tabular}.*toprule.*midrule.*bottomrule.*end{tabular}")
      fail("${file}: no booktabs tabular")
    endif()
  endforeach()
endforeach()
list(LENGTH names n)
message("${n} figures × ${format_arg} written and checked")

# Again, without --replace: nothing is overwritten.
execute_process(COMMAND "${CLI}" export --scene "${small}" --all --out-dir "${out_dir}" --format ${format_arg}
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 2 OR NOT err MATCHES "exists; not replaced \\(add --replace to replace it\\)")
  fail("a second run without --replace exited ${code}: ${err}")
endif()
if(failures)
  message(FATAL_ERROR "export --all of ${SCENE}:${failures}")
endif()
