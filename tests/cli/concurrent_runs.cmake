# ctest driver: a second run into the output directory of a run in progress
# is refused with exit code 2 and a message naming the first run's pid; the
# first run completes and publishes its whole set.
#   cmake -DVOLTAIC=... -DCONFIG=... -DWORK=... -P concurrent_runs.cmake
include(${CMAKE_CURRENT_LIST_DIR}/cli_support.cmake)
file(REMOVE_RECURSE "${WORK}")
set(dir "${WORK}/dir")
set(second "'${VOLTAIC}' run '${CONFIG}' --output '${dir}' --backend cpu > '${WORK}/second.log' 2>&1")
run_voltaic_until("${dir}" "step 2/" rc out err
                  sh -c "${second}\necho \"second run: exit $? while pid $(cat '${dir}/.voltaic.lock') runs\"")
if(NOT rc STREQUAL "0" OR NOT out MATCHES "Run completed\\.")
  message(FATAL_ERROR "the first run did not complete (${rc}):\n${out}\n${err}")
endif()
if(NOT out MATCHES "second run: exit ([0-9]+) while pid ([0-9]+) runs")
  message(FATAL_ERROR "the second run did not start:\n${out}")
endif()
set(second_rc ${CMAKE_MATCH_1})
set(pid ${CMAKE_MATCH_2})
file(READ "${WORK}/second.log" second_log)
if(NOT second_rc EQUAL 2 OR NOT second_log MATCHES "is in use by another voltaic run \\(pid ${pid}\\)")
  message(FATAL_ERROR "the second run exited ${second_rc}, expected 2 naming pid ${pid}:\n${second_log}")
endif()
require_files("${dir}" timeseries.csv fields.h5 fields.xdmf checkpoint.h5)
message(STATUS "second run refused (exit 2, pid ${pid} named); the first completed")
