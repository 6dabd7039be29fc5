#pragma once
/// @file batch_simulation.hpp
/// @brief BatchSimulation: many independent 1D cells through one experiment,
/// each with its own parameters, initial state and clock (step size, events,
/// position in the experiment). A cell that fails is reported in its result
/// and never stops the others.

#include <cstddef>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "voltaic/core/executor.hpp"
#include "voltaic/model/parameter_set.hpp"
#include "voltaic/solver/checkpoint.hpp"
#include "voltaic/solver/experiment.hpp"
#include "voltaic/solver/simulation_options.hpp"
#include "voltaic/solver/solution.hpp"

namespace voltaic {

/// The parameters that differ between the cells of a batch, by PyBaMM name;
/// every other parameter is the base set's.
struct CellParameters {
  std::vector<std::string> names;
  /// Cell-major: cell i's value of names[k] is values[i * names.size() + k].
  std::vector<double> values;

  std::size_t num_cells() const { return names.empty() ? 0 : values.size() / names.size(); }
  double value(std::size_t cell, std::size_t k) const { return values[cell * names.size() + k]; }
};

/// What one cell of a batch did.
struct BatchCellResult {
  enum class Status {
    not_run,      ///< the batch was stopped before this cell started
    completed,    ///< the experiment ran to its end
    stopped,      ///< a step failed after its retries or was infeasible: the curves up to then are kept
    failed,       ///< the cell could not be built (a non-physical parameter) or its run threw
    interrupted,  ///< the batch was stopped while this cell ran: the curves up to then are kept
  };
  Status status = Status::not_run;
  /// What ended it: Solution::termination, or the one-line error of a failed cell.
  std::string termination;
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  double discharge_capacity_ah = kNaN;  ///< at the last row
  double discharge_energy_wh = kNaN;    ///< at the last row
  double final_voltage = kNaN;          ///< [V]
  double max_temperature = kNaN;        ///< [K], the maximum over the rows
  double simulated_time = kNaN;         ///< [s] at the last row
  int steps_taken = 0, steps_rejected = 0;
  /// The passes of the split and the Newton iterations the cell's run took
  /// (WorkCounts; both engines count them alike).
  long long concentration_passes = 0, newton_iterations = 0;
  /// One value per row (empty when the batch was asked not to keep curves,
  /// or when the cell failed before its first row).
  std::vector<double> time;         ///< [s]
  std::vector<double> voltage;      ///< [V]
  std::vector<double> current;      ///< [A], > 0 on discharge
  std::vector<double> temperature;  ///< [K], the cell's volume-averaged temperature
  /// One summary per cycle the cell ended (Solution::cycles: capacity, LLI,
  /// the lithium lost to SEI and plating, LAM, ...), kept whether or not the
  /// curves are; both engines summarise alike (cycle_summary.hpp).
  std::vector<CycleSummary> cycles;
};

/// "completed", "stopped", "failed", "interrupted", "not run".
const char* to_string(BatchCellResult::Status s);

/// Sees the cells of a batch as they finish. BatchSimulation calls it under
/// its own lock, one call at a time, from the thread that ran the cell: an
/// implementation needs no locking of its own.
class BatchObserver {
 public:
  virtual ~BatchObserver() = default;
  /// Cell `index` has finished (any status but not_run).
  virtual void on_cell(std::size_t index, const BatchCellResult& result) {
    (void)index;
    (void)result;
  }
  /// Cell `index` ended a cycle of the experiment: `summary` (its `cycle`
  /// counts from 1, and goes on from a checkpoint's count after a resume).
  /// Called from the batch's threads, one call at a time, as on_cell.
  virtual void on_cycle(std::size_t index, const CycleSummary& summary) {
    (void)index;
    (void)summary;
  }
  /// Polled between the time steps of every running cell; a non-empty reason
  /// stops the batch: running cells end at their next step (interrupted),
  /// cells not started stay not_run.
  virtual std::string stop_reason() { return {}; }
  /// Whether the batch hands its state to on_checkpoint(): < 0 (the
  /// default) never; 0 when it stops (stop_reason()) with cells running;
  /// > 0 also every that many seconds of wall time (on CUDA, between calls;
  /// the CPU's cells run each on its own thread and are checkpointed when
  /// they stop). Asking for checkpoints runs the batch on the cell program
  /// (BatchEngine::automatic) and keeps the finished cells' curves until
  /// run() returns, since a checkpoint holds them.
  virtual double checkpoint_period_s() { return -1.0; }
  /// A checkpoint of the batch: every cell finished (its result), running
  /// (its state between two calls) or not started. Write it with
  /// io::write_checkpoint; BatchSimulation::run(experiment, observer, &it)
  /// goes on from it bit for bit, on either backend.
  virtual void on_checkpoint(const Checkpoint& checkpoint) { (void)checkpoint; }
};

/// How a batch runs its cells.
enum class BatchEngine {
  automatic,     ///< simulation on the CPU, cell_program on CUDA
  simulation,    ///< each cell an ordinary Simulation (CPU only)
  cell_program,  ///< the batch cell program: two warps a cell in one kernel on CUDA (a worker thread on the CPU)
};

struct BatchOptions {
  /// CPU worker threads (and the threads that build the cells' constants for
  /// the cell program); 0: one per hardware thread. Each cell's result is
  /// bitwise the same for every count.
  int threads = 0;
  /// Keep each cell's curves in the returned results (an observer sees them either way).
  bool keep_curves = true;
  BatchEngine engine = BatchEngine::automatic;
  /// Rows each cell of the cell program adds between two looks of the host
  /// (rows drained, cycle ends summarised, the observer's stop); 0: chosen
  /// (64 on the CPU; on a GPU as many as 64 MiB of row buffers for the batch
  /// allow, 64 to 1,024: a call lasts until its slowest cell has its rows, so
  /// a small batch gains from fewer calls), else 1 to 65,536. The cells' bits
  /// do not depend on it.
  int rows_per_call = 0;
};

/// N independent 1D cells on one executor. On the CPU the cells are spread
/// over worker threads (std::thread, a shared queue of cell indices), each
/// cell an ordinary Simulation: a batched cell is bitwise the cell run alone.
/// On CUDA every cell is one block (two warps) of one kernel that runs Simulation's
/// algorithm for a 1D cell from start to end (the batch cell program,
/// src/solver/cell_program.hpp): no cell reads another's data, so a batched
/// cell is bitwise that cell run alone by the program; the host looks once
/// per BatchOptions::rows_per_call rows of each cell. The program runs every experiment step
/// Simulation runs (current, power, rest, voltage, drive cycles).
class BatchSimulation {
 public:
  /// @throws InvalidArgument for a name that is not a parameter (naming the
  ///         nearest), no cells, a value count that is not a whole number of
  ///         cells, a grid that is not 1D (nx = ny = 1), a thread count < 0,
  ///         or field output asked for (options.field_times, field_period: a
  ///         batch keeps curves and cycle summaries, not fields)
  /// @throws BackendUnavailable for an executor the batch cannot use (the
  ///         simulation engine on CUDA)
  /// @throws InsufficientMemory when one result per cell and one Simulation
  ///         per worker thread cannot fit the executor's memory
  /// A non-physical value (out of its range, or not valid beside the others)
  /// is not an error here: that cell fails in run() with the reason.
  BatchSimulation(const ParameterSet& base, CellParameters cells, SimulationOptions options,
                  std::shared_ptr<const Executor> exec, BatchOptions batch = {});
  ~BatchSimulation();
  BatchSimulation(const BatchSimulation&) = delete;
  BatchSimulation& operator=(const BatchSimulation&) = delete;

