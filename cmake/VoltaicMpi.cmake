# VOLTAIC_MPI: AUTO builds voltaic::mpi when an MPI with C++ bindings is
# found, ON requires one, OFF leaves it out. The library without MPI is the
# same either way. Sets VOLTAIC_HAS_MPI (0 or 1).
set(VOLTAIC_HAS_MPI 0)
if(NOT _voltaic_mpi STREQUAL "OFF")
  if(_voltaic_mpi STREQUAL "ON")
    find_package(MPI COMPONENTS CXX)
    if(NOT MPI_CXX_FOUND)
      message(FATAL_ERROR "VOLTAIC_MPI=ON but no MPI for C++ was found; install one (Debian: libopenmpi-dev "
                          "openmpi-bin, or run tools/setup.sh) or configure with -DVOLTAIC_MPI=OFF")
    endif()
  else()
    find_package(MPI QUIET COMPONENTS CXX)
  endif()
  if(MPI_CXX_FOUND)
    set(VOLTAIC_HAS_MPI 1)
    # Open MPI's mpirun runs more ranks than cores (CI has 2) only when asked.
    set(VOLTAIC_MPIEXEC_EXTRA "")
    execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE _voltaic_mpiexec_version
                    ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(_voltaic_mpiexec_version MATCHES "Open MPI|OpenRTE")
      set(VOLTAIC_MPIEXEC_EXTRA --oversubscribe)
    endif()
    message(STATUS "voltaic: voltaic::mpi (MPI ${MPI_CXX_VERSION}, ${MPIEXEC_EXECUTABLE} ${VOLTAIC_MPIEXEC_EXTRA})")
  else()
    message(STATUS "voltaic: no MPI found, voltaic::mpi not built (VOLTAIC_MPI=AUTO)")
  endif()
endif()
