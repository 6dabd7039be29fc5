# Tests of the solver layer.
target_sources(voltaic_tests PRIVATE
  solver/electrolyte_diffusion_test.cpp
)
