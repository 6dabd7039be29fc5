#pragma once
// RunRecorder: what one Simulation's run keeps besides stepping: its rows,
// the fields at their times (stored or streamed), the observer's rows and
// checkpoints, and the restart from a checkpoint. It reads and writes the
// state through RecordedState, so a 1D cell on the cell engine and a cell on
// the field solvers record alike. The checkpoint's side is in
// run_recorder_checkpoint.cpp.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "solver/recorded_state.hpp"
#include "voltaic/solver/checkpoint.hpp"
#include "voltaic/solver/experiment.hpp"
#include "voltaic/solver/simulation_options.hpp"
#include "voltaic/solver/step_clock.hpp"

namespace voltaic {

class CellLayout;
class RunObserver;
class Solution;

namespace detail {
struct RunContext;
}

class RunRecorder {
 public:
  /// `clock` and `step_index` are the Simulation's (its CellClock), `state`
  /// its engine's; all outlive the recorder. `cycles`: checkpoints carry the
  /// cycle summaries (the cell engine's runs).
  RunRecorder(const CellLayout& layout, const SimulationOptions& options, stepping::Clock& clock,
              std::size_t& step_index, RecordedState& state, bool cycles);
  ~RunRecorder();

  /// The observer of a run and the fields it streams, into `run`.
  /// @throws InvalidArgument for a streamed field not in field_catalog()
  void begin(detail::RunContext& run, RunObserver* observer, const Experiment& experiment) const;
  /// Where a run starts: a loaded checkpoint's rows, cycles and step (then
  /// run.resuming), else step 0.
  /// @throws InvalidArgument when the loaded checkpoint is of another experiment
  std::size_t resume(detail::RunContext& run, const Experiment& experiment);
  /// Appends the clock's row of experiment step `step_index` to `s`.
  void record(Solution& s, int step_index) const;
  /// After a row: the fields due, the observer's row and its checkpoint
  /// (where `may_checkpoint`), and its stop.
  void report_row(detail::RunContext& run, bool may_checkpoint);
  /// Time of the next field output (infinity when none is left).
  double next_field_time() const;

  /// Simulation::load_checkpoint: the state, the clock and the field
  /// schedule from `c`, kept for the next run.
  void load_checkpoint(const Checkpoint& c);
  /// The loaded checkpoint belongs to `experiment` and its step index is in it.
  void check_resume(const Experiment& experiment) const;
  /// Simulation::state_window.
  CheckpointWindow state_window() const;

 private:
  void emit_due_fields(detail::RunContext& run);
  Checkpoint make_checkpoint(const detail::RunContext& run) const;
  /// The rank's block of a whole-plane state array of a checkpoint (the array itself on a whole plane).
  std::vector<double> block_of(const std::vector<double>& whole) const;
  /// The scalars of a checkpoint, range-checked, into the clock.
  void load_scalars(const Checkpoint& c);
  /// The field schedule for the clock's time under the options.
  void resume_field_schedule();
  /// Everything a checkpoint must match to continue this run, one item per line.
  std::string setup_fingerprint() const;

  const CellLayout& layout_;
  const SimulationOptions& options_;
  stepping::Clock& clock_;
  std::size_t& index_;
  RecordedState& state_;
  bool cycles_;
  std::size_t next_field_ = 0;           // into options_.field_times
  std::size_t next_periodic_field_ = 0;  // multiples of options_.field_period done
  std::unique_ptr<Checkpoint> pending_;  // set by load_checkpoint until the next run
};

}  // namespace voltaic
