# Tests of the krylov part of the linear-algebra layer.
target_sources(voltaic_tests PRIVATE
  linalg/preconditioner_test.cpp
  linalg/preconditioner_cuda_vs_cpu_test.cpp
  linalg/fused_column_solve_test.cpp
  linalg/krylov_test.cpp
  linalg/krylov_matrix_test.cpp
  linalg/gmres_ir_test.cpp
  linalg/krylov_bad_operator_test.cpp
  linalg/cg_device_loop_test.cpp
  linalg/gmres_device_loop_test.cpp
)
# Their references are Eigen sparse LU solves, which take seconds at -O0:
# optimise these files even in Debug builds (the library keeps its flags).
set_source_files_properties(linalg/preconditioner_test.cpp linalg/krylov_test.cpp linalg/krylov_matrix_test.cpp
  linalg/gmres_ir_test.cpp
  PROPERTIES COMPILE_OPTIONS "$<$<CONFIG:Debug>:-O2>")
