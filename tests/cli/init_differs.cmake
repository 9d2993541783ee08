# Runs `normlab-cli ARGS` three times: as given, with `--init uniform`, and with OTHER (used by
# cli.depth.init_differs in CMakeLists.txt):
#   cmake -DCLI=<normlab-cli> -DARGS=depth|...|--json -DOTHER=--init|xavier -P init_differs.cmake
# Without --init and with --init uniform the outputs must be identical once "timing" (wall clock)
# is removed: uniform is the default, bit for bit. With OTHER the per-layer gradients and the
# curve must differ: the init reaches the model.
cmake_minimum_required(VERSION 3.25)

include("${CMAKE_CURRENT_LIST_DIR}/run_json.cmake")

string(REPLACE "|" ";" args "${ARGS}")
string(REPLACE "|" ";" other "${OTHER}")
run_cli_json(out_default ${args})
run_cli_json(out_uniform ${args} --init uniform)
run_cli_json(out_other ${args} ${other})

string(JSON init_default GET "${out_default}" config init)
string(JSON init_other GET "${out_other}" config init)
if(NOT init_default STREQUAL "uniform")
  message(FATAL_ERROR "the default config.init is \"${init_default}\", expected \"uniform\"")
endif()
if(init_other STREQUAL "uniform")
  message(FATAL_ERROR "${OTHER} still reports config.init \"uniform\"")
endif()
if(NOT out_default STREQUAL out_uniform)
  message(FATAL_ERROR "--init uniform differs from the default:\n${out_default}\n---\n${out_uniform}")
endif()
string(JSON grads_default GET "${out_default}" layer_grad_norms)
string(JSON grads_other GET "${out_other}" layer_grad_norms)
string(JSON curve_default GET "${out_default}" curve)
string(JSON curve_other GET "${out_other}" curve)
if(grads_default STREQUAL grads_other OR curve_default STREQUAL curve_other)
  message(FATAL_ERROR "${OTHER} gave the same numbers as the uniform init")
endif()
