# cli.help: `normlab-cli --help` exits 0 and lists every subcommand as a row "  NAME  summary…",
# every summary starting in the same column; the list holds those rows alone, in SUBCOMMANDS' order,
# and a summary's next lines start in that column too.
#   cmake -DCLI=<normlab-cli> "-DSUBCOMMANDS=eval, invariance, …" -P check_help.cmake
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/../lib.cmake)   # fail, expect_exit, run_retrying

execute_process(COMMAND "${CLI}" --help RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
expect_exit("${code}" 0)
if(NOT err STREQUAL "")
  fail("stderr is not empty")
endif()

# The rows: from "Subcommands:" to the first empty line.
string(REGEX MATCH "\nSubcommands:\n[^\n]+(\n[^\n]+)*" rows "${out}")
if(rows STREQUAL "")
  fail("no \"Subcommands:\" list")
endif()

string(REPLACE ", " ";" names "${SUBCOMMANDS}")
foreach(name IN LISTS names)
  # The row: two spaces, the name, at least two spaces, then the summary's first letter.
  string(REGEX MATCH "\n  ${name}  +[^ \n]" row "${rows}")
  if(row STREQUAL "")
    fail("no row \"  ${name}  summary\" under Subcommands:")
    continue()
  endif()
  string(LENGTH "${row}" width)
  math(EXPR column "${width} - 2")   # less the newline and the first letter
  if(NOT DEFINED first_column)
    set(first_column ${column})
  elseif(NOT column EQUAL first_column)
    fail("${name}'s summary starts in column ${column}, not ${first_column}")
  endif()
endforeach()

# Every line of the list: a subcommand's row, or a summary's next line in the summaries' column.
string(REPLACE ";" "," plain "${rows}")   # a summary's ';' would split the list of lines
string(REGEX MATCHALL "\n[^\n]*" lines "${plain}")
list(POP_FRONT lines)   # "Subcommands:"
set(listed "")
foreach(line IN LISTS lines)
  if(line MATCHES "^\n  ([a-z-]+)  +[^ ]")
    list(APPEND listed ${CMAKE_MATCH_1})
  elseif(DEFINED first_column)
    string(REPEAT " " ${first_column} indent)
    if(NOT line MATCHES "^\n${indent}[^ ]")
      fail("under Subcommands:, neither a row nor a summary's next line in column ${first_column}:${line}")
    endif()
  endif()
endforeach()
if(NOT listed STREQUAL names)
  list(JOIN listed ", " listed)
  fail("the rows name ${listed}, expected ${SUBCOMMANDS}, in that order")
endif()

if(NOT failures STREQUAL "")
  message(FATAL_ERROR "normlab-cli --help:${failures}\n--- stdout ---\n${out}")
endif()
