# ctest driver: `voltaic pack --backend`. cpu runs the pack on the CPU, also
# when the config's [solver] asks for cuda; without --backend the config's
# backend holds. Where no GPU is visible (or the build has no CUDA), cuda is
# refused before anything is written, with the exit code and message of
# `voltaic run --backend cuda` there, and auto runs on the CPU; where one
# is, cuda and auto run the pack on it.
#   cmake -DVOLTAIC=... -DCONFIG=pack.toml -DRUN_CONFIG=run.toml -DWORK=... -P pack_backend.cmake
include(${CMAKE_CURRENT_LIST_DIR}/cli_support.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
# CONFIG (which has no [solver] section of its own) asking for the GPU.
file(READ "${CONFIG}" text)
file(WRITE "${WORK}/cuda.toml" "${text}\n[solver]\nbackend = \"cuda\"\n")

# voltaic pack cuda.toml into WORK/NAME with ARGN; RC, OUT and ERR returned.
function(pack name)
  execute_process(COMMAND "${VOLTAIC}" pack "${WORK}/cuda.toml" --output "${WORK}/${name}" ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
  set(rc "${rc}" PARENT_SCOPE)
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()

# Fails unless the pack ran to its end on WHERE ("the CPU", "cuda:") and published its files.
function(ran_on name where)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "voltaic pack ${name}: exit ${rc}, expected 0:\n${out}\n${err}")
  endif()
  string(FIND "${out}" ", on ${where}" at_start)
  string(REGEX MATCH "wall time +[0-9.]+ s \\([^)]*\\) on ${where}" at_end "${out}")
  if(at_start EQUAL -1 OR NOT at_end)
    message(FATAL_ERROR "voltaic pack ${name}: does not say it ran on ${where}:\n${out}")
  endif()
  require_files("${WORK}/${name}" pack.csv pack.h5)
endfunction()

pack(cpu --backend cpu)
ran_on(cpu "the CPU")

execute_process(COMMAND "${VOLTAIC}" run "${RUN_CONFIG}" --output "${WORK}/run" --backend cuda
                RESULT_VARIABLE run_rc OUTPUT_VARIABLE run_out ERROR_VARIABLE run_err TIMEOUT 300)
if(run_rc EQUAL 0)  # a GPU: the config's backend and auto run the pack there
  pack(config)
  ran_on(config "cuda:")
  pack(auto --backend auto)
  ran_on(auto "cuda:")
  message(STATUS "--backend cpu on the CPU; the config's cuda and --backend auto on the GPU")
  return()
endif()

# No GPU: the config's cuda and --backend cuda as `voltaic run --backend cuda`.
string(REPLACE "voltaic run" "voltaic pack" expected "${run_err}")
if(NOT run_err MATCHES "^voltaic: error: backend cuda: [^\n]+\n$")
  message(FATAL_ERROR "voltaic run --backend cuda: exit ${run_rc}, unexpected message:\n${run_err}")
endif()
foreach(name config cuda)
  if(name STREQUAL config)
    pack(${name})
  else()
    pack(${name} --backend cuda)
  endif()
  if(NOT rc STREQUAL run_rc OR NOT err STREQUAL expected OR NOT out STREQUAL "")
    message(FATAL_ERROR "voltaic pack (${name}): exit ${rc} with\n${out}${err}\nexpected exit ${run_rc} with\n${expected}")
  endif()
  if(EXISTS "${WORK}/${name}")
    message(FATAL_ERROR "voltaic pack (${name}): refused, yet it made its output directory")
  endif()
endforeach()
pack(auto --backend auto)
ran_on(auto "the CPU")
string(STRIP "${expected}" expected)
message(STATUS "--backend cpu and auto on the CPU; cuda refused as run refuses it (exit ${run_rc}: ${expected})")
