# ctest driver: when one file of the set cannot be replaced (timeseries.csv
# is a directory), the run exits with 1 naming it, the directory keeps the
# earlier files, and the run's complete files are kept where the message says.
#   cmake -DVOLTAIC=... -DCONFIG=... -DWORK=... -P failed_commit.cmake
include(${CMAKE_CURRENT_LIST_DIR}/cli_support.cmake)
file(REMOVE_RECURSE "${WORK}")
set(dir "${WORK}/dir")
set(others fields.h5 fields.xdmf checkpoint.h5)

run_voltaic("${dir}" rc log)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the first run failed (${rc}):\n${log}")
endif()
file(COPY "${dir}/" DESTINATION "${WORK}/before")
file(REMOVE "${dir}/timeseries.csv")
file(MAKE_DIRECTORY "${dir}/timeseries.csv")

run_voltaic("${dir}" rc log)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "exit ${rc}, expected 1:\n${log}")
endif()
if(NOT log MATCHES "cannot replace '[^']*timeseries.csv': it is a directory; [^\n]*files are in '([^']*)'")
  message(FATAL_ERROR "the message does not name the directory in the way and the kept files:\n${log}")
endif()
set(kept "${CMAKE_MATCH_1}")
foreach(f IN LISTS others)
  require_same("${dir}/${f}" "${WORK}/before/${f}")  # the earlier set, untouched
endforeach()
# The new set, complete: the same run again, so the same rows and frames (HDF5
# files hold their creation times: only the text files compare byte for byte).
require_files("${kept}" ${others})
require_same("${kept}/timeseries.csv" "${WORK}/before/timeseries.csv")
require_same("${kept}/fields.xdmf" "${WORK}/before/fields.xdmf")
message(STATUS "a directory in the way: exit 1, earlier files kept, new set in ${kept}")
