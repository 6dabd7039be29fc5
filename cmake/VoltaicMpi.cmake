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

# NCCL (with the CUDA toolkit, or where NCCL_ROOT points): voltaic::mpi's
# stream-ordered GPU transport (GpuTransport::nccl). Sets VOLTAIC_HAS_NCCL.
# VOLTAIC_NCCL=OFF leaves it out; AUTO (the default) uses it where found;
# ON requires it (and CUDA and MPI).
set(VOLTAIC_HAS_NCCL 0)
if(_voltaic_nccl STREQUAL "ON" AND NOT (VOLTAIC_HAS_MPI AND VOLTAIC_HAS_CUDA))
  message(FATAL_ERROR "VOLTAIC_NCCL=ON needs the CUDA backend and voltaic::mpi (VOLTAIC_CUDA, VOLTAIC_MPI)")
endif()
if(VOLTAIC_HAS_MPI AND VOLTAIC_HAS_CUDA AND NOT _voltaic_nccl STREQUAL "OFF")
  find_path(VOLTAIC_NCCL_INCLUDE_DIR nccl.h HINTS ${NCCL_ROOT}/include ${CUDAToolkit_INCLUDE_DIRS})
  find_library(VOLTAIC_NCCL_LIBRARY nccl HINTS ${NCCL_ROOT}/lib ${CUDAToolkit_LIBRARY_DIR})
  if(VOLTAIC_NCCL_INCLUDE_DIR AND VOLTAIC_NCCL_LIBRARY)
    set(VOLTAIC_HAS_NCCL 1)
    message(STATUS "voltaic: NCCL transport ON (${VOLTAIC_NCCL_LIBRARY})")
  elseif(_voltaic_nccl STREQUAL "ON")
    message(FATAL_ERROR "VOLTAIC_NCCL=ON but nccl.h or libnccl was not found (set NCCL_ROOT)")
  else()
    message(STATUS "voltaic: NCCL not found, GpuTransport::nccl not built")
  endif()
endif()
