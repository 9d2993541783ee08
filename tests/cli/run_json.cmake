# run_cli_json(OUT_VAR ARG...): runs ${CLI} ARG..., fails the test when it exits non-zero, and sets
# OUT_VAR to its JSON output without the "timing" object (wall clock: different every run). For
# the scripts that compare runs of one command (determinism.cmake, init_differs.cmake).
function(run_cli_json out_var)
  execute_process(COMMAND "${CLI}" ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    list(JOIN ARGN " " shown)
    message(FATAL_ERROR "normlab-cli ${shown} exited with ${code}: ${err}")
  endif()
  string(JSON out REMOVE "${out}" timing)
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()
