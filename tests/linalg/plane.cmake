# Tests of the in-plane (two-foil) system and its multigrid preconditioner.
target_sources(voltaic_tests PRIVATE
  linalg/plane_multigrid_test.cpp
  linalg/plane_multigrid_cuda_vs_cpu_test.cpp
  linalg/ghost_columns_test.cpp
)
# The iteration-count test solves up to 256 x 256 and checks against Eigen:
# optimise it even in Debug builds (the library keeps its flags).
set_source_files_properties(linalg/plane_multigrid_test.cpp PROPERTIES COMPILE_OPTIONS "$<$<CONFIG:Debug>:-O2>")
