# Runs `normlab-cli depth ARGS --seeds A-B --json` and, for each seed s of A..B, `depth ARGS --seed s
# --json` (used by cli.depth.seeds_equal_single in CMakeLists.txt):
#   cmake -DCLI=<normlab-cli> -DARGS=--placement|preln|... -DFIRST=2 -DLAST=3 -P seeds_equal_single.cmake
# Each seed's first_last_ratio and layer_grad_norms in the seeds run must equal the single run's, bit
# for bit (nlohmann prints doubles to round-trip precision), and the spread must count every seed.
cmake_minimum_required(VERSION 3.25)

include("${CMAKE_CURRENT_LIST_DIR}/run_json.cmake")

string(REPLACE "|" ";" args "${ARGS}")
run_cli_json(seeds depth ${args} --seeds ${FIRST}-${LAST} --json)
math(EXPR count "${LAST} - ${FIRST} + 1")
string(JSON runs LENGTH "${seeds}" runs)
string(JSON n GET "${seeds}" spread first_last_ratio n)
if(NOT runs EQUAL count OR NOT n EQUAL count)
  message(FATAL_ERROR "expected ${count} runs and a spread over ${count}, got ${runs} and ${n}")
endif()
set(k 0)
foreach(seed RANGE ${FIRST} ${LAST})
  run_cli_json(one depth ${args} --seed ${seed} --json)
  foreach(key first_last_ratio layer_grad_norms)
    string(JSON a GET "${seeds}" runs ${k} ${key})
    string(JSON b GET "${one}" ${key})
    if(NOT a STREQUAL b)
      message(FATAL_ERROR "seed ${seed}: ${key} is ${a} in the seeds run, ${b} alone")
    endif()
  endforeach()
  string(JSON s GET "${seeds}" runs ${k} seed)
  if(NOT s EQUAL seed)
    message(FATAL_ERROR "run ${k} has seed ${s}, expected ${seed}")
  endif()
  math(EXPR k "${k} + 1")
endforeach()
