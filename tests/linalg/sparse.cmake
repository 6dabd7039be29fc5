# Tests of the sparse part of the linear-algebra layer.
target_sources(voltaic_tests PRIVATE
  linalg/csr_test.cpp
  linalg/csr_checks_test.cpp
  linalg/ell_test.cpp
  linalg/stencil_csr_test.cpp
  linalg/sparse_cuda_vs_cpu_test.cpp
)
