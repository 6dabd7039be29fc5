# Tests of the krylov part of the linear-algebra layer.
target_sources(voltaic_tests PRIVATE
  linalg/preconditioner_test.cpp
)
