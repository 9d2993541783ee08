# The AVX2 copy of the float32 models' products (core/src/models/model_kernels_avx2.cpp) may
# define, visibly to the linker, only symbols of its own namespaces: normlab::model_kernels::avx2
# and the renamed Eigen (normlab_avx2_Eigen). Any other global or weak symbol (a standard-library
# template instance, a plain Eigen one) could be picked by the linker for the portable code too,
# and run AVX2 instructions on a CPU without them (docs/ARCHITECTURE.md, The science: precision).
#   cmake -DNM=<nm> -DOBJECTS=a.o;b.o -P model_kernels_isolated.cmake
execute_process(COMMAND ${NM} -C --defined-only ${OBJECTS} OUTPUT_VARIABLE symbols RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} failed on ${OBJECTS}")
endif()
string(REPLACE "\n" ";" lines "${symbols}")
set(count 0)
foreach(line IN LISTS lines)
  # "ADDRESS TYPE NAME": upper-case types are global (T, D, B, R) or weak (W, V, u)
  if(line MATCHES "^[0-9a-f]+ ([A-Za-z]) (.*)$")
    set(type "${CMAKE_MATCH_1}")
    set(name "${CMAKE_MATCH_2}")
    if(type MATCHES "^[A-Zu]$")
      math(EXPR count "${count} + 1")
      if(NOT name MATCHES "normlab_avx2_Eigen|normlab::model_kernels::avx2|^DW\\.ref\\.__gxx_personality_v0$")
        message(FATAL_ERROR "the AVX2 object defines a symbol outside its namespaces: ${type} ${name}")
      endif()
    endif()
  endif()
endforeach()
if(count LESS 1)
  message(FATAL_ERROR "no global symbol in ${OBJECTS}: was it compiled?")
endif()
message(STATUS "${count} global or weak symbols, all in the AVX2 copy's namespaces")
