# Sources of the solver layer: the sub-steps of a time step and the integrator.
target_sources(voltaic PRIVATE
  solver/diffusion_step.cpp
  solver/lumped_thermal.cpp
  solver/experiment.cpp
)
