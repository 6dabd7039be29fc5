# Options of the voltaic build, validated so that a typo stops configuration
# with the list of allowed values instead of building something unexpected.

set(VOLTAIC_CUDA "AUTO" CACHE STRING "Build the CUDA backend: AUTO (when nvcc is found), ON, or OFF")
set_property(CACHE VOLTAIC_CUDA PROPERTY STRINGS AUTO ON OFF)
string(TOUPPER "${VOLTAIC_CUDA}" _voltaic_cuda)
if(NOT _voltaic_cuda MATCHES "^(AUTO|ON|OFF)$")
  message(FATAL_ERROR "VOLTAIC_CUDA='${VOLTAIC_CUDA}' is not valid; allowed values: AUTO, ON, OFF")
endif()

option(VOLTAIC_BUILD_TESTS "Build the GoogleTest suite" ON)
option(VOLTAIC_BUILD_BENCHMARKS "Build voltaic-bench" ON)
option(VOLTAIC_BUILD_EXAMPLES "Build the example programs" ON)
option(VOLTAIC_WERROR "Treat compiler warnings as errors" OFF)
option(VOLTAIC_DEBUG_SYNC "Synchronise and check after every kernel launch by default (env VOLTAIC_DEBUG_SYNC overrides)" OFF)
option(VOLTAIC_FORCE_BOUNDS_CHECK "Bounds-check View indexing in release builds too" OFF)
set(VOLTAIC_SANITIZE "" CACHE STRING "Host sanitizers for the library and tests, e.g. 'address,undefined'")
option(VOLTAIC_FUZZ "Build the libFuzzer targets of tests/fuzz (needs clang and VOLTAIC_CUDA=OFF)" OFF)

set(VOLTAIC_MPI "AUTO" CACHE STRING "Build voltaic::mpi (x-y domain decomposition over MPI ranks): AUTO (when MPI is found), ON, or OFF")
set_property(CACHE VOLTAIC_MPI PROPERTY STRINGS AUTO ON OFF)
string(TOUPPER "${VOLTAIC_MPI}" _voltaic_mpi)
if(NOT _voltaic_mpi MATCHES "^(AUTO|ON|OFF)$")
  message(FATAL_ERROR "VOLTAIC_MPI='${VOLTAIC_MPI}' is not valid; allowed values: AUTO, ON, OFF")
endif()
