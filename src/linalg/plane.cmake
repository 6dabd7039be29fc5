# Sources of the in-plane (two-foil) system and its multigrid preconditioner
# (see docs/multigrid.md).
target_sources(voltaic PRIVATE
  linalg/plane_support.cpp
  linalg/plane_system.cpp
  linalg/plane_multigrid.cpp
  linalg/cut_plane_multigrid.cpp
  cpu/plane_multigrid.cpp
)
if(VOLTAIC_HAS_CUDA)
  target_sources(voltaic PRIVATE ${PROJECT_SOURCE_DIR}/kernels/plane_multigrid.cu)
endif()
