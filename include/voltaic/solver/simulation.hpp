#pragma once
/// @file simulation.hpp
/// @brief Simulation: the DFN model of one cell, advanced by the operator
/// split concentration -> potential -> temperature through an Experiment.

#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "voltaic/core/array.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/linalg/solver.hpp"
#include "voltaic/model/parameter_set.hpp"
#include "voltaic/solver/cell_layout.hpp"
#include "voltaic/solver/checkpoint.hpp"
#include "voltaic/solver/experiment.hpp"
#include "voltaic/solver/field_catalog.hpp"
#include "voltaic/solver/particle_point.hpp"
#include "voltaic/solver/potential_step.hpp"
#include "voltaic/solver/run_observer.hpp"
#include "voltaic/solver/simulation_options.hpp"
#include "voltaic/solver/solution.hpp"
#include "voltaic/solver/step_clock.hpp"

namespace voltaic {

namespace stepping {
struct Ends;
struct Margins;
}  // namespace stepping

namespace bdf {
struct Formula;
}

namespace program {
class CellEngine;
}

namespace detail {
struct RunContext;
}

class RecordedState;
class RunRecorder;

/// What an experiment step holds fixed: the current [A], the terminal voltage
/// [V] or the power [W] (PyBaMM's signs: current and power > 0 discharge).
struct StepDrive {
  enum class Mode { current, voltage, power };
  Mode mode = Mode::current;
  double value = 0.0;
  std::shared_ptr<const DriveCycle> table;  ///< set: the value follows it (a drive cycle)

  /// The drive `elapsed` seconds into the step (a fixed value without a table).
  StepDrive at(double elapsed) const { return table ? StepDrive{mode, table->value_at(elapsed), nullptr} : *this; }
};

/// What `step` holds fixed for a cell rated `e` (a C-rate resolved to amperes
/// by ElectricalParameters::c_rate_amperes, a rest as 0 A).
/// @throws InvalidArgument for a step of no known control mode
StepDrive step_drive(const ExperimentStep& step, const ElectricalParameters& e);

/// One cell on one executor. The state (particle, electrolyte, potentials,
/// temperature) stays in the executor's memory; per time step the host reads
/// back the few scalars the algorithm branches on (voltage, current, heat,
/// the Newton and Krylov norms). A 1D cell (1 x 1 plane, uniform
/// collectors, no 3D heat, one process) runs on the cell engine, the batch
/// cell program for one cell: the host then looks once per row.
class Simulation {
 public:
  /// @throws InvalidArgument naming a bad parameter (with its allowed range) or grid count
  Simulation(const ParameterSet& parameters, SimulationOptions options, std::shared_ptr<const Executor> exec);
  /// One rank's block of a cell whose plane is cut over several processes
  /// (voltaic::mpi makes the decomposition; options.grid is the whole
  /// cell's). Every rank runs the same experiment; the rows of run()'s
  /// Solution are the whole cell's, the same bits on every rank and for
  /// every cut of the plane; its fields and checkpoints are the whole cell's
  /// (gathered on every rank), the serial run's, so a checkpoint written on
  /// any number of ranks restarts on any other, unless the observer takes
  /// blocks (RunObserver::takes_blocks): then each rank's are its block's.
  /// @throws InvalidArgument as above, and when options.grid's plane is not the decomposition's
  Simulation(const ParameterSet& parameters, SimulationOptions options, std::shared_ptr<const Executor> exec,
             std::shared_ptr<const PlaneDecomposition> decomposition);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  /// Runs the experiment from the present state. A step that still fails
  /// after its retries, or that is infeasible (its cut-off is already
  /// reached at its start, as PyBaMM calls it), ends the run: the Solution
  /// keeps every row computed so far and says why (Solution::completed is
  /// then false).
  /// An observer sees each row as it is made, streams field frames to a
  /// writer on an output thread, and receives checkpoints when it asks.
  Solution run(const Experiment& experiment, RunObserver* observer = nullptr);

  /// Continues from a checkpoint taken by a run of the same cell, options
  /// and experiment: the next run(experiment) resumes inside the experiment
  /// step where the checkpoint was taken, and returns the whole Solution
  /// (the rows before the checkpoint included; not the fields stored before
  /// it). The run ends in bitwise the same state as one never interrupted.
  /// @throws InvalidArgument when the checkpoint comes from another cell,
  ///         grid or options (naming the first difference), is incomplete,
  ///         or holds a value no run writes (a NaN or negative time, a
  ///         negative count: every stored number is range-checked). The
  ///         field schedule is taken from this Simulation's options.
  void load_checkpoint(const Checkpoint& checkpoint);
  /// The same, and checks now (rather than in run()) that the checkpoint
  /// comes from a run of `experiment` and that its step is one of it.
  void load_checkpoint(const Checkpoint& checkpoint, const Experiment& experiment);
  /// The columns whose state this rank holds: its ghosted block on a cut
  /// plane, else the whole plane. load_checkpoint() takes a checkpoint whose
  /// state arrays are the whole plane's or exactly this window's (a reader
  /// assembling the pieces of a checkpoint written per rank gives it).
  CheckpointWindow state_window() const;

