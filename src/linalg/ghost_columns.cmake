# Sources of the ghost-column work of a block of a cut plane (pack, unpack,
# tile partials), both backends; voltaic::mpi moves what they pack.
target_sources(voltaic PRIVATE
  linalg/ghost_columns.cpp
  cpu/ghost_columns.cpp
)
if(VOLTAIC_HAS_CUDA)
  target_sources(voltaic PRIVATE ${PROJECT_SOURCE_DIR}/kernels/ghost_columns.cu)
endif()
