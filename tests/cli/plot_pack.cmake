# ctest driver: tools/plot_pack.py on what `voltaic pack` wrote draws
# pack.png (the default times and --times); bad input (no directory, a
# pack.h5 that is not HDF5, a time outside the run) ends with one line on
# stderr, exit 2 and no pack.png.
#   cmake -DVOLTAIC=... -DPYTHON=... -DPLOT=tools/plot_pack.py -DCONFIG=... -DWORK=... -P plot_pack.cmake
include(${CMAKE_CURRENT_LIST_DIR}/cli_support.cmake)
file(REMOVE_RECURSE "${WORK}")
set(dir "${WORK}/output")
execute_process(COMMAND "${VOLTAIC}" pack "${CONFIG}" --output "${dir}" --backend cpu
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "voltaic pack: exit ${rc}:\n${out}\n${err}")
endif()

# plot_pack.py ARGN; RC, OUT and ERR returned.
function(plot)
  execute_process(COMMAND "${PYTHON}" "${PLOT}" ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                  TIMEOUT 120)
  set(rc "${rc}" PARENT_SCOPE)
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()

# Fails unless the plot of ARGN wrote DIR/pack.png, a PNG.
function(expect_png dir)
  file(REMOVE "${dir}/pack.png")
  plot("${dir}" ${ARGN})
  if(NOT rc EQUAL 0 OR NOT out MATCHES "^plot_pack.py: wrote [^\n]*pack.png\n$")
    message(FATAL_ERROR "plot_pack.py ${ARGN}: exit ${rc}:\n${out}\n${err}")
  endif()
  file(READ "${dir}/pack.png" magic LIMIT 8 HEX)
  if(NOT magic STREQUAL "89504e470d0a1a0a")
    message(FATAL_ERROR "plot_pack.py ${ARGN}: '${dir}/pack.png' is not a PNG (${magic})")
  endif()
endfunction()

# Fails unless plot_pack.py ARGN exits 2 with one line holding SUBSTRING and writes no pack.png.
function(expect_refused dir substring)
  file(REMOVE "${dir}/pack.png")
  plot(${ARGN})
  string(REGEX MATCHALL "\n" newlines "${err}")
  list(LENGTH newlines lines)
  string(FIND "${err}" "${substring}" at)
  if(NOT rc EQUAL 2 OR NOT lines EQUAL 1 OR NOT err MATCHES "^plot_pack.py: error: " OR at EQUAL -1)
    message(FATAL_ERROR "plot_pack.py ${ARGN}: exit ${rc}, expected 2 and one line holding '${substring}':\n${err}")
  endif()
  if(EXISTS "${dir}/pack.png")
    message(FATAL_ERROR "plot_pack.py ${ARGN}: refused, yet wrote '${dir}/pack.png'")
  endif()
endfunction()

expect_png("${dir}")
expect_png("${dir}" --times 0,600 --time-unit s)
expect_refused("${WORK}/none" "no such directory" "${WORK}/none")
expect_refused("${dir}" "outside the pack's run" "${dir}" --times 1e9)
expect_refused("${dir}" "is not a time in seconds" "${dir}" --times 60,soon)
file(MAKE_DIRECTORY "${WORK}/not_hdf5")
file(COPY_FILE "${dir}/pack.csv" "${WORK}/not_hdf5/pack.h5")
expect_refused("${WORK}/not_hdf5" "cannot be read as HDF5" "${WORK}/not_hdf5")
message(STATUS "plot_pack.py: pack.png drawn; bad input refused in one line, exit 2")
