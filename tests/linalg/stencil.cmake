# Tests of the stencil part of the linear-algebra layer.
target_sources(voltaic_tests PRIVATE
  linalg/stencil_test.cpp
  linalg/stencil_cuda_vs_cpu_test.cpp
)
