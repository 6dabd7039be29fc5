# ctest driver: a run, and a second run restarted from the first one's last
# checkpoint, end with byte-identical time series (every value is written
# with 17 significant digits, so equal text is equal doubles).
#   cmake -DVOLTAIC=... -DCONFIG=... -DWORK=... -P restart_bitwise.cmake
file(REMOVE_RECURSE "${WORK}")
execute_process(COMMAND "${VOLTAIC}" run "${CONFIG}" --output "${WORK}/whole" --backend cpu RESULT_VARIABLE rc
                OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "uninterrupted run failed (${rc}):\n${log}")
endif()
if(NOT EXISTS "${WORK}/whole/checkpoint.h5")
  message(FATAL_ERROR "the run left no checkpoint")
endif()
execute_process(COMMAND "${VOLTAIC}" run "${CONFIG}" --output "${WORK}/restarted" --backend cpu
                        --restart "${WORK}/whole/checkpoint.h5" RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "restarted run failed (${rc}):\n${log}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${WORK}/whole/timeseries.csv"
                        "${WORK}/restarted/timeseries.csv" RESULT_VARIABLE same)
if(NOT same EQUAL 0)
  message(FATAL_ERROR "the restarted time series differs from the uninterrupted one")
endif()
message(STATUS "restart reproduces the uninterrupted time series byte for byte")
