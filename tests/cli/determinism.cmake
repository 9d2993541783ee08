# Runs `normlab-cli COMMAND ... --json` twice with the same arguments and once with another seed
# (used by cli.train.determinism and cli.depth.determinism in CMakeLists.txt):
#   cmake -DCLI=<normlab-cli> -DCOMMAND=train|depth -DARGS=a|b|... -P determinism.cmake
# The two same-seed outputs must be identical once the "timing" object (wall clock) is removed,
# i.e. every number bit for bit (nlohmann prints doubles to round-trip precision): the curve, and
# whatever else the command prints (depth: the per-step layer gradients and the samples); the
# other seed must give a different curve.
cmake_minimum_required(VERSION 3.25)

string(REPLACE "|" ";" args "${ARGS}")
foreach(run a b)
  execute_process(COMMAND "${CLI}" ${COMMAND} ${args} --json --seed 7 RESULT_VARIABLE code OUTPUT_VARIABLE out_${run}
                  ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "normlab-cli ${COMMAND} ${args} exited with ${code}: ${err}")
  endif()
  string(JSON out_${run} REMOVE "${out_${run}}" timing)
endforeach()
execute_process(COMMAND "${CLI}" ${COMMAND} ${args} --json --seed 8 OUTPUT_VARIABLE out_c)
string(JSON out_c REMOVE "${out_c}" timing)

string(JSON points LENGTH "${out_a}" curve)
if(points LESS 1)
  message(FATAL_ERROR "no curve in the output")
endif()
if(NOT out_a STREQUAL out_b)
  message(FATAL_ERROR "two runs with seed 7 differ:\n${out_a}\n---\n${out_b}")
endif()
string(JSON curve_a GET "${out_a}" curve)
string(JSON curve_c GET "${out_c}" curve)
if(curve_a STREQUAL curve_c)
  message(FATAL_ERROR "seeds 7 and 8 gave the same curve")
endif()
