# Tests of the solver layer.
target_sources(voltaic_tests PRIVATE
  solver/diffusion_step_test.cpp
  solver/stack_heat_test.cpp
  solver/lumped_thermal_test.cpp
  solver/experiment_test.cpp
  solver/particle_step_test.cpp
  solver/particle_convergence_test.cpp
  solver/particle_errors_test.cpp
  solver/particle_cuda_vs_cpu_test.cpp
  solver/simulation_pybamm_test.cpp
  solver/experiment_pybamm_test.cpp
  solver/thermal_validation_test.cpp
  solver/simulation_test.cpp
  solver/collectors_test.cpp
  solver/collectors_pybamm_test.cpp
  solver/solver_options_test.cpp
  solver/simulation_cuda_vs_cpu_test.cpp
  solver/cell_program_cuda_test.cpp
  solver/simulation_restart_test.cpp
  solver/column_fields_test.cpp
  solver/custom_functions_test.cpp
  solver/memory_estimate_test.cpp
  solver/failure_cause_test.cpp
  solver/batch_simulation_test.cpp
  solver/cell_program_test.cpp
  solver/batch_pybamm_test.cpp
)
