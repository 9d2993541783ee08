# cli.help: `normlab-cli --help` exits 0 and lists every subcommand as a row "  NAME  summary…",
# every summary starting in the same column.
#   cmake -DCLI=<normlab-cli> "-DSUBCOMMANDS=eval, invariance, …" -P check_help.cmake
cmake_minimum_required(VERSION 3.25)

execute_process(COMMAND "${CLI}" --help RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(failures "")
if(NOT code EQUAL 0)
  string(APPEND failures "\n  exit code ${code}, expected 0")
endif()
if(NOT err STREQUAL "")
  string(APPEND failures "\n  stderr is not empty")
endif()

# The rows: from "Subcommands:" to the first empty line.
string(REGEX MATCH "\nSubcommands:\n[^\n]+(\n[^\n]+)*" rows "${out}")
if(rows STREQUAL "")
  string(APPEND failures "\n  no \"Subcommands:\" list")
endif()

string(REPLACE ", " ";" names "${SUBCOMMANDS}")
foreach(name IN LISTS names)
  # The row: two spaces, the name, at least two spaces, then the summary's first letter.
  string(REGEX MATCH "\n  ${name}  +[^ \n]" row "${rows}")
  if(row STREQUAL "")
    string(APPEND failures "\n  no row \"  ${name}  summary\" under Subcommands:")
    continue()
  endif()
  string(LENGTH "${row}" width)
  math(EXPR column "${width} - 2")   # less the newline and the first letter
  if(NOT DEFINED first_column)
    set(first_column ${column})
  elseif(NOT column EQUAL first_column)
    string(APPEND failures "\n  ${name}'s summary starts in column ${column}, not ${first_column}")
  endif()
endforeach()

if(NOT failures STREQUAL "")
  message(FATAL_ERROR "normlab-cli --help:${failures}\n--- stdout ---\n${out}")
endif()
