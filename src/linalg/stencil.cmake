# Sources of the stencil part of the linear-algebra layer (see docs/design.md).
target_sources(voltaic PRIVATE
  linalg/boundary.cpp
  linalg/stencil_operator.cpp
  cpu/stencil.cpp
)
if(VOLTAIC_HAS_CUDA)
  target_sources(voltaic PRIVATE ${PROJECT_SOURCE_DIR}/kernels/stencil.cu)
endif()
