# ctest driver: `voltaic pack CONFIG` exits with EXPECTED (0: completed, 3:
# stopped early) and publishes pack.csv (its header, then one row per
# recorded time) and pack.h5, whose datasets have those rows and CELLS cells
# (voltaic-h5-shapes SHAPES lists them), with the layout as attributes, and
# the voltages of the circuit's nodes (an Np x Ns pack's groups; NODES of a
# netlist of CELLS cells).
#   cmake -DVOLTAIC=... -DSHAPES=... -DCONFIG=... -DPARALLEL=2 -DSERIES=2 -DEXPECTED=0
#         (or -DCELLS=4 -DNODES=8 for a netlist)
#         [-DPARAMETERS=1] [-DCOOLANT=ON] [-DMIN_ROWS=3] -DWORK=... -P pack.cmake
include(${CMAKE_CURRENT_LIST_DIR}/cli_support.cmake)
file(REMOVE_RECURSE "${WORK}")
set(dir "${WORK}/output")
execute_process(COMMAND "${VOLTAIC}" pack "${CONFIG}" --output "${dir}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 900)
if(NOT rc STREQUAL "${EXPECTED}")
  message(FATAL_ERROR "exit ${rc}, expected ${EXPECTED}:\n${out}\n${err}")
endif()
if(EXPECTED EQUAL 0)
  if(NOT out MATCHES "Pack completed\\..*cell current spread +[0-9.e+-]+ A.*cell temperature spread +[0-9.e+-]+ K")
    message(FATAL_ERROR "no summary of a completed pack:\n${out}")
  endif()
elseif(NOT out MATCHES "Pack stopped early\\." OR NOT err MATCHES "voltaic: stopped early: ")
  message(FATAL_ERROR "does not say that the pack stopped early:\n${out}\n${err}")
endif()
require_files("${dir}" pack.csv pack.h5)
if(EXISTS "${dir}/.voltaic.lock")
  message(FATAL_ERROR "the lock file is left in '${dir}'")
endif()

file(STRINGS "${dir}/pack.csv" lines)
list(GET lines 0 header)
if(NOT header STREQUAL "Time [s],Voltage [V],Current [A]")
  message(FATAL_ERROR "pack.csv's header is '${header}'")
endif()
list(LENGTH lines n)
math(EXPR rows "${n} - 1")
if(NOT MIN_ROWS)
  set(MIN_ROWS 1)
endif()
if(rows LESS MIN_ROWS)
  message(FATAL_ERROR "pack.csv has ${rows} rows, expected at least ${MIN_ROWS}")
endif()

execute_process(COMMAND "${SHAPES}" "${dir}/pack.h5" RESULT_VARIABLE src OUTPUT_VARIABLE shapes ERROR_VARIABLE shapes)
if(NOT src EQUAL 0)
  message(FATAL_ERROR "pack.h5 cannot be read (${src}):\n${shapes}")
endif()
if(CELLS)
  set(cells ${CELLS})
  set(layout "attribute layout netlist" "dataset /nodes/voltage ${rows} ${NODES}")
else()
  math(EXPR cells "${PARALLEL} * ${SERIES}")
  set(layout "attribute layout grid" "dataset /cells/series_index ${cells}" "dataset /cells/parallel_index ${cells}"
      "attribute parallel ${PARALLEL}" "attribute series ${SERIES}" "dataset /nodes/voltage ${rows} ${SERIES}")
endif()
if(EXPECTED EQUAL 0)
  set(completed 1)
else()
  set(completed 0)
endif()
set(expected "dataset /time ${rows}" "dataset /voltage ${rows}" "dataset /current ${rows}"
    "dataset /cells/current ${rows} ${cells}" "dataset /cells/voltage ${rows} ${cells}"
    "dataset /cells/temperature ${rows} ${cells}" "dataset /cells/heat ${rows} ${cells}"
    ${layout} "attribute completed ${completed}"
    "attribute voltaic_version " "attribute termination ")
if(COOLANT)
  list(APPEND expected "dataset /coolant_outlet ${rows}")
endif()
if(PARAMETERS)
  list(APPEND expected "dataset /cells/parameters ${cells} ${PARAMETERS}")
endif()
foreach(line IN LISTS expected)
  if(NOT line MATCHES " $")  # a whole line, not a prefix of a longer one
    string(APPEND line "\n")
  endif()
  string(FIND "${shapes}" "${line}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "pack.h5 has no '${line}'; it has:\n${shapes}")
  endif()
endforeach()
message(STATUS "voltaic pack: exit ${rc}, ${rows} rows of ${cells} cells in pack.csv and pack.h5")
