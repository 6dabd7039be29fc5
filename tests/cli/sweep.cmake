# ctest driver: `voltaic sweep` of CONFIG completes with exit 0 and one
# summary row per cell; the same sweep of LONG_CONFIG interrupted by SIGINT
# soon after it starts exits 130 with a complete set of files whose rows say
# which cells finished, which were interrupted and which never ran.
#   cmake -DVOLTAIC=... -DCONFIG=... -DCELLS=4 -DLONG_CONFIG=... -DWORK=... -P sweep.cmake
include(${CMAKE_CURRENT_LIST_DIR}/cli_support.cmake)
file(REMOVE_RECURSE "${WORK}")

# Rows of DIR/sweep/summary.csv (the header not counted) into ROWS_VAR, their statuses into STATUS_VAR.
function(read_summary dir rows_var status_var)
  file(STRINGS "${dir}/sweep/summary.csv" lines)
  list(REMOVE_AT lines 0)
  list(LENGTH lines rows)
  set(status "")
  foreach(line IN LISTS lines)
    string(REGEX MATCH ",(completed|stopped|failed|interrupted|not run)," _ "${line}")
    list(APPEND status "${CMAKE_MATCH_1}")
  endforeach()
  set(${rows_var} ${rows} PARENT_SCOPE)
  set(${status_var} "${status}" PARENT_SCOPE)
endfunction()

execute_process(COMMAND "${VOLTAIC}" sweep "${CONFIG}" --output "${WORK}/whole" --threads 2 --backend cpu
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc EQUAL 0 OR NOT out MATCHES "Sweep finished\\..*cells completed +${CELLS}\n")
  message(FATAL_ERROR "the sweep did not complete its ${CELLS} cells (exit ${rc}):\n${out}\n${err}")
endif()
# Not on a terminal: the log's last progress line has the final count.
if(NOT out MATCHES "voltaic: ${CELLS}/${CELLS} cells finished, 0 incomplete")
  message(FATAL_ERROR "the log does not end on ${CELLS}/${CELLS} cells finished:\n${out}")
endif()
require_files("${WORK}/whole/sweep" summary.csv curves.h5)
read_summary("${WORK}/whole" rows status)
list(REMOVE_DUPLICATES status)
if(NOT rows EQUAL CELLS OR NOT status STREQUAL "completed")
  message(FATAL_ERROR "summary.csv has ${rows} rows (${status}), expected ${CELLS} completed")
endif()

set(CONFIG "${LONG_CONFIG}")
set(dir "${WORK}/cut")
# On the CPU, where cells start one after another (on the GPU all start at
# once: cell_program_cuda_test.cpp checks that interruption).
execute_process(COMMAND "${VOLTAIC}" sweep "${CONFIG}" --output "${dir}" --threads 2 --backend cpu
                COMMAND sh "${CMAKE_CURRENT_LIST_DIR}/on_progress.sh" "voltaic sweep" sh -c
                        "sleep 0.3; kill -INT $(cat '${dir}/sweep/.voltaic.lock')"
                RESULTS_VARIABLE results OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
list(GET results 0 rc)
if(NOT rc STREQUAL "130")
  message(FATAL_ERROR "exit ${rc}, expected 130:\n${out}\n${err}")
endif()
if(NOT err MATCHES "interrupted by SIGINT; the cells that finished are in" OR NOT out MATCHES "Sweep stopped early\\.")
  message(FATAL_ERROR "stderr does not say the sweep was interrupted:\n${err}")
endif()
require_files("${dir}/sweep" summary.csv curves.h5)
read_summary("${dir}" rows status)
list(FIND status "not run" not_run)
list(FIND status "completed" completed)
list(FIND status "failed" failed)
if(NOT rows EQUAL 20000 OR not_run EQUAL -1 OR completed EQUAL -1 OR NOT failed EQUAL -1)
  message(FATAL_ERROR "summary.csv: ${rows} rows; expected 20000, some completed, some not run, none failed")
endif()
message(STATUS "sweep: ${CELLS} cells completed; SIGINT: exit 130, every row kept")
