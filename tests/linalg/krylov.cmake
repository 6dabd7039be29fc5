# Tests of the krylov part of the linear-algebra layer.
target_sources(voltaic_tests PRIVATE
  linalg/preconditioner_test.cpp
  linalg/preconditioner_cuda_vs_cpu_test.cpp
  linalg/twisted_column_solve_test.cpp
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

if(VOLTAIC_HAS_CUDA)
  # The device side of twisted_column_solve_test.cpp, rounding as the cell
  # program's kernels do (--fmad=false, src/solver/solver.cmake).
  add_library(voltaic_twisted_cuda OBJECT linalg/twisted_column_cuda_kernels.cu)
  target_include_directories(voltaic_twisted_cuda PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(voltaic_twisted_cuda PRIVATE voltaic::voltaic)
  target_compile_options(voltaic_twisted_cuda PRIVATE --fmad=false
    -Xcompiler=-Wall,-Wextra $<$<BOOL:${VOLTAIC_WERROR}>:--Werror=all-warnings -Xcompiler=-Werror>)
  target_link_libraries(voltaic_tests PRIVATE voltaic_twisted_cuda)
endif()
