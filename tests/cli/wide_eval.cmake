# A 10^6-wide `normlab-cli eval` request, generated here rather than committed (used by
# cli.eval.million_wide in CMakeLists.txt): x alternates ±3.5, so its mean is 0, its RMS and std
# 3.5, and RMSNorm's y alternates ±1. Runs run_cli.cmake on it (exit 0, nothing on stderr, the
# exact stats), then checks y whole: 10^6 entries 1.0, -1.0, … (a string comparison: CMake's
# JSON parser takes seconds per look at a 9 MB result).
#   cmake -DCLI=<normlab-cli> -DREQUEST=<file to write> -P wide_eval.cmake
cmake_minimum_required(VERSION 3.25)

string(REPEAT "3.5,-3.5," 499999 body)
file(WRITE "${REQUEST}" "{\"norm\": \"rmsnorm\", \"eps\": 0, \"x\": [${body}3.5,-3.5]}\n")
set(ARGS eval)
set(INPUT "${REQUEST}")
set(EXIT 0)
set(STDOUT [=["stats":[{"mean":0.0,"rms":3.5,"std":3.5,"var":12.25}]]=])
include(${CMAKE_CURRENT_LIST_DIR}/run_cli.cmake)   # sets `out`, stdout

string(REPEAT "1.0,-1.0," 499999 ys)
string(FIND "${out}" "\"y\":[[${ys}1.0,-1.0]]}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "y is not 10^6 entries alternating 1.0, -1.0")
endif()
file(REMOVE "${REQUEST}")
