# Sources of the solver layer: the sub-steps of a time step and the integrator.
target_sources(voltaic PRIVATE
  solver/diffusion_step.cpp
  solver/stack_heat.cpp
  solver/column_correction.cpp
  solver/plane_cycle.cpp
  solver/lumped_thermal.cpp
  solver/drive_cycle.cpp
  solver/experiment.cpp
  solver/particle_step.cpp
  solver/cell_layout.cpp
  solver/collector_system.cpp
  solver/collector_tabs.cpp
  solver/potential_step.cpp
  solver/anderson_mixing.cpp
  solver/simulation.cpp
  solver/batch_simulation.cpp
  solver/cell_program_batch.cpp
  solver/cell_program_cpu.cpp
  solver/cell_program_setup.cpp
  solver/cell_engine.cpp
  solver/pack_simulation.cpp
  solver/pack_cells.cpp
  solver/pack_thermal.cpp
  solver/pack_circuit.cpp
  solver/pack_netlist.cpp
  solver/cell_totals.cpp
  solver/cycle_summary.cpp
  solver/checkpoint_cycles.cpp
  solver/solver_options.cpp
  solver/degradation_options.cpp
  solver/simulation_steps.cpp
  solver/simulation_substeps.cpp
  solver/run_recorder.cpp
  solver/run_recorder_checkpoint.cpp
  solver/setup_fingerprint.cpp
  solver/batch_checkpoint.cpp
  solver/simulation_state.cpp
  solver/simulation_engine.cpp
  solver/electrode_soh.cpp
  solver/cycling.cpp
  solver/checkpoint_values.cpp
  solver/checkpoint_window.cpp
  solver/memory_estimate.cpp
  solver/failure_cause.cpp
  solver/field_output.cpp
  solver/solution.cpp
  solver/batch_result.cpp
  solver/field_catalog.cpp
  cpu/particle.cpp
)
if(VOLTAIC_HAS_CUDA)
  target_sources(voltaic PRIVATE ${PROJECT_SOURCE_DIR}/kernels/particle.cu ${PROJECT_SOURCE_DIR}/kernels/dfn.cu
    ${PROJECT_SOURCE_DIR}/kernels/cell_program.cu ${PROJECT_SOURCE_DIR}/kernels/cell_program_plain.cu
    ${PROJECT_SOURCE_DIR}/kernels/pack_cells.cu)
  # The cell program rounds as the CPU does (-ffp-contract=off): no a*b+c
  # contracted to an FMA, so a GPU cell gives the CPU's bits (cell_program.hpp).
  set_source_files_properties(${PROJECT_SOURCE_DIR}/kernels/cell_program.cu
    ${PROJECT_SOURCE_DIR}/kernels/cell_program_plain.cu ${PROJECT_SOURCE_DIR}/kernels/pack_cells.cu
    PROPERTIES COMPILE_OPTIONS --fmad=false)
endif()

# A netlist pack's circuit is a sparse LDL^T (pack_netlist.cpp): Eigen's
# headers at build time only, nothing for the installed package to find.
find_package(Eigen3 3.3 REQUIRED NO_MODULE)
target_link_libraries(voltaic PRIVATE $<BUILD_INTERFACE:Eigen3::Eigen>)