  /// Lithium in the cell [mol]: particles plus electrolyte.
  double lithium_inventory() const;
  double time() const { return clock().time; }
  /// Sums since construction (all zero unless options().time_substeps).
  const SubstepTimes& substep_times() const { return substep_times_; }
  /// The work since construction (WorkCounts).
  const WorkCounts& work() const { return work_; }
  const CellLayout& layout() const { return *layout_; }
  const SimulationOptions& options() const { return options_; }

 private:
  struct Workspace;
  /// The clock of one independent cell (stepping::Clock, shared with the
  /// batch cell program) and its experiment step's index. A Simulation holds
  /// one: a 1D cell, or the columns of a 3D cell, which their in-plane
  /// coupling keeps in step.
  struct CellClock : stepping::Clock {
    std::size_t index = 0;  ///< the experiment step
  };
  CellClock& clock() { return clocks_.front(); }
  const CellClock& clock() const { return clocks_.front(); }
  // The operator split's parts behind one interface (solver/simulation_substeps.hpp).
  struct Pass;
  class Substep;
  class ConcentrationSubstep;
  class PotentialSubstep;
  class ThermalSubstep;
  class IsothermalSubstep;
  class LumpedThermalSubstep;
  class ConductionSubstep;
  /// What the running Solution and its observer need besides the state (solver/simulation_run.hpp).
  using RunContext = detail::RunContext;
  /// The state as the recorder reads it: the field solvers' or the engine's (solver/simulation_run.hpp).
  class FieldState;
  class EngineState;
  /// aj, phi, c_e (and T unless isothermal) extrapolated to t + h through the
  /// last two or three accepted values: where the split's first pass starts.
  void predict_inputs(double h);
  /// One step of length h: the formula's passes until the split converges.
  bool attempt(double h, const StepDrive& drive, std::string& why);
  /// Weighted RMS local error of the last attempt (<= 1 accepts it); < 0 when
  /// there is no history to estimate it from.
  double local_error(double h, bool voltage_driven) const;
  /// [mol/m^3]: the lowest c_e a step may end with.
  double depletion_floor() const;
  /// Every value of x > floor (NaN is not).
  bool above(const Array<double>& x, double floor) const;
  /// Weighted RMS change of the potential step's inputs (c_e, T) since `before`.
  double split_change() const;
  /// The error test's tolerance for a scalar y of absolute scale `scale`.
  double scalar_tolerance(double y, double scale) const;
  bool consistent_start(const StepDrive& drive, std::string& why);
  void save();
  void restore();
  /// After an accepted step of length h: the history moves one step on.
  void accept(double h);
  /// Why `step` cannot start from the present state (its cut-off is already
  /// reached, or its "until" voltage lies behind it), or "".
  std::string infeasibility(const ExperimentStep& step, const StepDrive& drive) const;
  bool run_step(const ExperimentStep& step, RunContext& run);
  /// The physical limit the state is at (failure_cause.hpp), or "".
  std::string physical_limit_reached() const;
  StepDrive drive_of(const ExperimentStep& step) const;
  /// How far the state is from ending the step by an event (cut-off voltage,
  /// current limit of a hold): > 0 before, <= 0 at or past it.
  double event_margin(const ExperimentStep& step, const StepDrive& drive) const;
  /// The step's ends for this cell, and the state's margins to them (solver/step_control.hpp).
  stepping::Ends ends_of(const ExperimentStep& step, const StepDrive& drive) const;
  stepping::Margins margins(const ExperimentStep& step, const StepDrive& drive) const;
  /// After a located event: "lower voltage cut-off, 2.5 V," when it was the
  /// cell's own limit rather than the step's end that ended the step, else "".
  std::string cell_limit_reached(const ExperimentStep& step, const StepDrive& drive) const;
  /// This cell as the shared step control sees it (solver/step_control.hpp).
  struct SteppedCell;
  // A 1D cell runs on the cell engine (simulation_engine.cpp).
  /// Whether `options` make a cell the engine runs (1D, no 3D heat, no collectors, one process).
  static bool on_cell_engine(const SimulationOptions& options, const PlaneDecomposition* decomposition);
  /// The experiment's steps from `first` on the engine: the rows, notes and endings of run_step.
  void run_on_engine(const Experiment& experiment, RunContext& run, std::size_t first);
  /// After an engine call: its clock into this Simulation's, its work into work_.
  void take_engine_clock(long long step_index, RunContext& run);
  /// Its operator split as the shared pass loop sees it (stepping::split_passes).
  struct SplitPasses;
  /// Its attempt as the shared skeleton sees it (stepping::attempt).
  struct Attempt;

  std::shared_ptr<const CellLayout> layout_;
  SimulationOptions options_;
  std::unique_ptr<Workspace> w_;
  std::vector<CellClock> clocks_ = std::vector<CellClock>(1);  // see CellClock
  std::unique_ptr<ConcentrationSubstep> concentration_;
  std::unique_ptr<PotentialSubstep> potential_;
  std::unique_ptr<ThermalSubstep> thermal_;
  std::vector<Substep*> coupled_;  // after the concentrations, in order: potential, thermal
  SubstepTimes substep_times_;
  WorkCounts work_;
  std::unique_ptr<program::CellEngine> engine_;  // a 1D cell's (on_cell_engine): the state and the step loop are its
  // Last, so that they go before what they read: the state's two sources
  // behind one interface, and the rows, fields and checkpoints of a run.
  std::unique_ptr<RecordedState> state_;
  std::unique_ptr<RunRecorder> recorder_;
};

}  // namespace voltaic
