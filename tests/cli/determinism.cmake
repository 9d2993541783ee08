# Runs `normlab-cli COMMAND ... --json` twice with the same arguments and once with another seed
# (used by cli.train.determinism and cli.depth.determinism in CMakeLists.txt):
#   cmake -DCLI=<normlab-cli> -DCOMMAND=train|depth -DARGS=a|b|... -P determinism.cmake
# The two same-seed outputs must be identical once the "timing" object (wall clock) is removed,
# i.e. every number bit for bit (nlohmann prints doubles to round-trip precision): the curve, and
# whatever else the command prints (depth: the per-step layer gradients and the samples); the
# other seed must give a different curve.
cmake_minimum_required(VERSION 3.25)

include("${CMAKE_CURRENT_LIST_DIR}/run_json.cmake")

string(REPLACE "|" ";" args "${ARGS}")
run_cli_json(out_a ${COMMAND} ${args} --json --seed 7)
run_cli_json(out_b ${COMMAND} ${args} --json --seed 7)
run_cli_json(out_c ${COMMAND} ${args} --json --seed 8)

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
