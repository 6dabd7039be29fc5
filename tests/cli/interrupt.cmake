# ctest driver: SIGNAL (INT or TERM) sent when the run's second experiment
# step starts ends the run with exit code EXPECTED (130, 143), not by the
# signal: the summary says so, the directory holds a complete set whose rows
# are the uninterrupted run's first rows, and its checkpoint is that of the
# last row: a restart from it ends byte for byte as the uninterrupted run.
#   cmake -DVOLTAIC=... -DCONFIG=... -DWORK=... -DSIGNAL=INT -DEXPECTED=130 -P interrupt.cmake
include(${CMAKE_CURRENT_LIST_DIR}/cli_support.cmake)
file(REMOVE_RECURSE "${WORK}")
set(files timeseries.csv fields.h5 fields.xdmf checkpoint.h5)

run_voltaic("${WORK}/whole" rc log)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the uninterrupted run failed (${rc}):\n${log}")
endif()

run_voltaic_until("${WORK}/cut" "step 2/" rc out err sh -c "kill -${SIGNAL} $(cat '${WORK}/cut/.voltaic.lock')")
if(NOT rc STREQUAL "${EXPECTED}")
  message(FATAL_ERROR "exit ${rc}, expected ${EXPECTED}:\n${out}\n${err}")
endif()
if(NOT out MATCHES "Run stopped early\\.\n  ended by +interrupted by SIG${SIGNAL}")
  message(FATAL_ERROR "the summary does not say the run was interrupted:\n${out}")
endif()
if(NOT err MATCHES "interrupted by SIG${SIGNAL}; continue with --restart [^\n]*cut/checkpoint.h5")
  message(FATAL_ERROR "stderr does not say how to continue:\n${err}")
endif()
require_files("${WORK}/cut" ${files})
require_prefix("${WORK}/cut/timeseries.csv" "${WORK}/whole/timeseries.csv")

run_voltaic("${WORK}/restarted" rc log --restart "${WORK}/cut/checkpoint.h5")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the restarted run failed (${rc}):\n${log}")
endif()
# The checkpoint is the last row's: both print that time with %.6g.
string(REGEX MATCH "simulated time +([^ ]+) s" _ "${out}")
set(stopped_at "${CMAKE_MATCH_1}")
if(NOT log MATCHES "continuing from [^\n]* at t = ${stopped_at} s")
  message(FATAL_ERROR "the checkpoint is not at the last row (t = ${stopped_at} s):\n${log}")
endif()
require_same("${WORK}/restarted/timeseries.csv" "${WORK}/whole/timeseries.csv")
message(STATUS "SIG${SIGNAL} at t = ${stopped_at} s: exit ${EXPECTED}, complete outputs, restart bitwise")
