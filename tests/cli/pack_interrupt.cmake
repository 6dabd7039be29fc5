# ctest driver: SIGNAL (INT or TERM) sent once the pack has taken its first
# time step (its first progress line) ends `voltaic pack` with exit code
# EXPECTED (130, 143), not by the signal: the summary says it was
# interrupted, and pack.csv and pack.h5 are published as for a finished pack
# with the rows up to the step in flight, pack.h5 saying so (completed 0,
# interrupted 1, a termination naming the signal).
#   cmake -DVOLTAIC=... -DSHAPES=... -DCONFIG=... -DSIGNAL=INT -DEXPECTED=130 -DWORK=... -P pack_interrupt.cmake
include(${CMAKE_CURRENT_LIST_DIR}/cli_support.cmake)
file(REMOVE_RECURSE "${WORK}")
set(dir "${WORK}/output")
execute_process(COMMAND "${VOLTAIC}" pack "${CONFIG}" --output "${dir}" --backend cpu
                COMMAND sh "${CMAKE_CURRENT_LIST_DIR}/on_progress.sh" "voltaic: 1 time step taken" sh -c
                        "kill -${SIGNAL} $(cat '${dir}/.voltaic.lock')"
                RESULTS_VARIABLE results OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
list(GET results 0 rc)
if(NOT rc STREQUAL "${EXPECTED}")
  message(FATAL_ERROR "exit ${rc}, expected ${EXPECTED}:\n${out}\n${err}")
endif()
if(NOT out MATCHES "Pack interrupted\\.\n  ended by +experiment step [0-9]+ [^\n]* was interrupted at t = [^\n]*: SIG${SIGNAL}\n")
  message(FATAL_ERROR "the summary does not say the pack was interrupted:\n${out}")
endif()
if(NOT err MATCHES "voltaic: interrupted by SIG${SIGNAL}; the pack's rows up to t = [0-9.e+-]+ s are in ")
  message(FATAL_ERROR "stderr does not say the pack was interrupted:\n${err}")
endif()
require_files("${dir}" pack.csv pack.h5)
if(EXISTS "${dir}/.voltaic.lock")
  message(FATAL_ERROR "the lock file is left in '${dir}'")
endif()

file(STRINGS "${dir}/pack.csv" lines)
list(LENGTH lines n)
math(EXPR rows "${n} - 1")
if(rows LESS 2)
  message(FATAL_ERROR "pack.csv has ${rows} rows; expected the start and at least one time step")
endif()
execute_process(COMMAND "${SHAPES}" "${dir}/pack.h5" RESULT_VARIABLE src OUTPUT_VARIABLE shapes ERROR_VARIABLE shapes)
if(NOT src EQUAL 0)
  message(FATAL_ERROR "pack.h5 cannot be read (${src}):\n${shapes}")
endif()
foreach(line "dataset /time ${rows}\n" "dataset /cells/current ${rows} 100\n" "attribute completed 0\n"
             "attribute interrupted 1\n")
  string(FIND "${shapes}" "${line}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "pack.h5 has no '${line}'; it has:\n${shapes}")
  endif()
endforeach()
if(NOT shapes MATCHES "attribute termination [^\n]*was interrupted at t = [^\n]*: SIG${SIGNAL}\n")
  message(FATAL_ERROR "pack.h5's termination does not name the interruption:\n${shapes}")
endif()
message(STATUS "SIG${SIGNAL} after the first time step: exit ${EXPECTED}, ${rows} rows published in pack.csv and pack.h5")
