# ctest driver: tools/sweep_parts_run.sh runs a sweep as two parts side by
# side, stops them (SIGINT) after a second and goes on with them in a second
# call; the parts' rows are the whole sweep's, byte for byte.
#   cmake -DVOLTAIC=... -DTOOL=... -DCONFIG=... -DWORK=... -P sweep_parts_run.cmake
include(${CMAKE_CURRENT_LIST_DIR}/cli_support.cmake)
file(REMOVE_RECURSE "${WORK}")
file(WRITE "${WORK}/a.cells" "0,3")
file(WRITE "${WORK}/b.cells" "1:3")
set(parts "a:cpu:1:${WORK}/a.cells" "b:cpu:1:${WORK}/b.cells")

execute_process(COMMAND "${VOLTAIC}" sweep "${CONFIG}" --output "${WORK}/whole" --threads 2 --backend cpu
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the whole sweep failed (exit ${rc}):\n${err}")
endif()
execute_process(COMMAND bash "${TOOL}" "${VOLTAIC}" "${CONFIG}" "${WORK}/parts" 1 ${parts}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc EQUAL 1 OR NOT out MATCHES "a: exit 130 after" OR NOT EXISTS "${WORK}/parts/a.h5")
  message(FATAL_ERROR "the first call did not stop part a with its checkpoint (exit ${rc}):\n${out}\n${err}")
endif()
execute_process(COMMAND bash "${TOOL}" "${VOLTAIC}" "${CONFIG}" "${WORK}/parts" 300 ${parts}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc EQUAL 0 OR NOT out MATCHES "a: started \\(resumed\\)")
  message(FATAL_ERROR "the second call did not resume and end the parts (exit ${rc}):\n${out}\n${err}")
endif()

file(STRINGS "${WORK}/whole/sweep/summary.csv" whole)
list(REMOVE_AT whole 0)
set(from_parts "")
foreach(part a b)
  file(STRINGS "${WORK}/parts/${part}/sweep/summary.csv" rows)
  list(REMOVE_AT rows 0)
  list(APPEND from_parts ${rows})
endforeach()
list(SORT from_parts)
list(SORT whole)
if(NOT from_parts STREQUAL whole)
  message(FATAL_ERROR "the parts' rows differ from the whole sweep's:\n${from_parts}\n---\n${whole}")
endif()
message(STATUS "two parts stopped after 1 s and resumed: their rows are the whole sweep's")
