# `normlab-cli export --plot` to a file, then checks the file (used by cli.export.* in CMakeLists.txt):
#   cmake -DCLI=<normlab-cli> -DSCENE=<scene.json> -DPLOT=<name> -DOUT=<file.svg|file.csv>
#         [-DXMLLINT=<xmllint>] [-DLABELS=a|b] [-DCHECKER=<check_export_csv>] -P export_files.cmake
# .svg: well-formed XML (xmllint --noout, when found), an <svg> root, and every LABELS text in it.
# .csv: CHECKER reads it back and compares every row with the plot core builds from the scene.
cmake_minimum_required(VERSION 3.25)

file(REMOVE "${OUT}")
execute_process(COMMAND "${CLI}" export --scene "${SCENE}" --plot "${PLOT}" --out "${OUT}"
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "normlab-cli export exited ${code}: ${err}")
endif()
if(NOT "${out}${err}" STREQUAL "")
  message(FATAL_ERROR "normlab-cli export printed something: ${out}${err}")
endif()
if(NOT EXISTS "${OUT}")
  message(FATAL_ERROR "no file at ${OUT}")
endif()
file(READ "${OUT}" text)

if(OUT MATCHES "\\.svg$")
  if(XMLLINT)
    execute_process(COMMAND "${XMLLINT}" --noout "${OUT}" RESULT_VARIABLE xml_code ERROR_VARIABLE xml_err)
    if(NOT xml_code EQUAL 0)
      message(FATAL_ERROR "xmllint: ${OUT} is not well-formed XML:\n${xml_err}")
    endif()
    message("xmllint: well-formed")
  else()
    message(WARNING "xmllint not found (Debian package libxml2-utils): well-formedness not checked")
  endif()
  if(NOT text MATCHES "<svg[ >]")
    message(FATAL_ERROR "${OUT} has no <svg> element")
  endif()
  string(REPLACE "|" ";" labels "${LABELS}")
  foreach(label IN LISTS labels)
    string(FIND "${text}" ">${label}<" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${OUT} lacks the text \"${label}\"")
    endif()
  endforeach()
else()
  execute_process(COMMAND "${CHECKER}" "${SCENE}" "${PLOT}" "${OUT}" RESULT_VARIABLE check_code OUTPUT_VARIABLE check_out
                  ERROR_VARIABLE check_out)
  message("${check_out}")
  if(NOT check_code EQUAL 0)
    message(FATAL_ERROR "the CSV does not read back as the plot's data")
  endif()
endif()
