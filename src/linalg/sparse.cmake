# Sources of the sparse part of the linear-algebra layer (see docs/design.md).
target_sources(voltaic PRIVATE
  linalg/csr_matrix.cpp
  linalg/ell_matrix.cpp
  linalg/assemble_csr.cpp
  cpu/spmv.cpp
  cpu/assemble.cpp
)
if(VOLTAIC_HAS_CUDA)
  target_sources(voltaic PRIVATE
    ${PROJECT_SOURCE_DIR}/kernels/spmv.cu
    ${PROJECT_SOURCE_DIR}/kernels/assemble.cu
  )
endif()
