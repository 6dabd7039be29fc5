#pragma once
/// @file simulation_options.hpp
/// @brief What a Simulation is configured by (grid, thermal model, step
/// control, the potential step's and the diffusion steps' solvers, field
/// times) and what it reports of its work: the types a config reader, a
/// memory estimate or a batch needs without the Simulation itself.

#include <vector>

#include "voltaic/core/device_activity.hpp"
#include "voltaic/linalg/solver.hpp"
#include "voltaic/model/parameter_set.hpp"
#include "voltaic/solver/cell_layout.hpp"
#include "voltaic/solver/degradation_options.hpp"
#include "voltaic/solver/particle_point.hpp"
#include "voltaic/solver/potential_step.hpp"

namespace voltaic {

enum class ThermalModel {
  isothermal,  ///< T is held at the ambient temperature (PyBaMM's isothermal model)
  lumped,      ///< one temperature for the cell (PyBaMM's "lumped")
  conduction,  ///< 3D heat conduction over the cell grid, convective outer faces
};

/// The cell's temperature at t = 0 [K]: an isothermal cell is held at the
/// ambient temperature, as PyBaMM holds it; the others start at the initial
/// temperature.
double starting_temperature(const ParameterSet& p, ThermalModel model);

/// Time-step control. Every state (particle, electrolyte, temperature) is
/// advanced by variable-step BDF2 (backward Euler for the first two steps of
/// each experiment step), the sub-steps iterated within the step until their
/// coupling has converged, and the step size chosen from a local error
/// estimate (the new values against the polynomial through the last ones)
/// on the electrolyte and surface concentrations, the temperature, the
/// terminal voltage and, under a voltage, the current (a hold ends on it), in
/// the weighted RMS norm of IDA/IDAKLU:
/// error / (relative_tolerance |y| + absolute_tolerance y_scale) <= 1, y_scale
/// the quantity's natural size (c_max, the initial c_e, 1 K, 1 V, 1 A).
struct StepControl {
  double initial_dt = 1e-2;          ///< [s], the first step of every experiment step
  double min_dt = 1e-6;              ///< [s]: a step that fails below this stops the run
  double max_dt = 600.0;             ///< [s]
  double relative_tolerance = 1e-4;  ///< IDAKLU's default
  double absolute_tolerance = 1e-6;  ///< on scaled states, IDAKLU's default
  double max_growth = 2.0;           ///< largest dt_new / dt (BDF2 is zero-stable below 1 + sqrt 2)
  int max_retries = 12;              ///< cuts of one step before giving up
  double event_tolerance = 1e-7;     ///< [V] (or [A] for current events) of a located cut-off
  /// Concentration -> potential -> temperature passes of one step: the split is
  /// repeated until the electrolyte and temperature inputs of the potential
  /// step (and, under a voltage, the current) change by less than a fifth of
  /// the error tolerance, or the change still to come at the passes'
  /// contraction rate does; a step that needs more passes is cut.
  int max_split_iterations = 10;
  /// A cell that stops making progress fails (stepping::stalled): more than
  /// this many accepted steps without completing a minute of simulated time,
  /// ending at a boundary of their experiment step (its end, a drive cycle's
  /// row, a field time) or reaching max_dt, or such a step shorter than
  /// min_dt. IDAKLU's max_num_steps between PyBaMM's output times.
  int max_steps = 100000;
};

/// Wall time of the sub-steps [s], summed over a run's attempts (accepted,
/// cut and retried, or redone to locate an event) and the consistent start of
/// every experiment step. Kept only with SimulationOptions::time_substeps.
struct SubstepTimes {
  double concentration_s = 0.0;  ///< particles and electrolyte (and their inputs)
  double potential_s = 0.0;      ///< Newton with GMRES-IR, terminal voltage, current
  double thermal_s = 0.0;        ///< heat source and the thermal model (the heat is computed when isothermal too)
  /// What each sub-step asked of the device (device_activity.hpp), the
  /// timing's own synchronisations left out: where a run's launches and host
  /// waits come from. All zero on the CPU.
  DeviceActivity concentration_activity, potential_activity, thermal_activity;
};

/// The work a run did, summed over the same attempts and starts as
/// SubstepTimes, always kept. The counts are deterministic (the same on every
/// run of one build, and, up to an estimate sitting on a boundary, on every
/// backend), so tests pin them: a change that adds work fails where no GPU is
/// (tests/solver/work_counts_test.cpp, docs/performance.md).
struct WorkCounts {
  long long attempts = 0;                ///< calls of the concentration -> potential -> temperature split
  long long concentration_passes = 0;    ///< concentration sub-steps run (passes of the split)
  long long electrolyte_iterations = 0;  ///< CG iterations of those passes' electrolyte solves
  long long potential_solves = 0;        ///< Newton solves of the potential step
  long long newton_iterations = 0;       ///< their Newton iterations (updates made), summed
  long long linear_iterations = 0;       ///< Krylov iterations of those Newton iterations (3D; inner ones for GMRES-IR)
  long long heat_iterations = 0;         ///< CG iterations of the 3D heat step
};

struct SimulationOptions {
  CellGridSpec grid;
  ThermalModel thermal = ThermalModel::isothermal;
  /// Ageing submodels (SEI growth): 1D cells only.
  DegradationOptions degradation;
  /// Particle surface concentration: PyBaMM's linear extrapolation through the
  /// two outer shells, or the flux-aware value. Either is implicit in the
  /// potential step (the surface follows the reaction through each particle's
  /// step response).
  SurfaceMethod surface = SurfaceMethod::linear_extrapolation;
  StepControl steps;
  PotentialOptions potential;
  SolverOptions diffusion = default_diffusion();  ///< CG of the electrolyte step
  SolverOptions heat = default_heat();            ///< CG of the 3D heat step (ThermalModel::conduction)
  /// Times [s] at which the fields are stored (steps land on them): in the
  /// Solution, or streamed to a RunObserver that asks for fields.
  std::vector<double> field_times;
  /// [s]: fields are also stored at every multiple of this period (0: none).
  double field_period = 0.0;
  /// Time each sub-step (Simulation::substep_times()). The executor is
  /// synchronised before and after each, which stops work of one sub-step
  /// overlapping the next on a GPU: for profiling, not for production runs.
  bool time_substeps = false;

  /// The electrolyte step's residual to 1e-9 of its right-hand side (whose
  /// scale is V eps c / dt): concentrations within about 1e-9 of a solve to
  /// rounding, five orders below the step's error tolerance. Its lithium
  /// balance is exact all the same: the step restores it after CG
  /// (StepBalance::exact). Measured on a 16 x 16 Chen2020 stack: the same
  /// 168 steps, capacity within 7e-12 relative, 57 % fewer CG iterations
  /// than at 1e-13 (docs/performance.md, "Nineteenth session").
  static SolverOptions default_diffusion() {
    SolverOptions o;
    o.relative_tolerance = 1e-9;
    o.max_iterations = 5000;
    o.throw_on_failure = false;
    return o;
  }
  /// The heat step's residual to 1e-9 of its right-hand side, whose scale is
  /// V rho c_p T / dt: temperatures within about 1e-7 K of a solve to
  /// rounding, five orders below the step's error tolerance (measured on a
  /// 24 x 24 pouch: 1e-7 K, 1e-9 V, the same steps, 55 % fewer CG
  /// iterations than at 1e-13; docs/performance.md, "Eighteenth session").
  static SolverOptions default_heat() { return default_diffusion(); }
};

}  // namespace voltaic