  /// Runs every cell through `experiment`; the results are in cell order.
  /// From `resume` (a checkpoint from BatchObserver::on_checkpoint) the
  /// finished cells are handed to the observer again as they were, the
  /// running ones go on from their state and the others start: the results
  /// are bitwise those of a run never stopped.
  /// @throws InvalidArgument when `resume` is of another batch (its
  ///         parameters, cells, options, experiment or build: the first
  ///         difference named) or malformed, or when checkpoints are asked of
  ///         the simulation engine
  std::vector<BatchCellResult> run(const Experiment& experiment, BatchObserver* observer = nullptr,
                                   const Checkpoint* resume = nullptr);

  /// Checks that run(experiment, observer, &c) can go on from `c`, without running.
  /// @throws InvalidArgument as run() would
  void check_checkpoint(const Experiment& experiment, const Checkpoint& c) const;

  std::size_t num_cells() const { return cells_.num_cells(); }
  const CellParameters& cells() const { return cells_; }
  const std::shared_ptr<const Executor>& executor() const { return exec_; }
  /// The parameters of cell i: the base set with its values, not validated.
  ParameterSet cell_parameters(std::size_t i) const;
  /// Memory of one cell in flight in the cell program [bytes]: its arrays,
  /// constants and clock (on CUDA every cell of a wave holds this).
  std::size_t cell_program_bytes() const;
  /// Threads run() uses: BatchOptions::threads (0: every hardware thread), at most one per cell.
  std::size_t worker_threads() const;

 private:
  struct ProgramRun;
  BatchEngine engine() const;
  std::vector<BatchCellResult> run_simulations(const Experiment& experiment, BatchObserver* observer);
  std::vector<BatchCellResult> run_cell_program(const Experiment& experiment, BatchObserver* observer,
                                                const Checkpoint* resume);
  void run_program_on_cpu(ProgramRun& run, const std::vector<std::size_t>& cells);
  void run_program_on_cuda(ProgramRun& run, const std::vector<std::size_t>& cells);
  void report(ProgramRun& run, std::size_t index);

  ParameterSet base_;
  CellParameters cells_;
  SimulationOptions options_;
  std::shared_ptr<const Executor> exec_;
  BatchOptions batch_;
};

}  // namespace voltaic
