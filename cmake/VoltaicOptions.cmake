# Options of the voltaic build, validated so that a typo stops configuration
# with the list of allowed values instead of building something unexpected.

# An AUTO | ON | OFF cache option `name`; its upper-cased value in `out`.
function(voltaic_auto_option name doc out)
  set(${name} "AUTO" CACHE STRING "${doc}")
  set_property(CACHE ${name} PROPERTY STRINGS AUTO ON OFF)
  string(TOUPPER "${${name}}" value)
  if(NOT value MATCHES "^(AUTO|ON|OFF)$")
    message(FATAL_ERROR "${name}='${${name}}' is not valid; allowed values: AUTO, ON, OFF")
  endif()
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

voltaic_auto_option(VOLTAIC_CUDA "Build the CUDA backend: AUTO (when nvcc is found), ON, or OFF" _voltaic_cuda)
voltaic_auto_option(VOLTAIC_MPI
  "Build voltaic::mpi (x-y domain decomposition over MPI ranks): AUTO (when MPI is found), ON, or OFF" _voltaic_mpi)
voltaic_auto_option(VOLTAIC_NCCL
  "NCCL for voltaic::mpi's GPU transport: AUTO (when found with CUDA and MPI), ON, or OFF" _voltaic_nccl)

option(VOLTAIC_BUILD_TESTS "Build the GoogleTest suite" ON)
option(VOLTAIC_BUILD_BENCHMARKS "Build voltaic-bench" ON)
option(VOLTAIC_BUILD_EXAMPLES "Build the example programs" ON)
option(VOLTAIC_WERROR "Treat compiler warnings as errors" OFF)
option(VOLTAIC_DEBUG_SYNC "Synchronise and check after every kernel launch by default (env VOLTAIC_DEBUG_SYNC overrides)" OFF)
option(VOLTAIC_FORCE_BOUNDS_CHECK "Bounds-check View indexing in release builds too" OFF)
set(VOLTAIC_SANITIZE "" CACHE STRING "Host sanitizers for the library and tests, e.g. 'address,undefined'")
option(VOLTAIC_FUZZ "Build the libFuzzer targets of tests/fuzz (needs clang and VOLTAIC_CUDA=OFF)" OFF)
