# ctest driver: a second SIGINT ends the run at once with exit code
# 130, not by the signal, and the directory keeps a complete set: the earlier
# run's, or the interrupted run's when the first signal was handled before
# the second came; never a mix. A later run names the staging directory the
# stopped run left behind.
#   cmake -DVOLTAIC=... -DCONFIG=... -DWORK=... -P second_signal.cmake
include(${CMAKE_CURRENT_LIST_DIR}/cli_support.cmake)
file(REMOVE_RECURSE "${WORK}")
set(files timeseries.csv fields.h5 fields.xdmf checkpoint.h5)

run_voltaic("${WORK}/dir" rc log)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the first run failed (${rc}):\n${log}")
endif()
file(COPY "${WORK}/dir/" DESTINATION "${WORK}/before")

set(lock "${WORK}/dir/.voltaic.lock")
# SIGINT every 10 ms until the run ends: signals sent closer together would
# merge into one while the process waits for a CPU.
run_voltaic_until("${WORK}/dir" "step 2/" rc out err
                  sh -c "pid=$(cat '${lock}')\nwhile kill -INT $pid 2>/dev/null\ndo sleep 0.01\ndone")
if(NOT rc STREQUAL "130")
  message(FATAL_ERROR "exit ${rc}, expected 130:\n${out}\n${err}")
endif()
file(GLOB staging LIST_DIRECTORIES true "${WORK}/dir/.voltaic-run-*")
file(READ "${WORK}/dir/timeseries.csv" rows)
file(READ "${WORK}/before/timeseries.csv" rows_before)
if(rows STREQUAL rows_before)  # stopped at once: the earlier set, whole
  foreach(f IN LISTS files)
    require_same("${WORK}/dir/${f}" "${WORK}/before/${f}")
  endforeach()
  set(kept "the earlier set")
else()  # the first signal's commit came first: the new set, whole
  file(REMOVE_RECURSE "${staging}")
  require_files("${WORK}/dir" ${files})
  require_prefix("${WORK}/dir/timeseries.csv" "${WORK}/before/timeseries.csv")
  set(kept "the interrupted run's set")
endif()

if(staging)
  run_voltaic("${WORK}/dir" rc log)
  if(NOT rc EQUAL 0 OR NOT log MATCHES "note: '[^']*\\.voltaic-run-[^']*' holds the unfinished files of an earlier run")
    message(FATAL_ERROR "the next run (${rc}) does not name the staging directory left behind:\n${log}")
  endif()
endif()
message(STATUS "repeated SIGINTs: exit 130, ${kept} kept")
