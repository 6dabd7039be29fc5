# voltaic::mpi: the MPI layer (communicator, the plane's block decomposition
# with its exchanges and canonical sums, distributed batches), a library of
# its own so that voltaic::voltaic needs no MPI.
add_library(voltaic_mpi
  mpi/communicator.cpp
  mpi/distributed_batch.cpp
  mpi/spread_stop.cpp
  mpi/block_decomposition.cpp
  mpi/level_link.cpp
  mpi/nccl_link.cpp
)
add_library(voltaic::mpi ALIAS voltaic_mpi)
target_link_libraries(voltaic_mpi PUBLIC voltaic MPI::MPI_CXX)
target_include_directories(voltaic_mpi PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})  # its internal headers
if(VOLTAIC_HAS_NCCL)
  # NCCL by its full path (as HDF5): only the library's own sources see nccl.h.
  target_compile_definitions(voltaic_mpi PRIVATE VOLTAIC_HAS_NCCL=1)
  target_include_directories(voltaic_mpi PRIVATE ${VOLTAIC_NCCL_INCLUDE_DIR})
  target_link_libraries(voltaic_mpi PRIVATE ${VOLTAIC_NCCL_LIBRARY} CUDA::cudart)
endif()
target_compile_options(voltaic_mpi PRIVATE -Wall -Wextra $<$<BOOL:${VOLTAIC_WERROR}>:-Werror>)
set_target_properties(voltaic_mpi PROPERTIES POSITION_INDEPENDENT_CODE ON VERSION ${PROJECT_VERSION})
