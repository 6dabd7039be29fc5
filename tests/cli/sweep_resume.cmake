# ctest driver: a sweep interrupted by SIGINT with --checkpoint leaves its
# cells' state in the checkpoint; --resume goes on from it to summary.csv and
# cycles.csv byte for byte those of the sweep never stopped (on another
# thread count); another sweep's config is refused with the checkpoint, and a
# checkpoint period without a checkpoint file.
#   cmake -DVOLTAIC=... -DCONFIG=... -DOTHER_CONFIG=... -DWORK=... -P sweep_resume.cmake
include(${CMAKE_CURRENT_LIST_DIR}/cli_support.cmake)
file(REMOVE_RECURSE "${WORK}")
set(checkpoint "${WORK}/state.h5")

execute_process(COMMAND "${VOLTAIC}" sweep "${CONFIG}" --output "${WORK}/whole" --threads 1 --backend cpu
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the whole sweep failed (exit ${rc}):\n${out}\n${err}")
endif()
# Its log counts the cycles the cells ended (4 cells x 40 cycles) and their lowest capacity.
if(NOT out MATCHES "voltaic: 4/4 cells finished, 0 incomplete, 160/160 cycles \\(100.0 %\\), lowest capacity [0-9.]+ A.h")
  message(FATAL_ERROR "the log does not end on 160/160 cycles:\n${out}")
endif()

execute_process(COMMAND "${VOLTAIC}" sweep "${CONFIG}" --output "${WORK}/cut" --threads 1 --backend cpu
                        --checkpoint "${checkpoint}"
                COMMAND sh "${CMAKE_CURRENT_LIST_DIR}/on_progress.sh" "voltaic sweep" sh -c
                        "sleep 1; kill -INT $(cat '${WORK}/cut/sweep/.voltaic.lock')"
                RESULTS_VARIABLE results OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
list(GET results 0 rc)
if(NOT rc STREQUAL "130")
  message(FATAL_ERROR "exit ${rc}, expected 130 (interrupted one second in):\n${out}\n${err}")
endif()
if(NOT err MATCHES "go on with --resume" OR NOT EXISTS "${checkpoint}")
  message(FATAL_ERROR "no checkpoint written or named:\n${out}\n${err}")
endif()

execute_process(COMMAND "${VOLTAIC}" sweep "${CONFIG}" --output "${WORK}/resumed" --threads 2 --backend cpu
                        --resume "${checkpoint}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the resumed sweep failed (exit ${rc}):\n${out}\n${err}")
endif()
if(NOT out MATCHES "160/160 cycles \\(100.0 %\\)")  # the cycles before the stop counted too
  message(FATAL_ERROR "the resumed sweep's log does not end on 160/160 cycles:\n${out}")
endif()
foreach(f summary.csv cycles.csv)
  require_same("${WORK}/whole/sweep/${f}" "${WORK}/resumed/sweep/${f}")
endforeach()

execute_process(COMMAND "${VOLTAIC}" sweep "${OTHER_CONFIG}" --output "${WORK}/other" --backend cpu
                        --resume "${checkpoint}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc EQUAL 2 OR NOT err MATCHES "was written by another batch" OR EXISTS "${WORK}/other/sweep/summary.csv")
  message(FATAL_ERROR "another sweep's checkpoint was not refused (exit ${rc}):\n${out}\n${err}")
endif()
execute_process(COMMAND "${VOLTAIC}" sweep "${CONFIG}" --output "${WORK}/period" --checkpoint-every 5
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc EQUAL 2 OR NOT err MATCHES "--checkpoint-every requires --checkpoint")
  message(FATAL_ERROR "a period without a checkpoint file was not refused (exit ${rc}):\n${out}\n${err}")
endif()
message(STATUS "sweep: interrupted, resumed from its checkpoint, the same files; another sweep refused")
