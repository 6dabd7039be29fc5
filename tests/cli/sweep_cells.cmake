# ctest driver: `voltaic sweep --cells` runs only the cells it names, and their
# rows in summary.csv and cycles.csv are the whole sweep's rows of those cells,
# byte for byte (a cell's run does not depend on its batch); a --cells that
# names no cell of the sweep is refused with exit 2 and the allowed range.
#   cmake -DVOLTAIC=... -DCONFIG=... -DWORK=... -P sweep_cells.cmake
include(${CMAKE_CURRENT_LIST_DIR}/cli_support.cmake)
file(REMOVE_RECURSE "${WORK}")

function(sweep dir)
  execute_process(COMMAND "${VOLTAIC}" sweep "${CONFIG}" --output "${dir}" --threads 2 --backend cpu ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "voltaic sweep ${ARGN}: exit ${rc}\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

# The lines of DIR/sweep/FILE (the header dropped) whose cell is one of ARGN, into VAR.
function(rows_of dir file var)
  file(STRINGS "${dir}/sweep/${file}" lines)
  list(REMOVE_AT lines 0)
  set(kept "")
  set(cells ${ARGN})
  foreach(line IN LISTS lines)
    string(REGEX MATCH "^[0-9]+" cell "${line}")
    list(FIND cells "${cell}" at)
    if(NOT at EQUAL -1)
      list(APPEND kept "${line}")
    endif()
  endforeach()
  set(${var} "${kept}" PARENT_SCOPE)
endfunction()

sweep("${WORK}/whole")
sweep("${WORK}/part" --cells "3,1:2")
if(NOT out MATCHES "2 cells \\(--cells\\) of its 4 ")
  message(FATAL_ERROR "the sweep does not say it runs 2 of its 4 cells:\n${out}")
endif()
foreach(file summary.csv cycles.csv)
  rows_of("${WORK}/whole" ${file} whole 1 3)
  rows_of("${WORK}/part" ${file} part 0 1 2 3)
  list(LENGTH part n)
  if(n EQUAL 0 OR NOT part STREQUAL whole)
    message(FATAL_ERROR "${file}: the rows of cells 1 and 3 differ from the whole sweep's:\n${part}\n---\n${whole}")
  endif()
endforeach()

execute_process(COMMAND "${VOLTAIC}" sweep "${CONFIG}" --output "${WORK}/bad" --backend cpu --cells 2:9
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 2 OR NOT err MATCHES "--cells.*'2:9' is outside the sweep's cells: cell numbers run from 0 to 3")
  message(FATAL_ERROR "--cells 2:9 of 4 cells: exit ${rc}, expected 2 naming the range:\n${out}\n${err}")
endif()
if(EXISTS "${WORK}/bad")
  message(FATAL_ERROR "a refused --cells left '${WORK}/bad'")
endif()
message(STATUS "--cells 3,1:2: the rows of cells 1 and 3 are the whole sweep's; --cells 2:9 refused")
