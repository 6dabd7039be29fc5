# Sources of the krylov part of the linear-algebra layer (see docs/design.md).
target_sources(voltaic PRIVATE
  linalg/solver.cpp
  linalg/vector_space.cpp
  linalg/preconditioner.cpp
  linalg/zline_preconditioner.cpp
  linalg/cg.cpp
  linalg/gmres.cpp
  linalg/gmres_ir.cpp
  cpu/preconditioner.cpp
)
if(VOLTAIC_HAS_CUDA)
  target_sources(voltaic PRIVATE ${PROJECT_SOURCE_DIR}/kernels/preconditioner.cu ${PROJECT_SOURCE_DIR}/kernels/cg_loop.cu
    ${PROJECT_SOURCE_DIR}/kernels/gmres_loop.cu)
endif()
