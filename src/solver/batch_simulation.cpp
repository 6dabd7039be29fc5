// BatchSimulation on the CPU: worker threads take cell indices from a shared
// counter, and each cell is an ordinary Simulation on its own, so a cell's
// result does not depend on the thread count or on the other cells. The
// observer is called under one lock; its errors (a full disk) stop the batch
// and reach the caller.
#include "voltaic/solver/batch_simulation.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <mutex>
#include <sstream>
#include <system_error>
#include <thread>
#include <utility>

#include "solver/batch_run.hpp"
#include "voltaic/model/parameter_table.hpp"
#include "voltaic/solver/memory_estimate.hpp"
#include "voltaic/solver/simulation.hpp"

namespace voltaic {

namespace {

constexpr const char* kWhere = "BatchSimulation";

void check_cells(const CellParameters& cells) {
  if (cells.names.empty()) throw InvalidArgument("CellParameters::names", kWhere, "is empty; allowed: >= 1 name");
  for (const std::string& name : cells.names) {
    if (!find_parameter(name))
      throw InvalidArgument("\"" + name + "\"", kWhere,
                            "is not a parameter voltaic knows; allowed: a name that `voltaic params` lists");
  }
  if (cells.values.empty() || cells.values.size() % cells.names.size() != 0) {
    throw InvalidArgument("CellParameters::values", kWhere,
                          "holds " + std::to_string(cells.values.size()) + " values for " +
                              std::to_string(cells.names.size()) + " names; allowed: a whole number >= 1 of cells");
  }
}

/// The BatchCellResult of a finished Simulation run.
BatchCellResult result_of(const Solution& s, const WorkCounts& work, bool interrupted) {
  BatchCellResult r;
  r.status = s.completed   ? BatchCellResult::Status::completed
             : interrupted ? BatchCellResult::Status::interrupted
                           : BatchCellResult::Status::stopped;
  r.termination = s.termination;
  r.steps_taken = s.steps_taken;
  r.steps_rejected = s.steps_rejected;
  r.concentration_passes = work.concentration_passes;
  r.newton_iterations = work.newton_iterations;
  r.cycles = s.cycles;
  if (s.rows() == 0) return r;
  r.time = s["Time [s]"];
  r.voltage = s["Voltage [V]"];
  r.current = s["Current [A]"];
  r.temperature = s["Volume-averaged cell temperature [K]"];
  const std::vector<double>& t_max = s["Maximum cell temperature [K]"];
  r.discharge_capacity_ah = s["Discharge capacity [A.h]"].back();
  r.discharge_energy_wh = s["Discharge energy [W.h]"].back();
  r.final_voltage = r.voltage.back();
  r.simulated_time = r.time.back();
  r.max_temperature = *std::max_element(t_max.begin(), t_max.end());
  return r;
}

BatchCellResult failure(const std::string& why) {
  BatchCellResult r;
  r.status = BatchCellResult::Status::failed;
  r.termination = one_line(why);
  return r;
}

}  // namespace

namespace {

/// Passes the batch's stop reason to one cell's Simulation run, and the
/// cycles it ends to the batch's observer.
class CellObserver : public RunObserver {
 public:
  CellObserver(BatchRun& run, std::size_t index) : run_(run), index_(index) {}
  void on_row(const Solution& solution) override { tell_cycles(solution); }
  /// Hands on the cycles `solution` ended since the last call (the run's
  /// last cycle ends after its last row).
  void tell_cycles(const Solution& solution) {
    for (; told_ < solution.cycles.size(); ++told_) run_.on_cycle(index_, solution.cycles[told_]);
  }
  std::string stop_reason() override {
    std::string why = run_.stop_reason();
    if (!why.empty()) stopped_ = true;
    return why;
  }
  bool stopped() const { return stopped_; }

 private:
  BatchRun& run_;
  std::size_t index_;
  std::size_t told_ = 0;  // the cycles handed on
  bool stopped_ = false;
};

}  // namespace

BatchSimulation::BatchSimulation(const ParameterSet& base, CellParameters cells, SimulationOptions options,
                                 std::shared_ptr<const Executor> exec, BatchOptions batch)
    : base_(base), cells_(std::move(cells)), options_(std::move(options)), exec_(std::move(exec)), batch_(batch) {
  check_cells(cells_);
  if (options_.grid.nx != 1 || options_.grid.ny != 1) {
    throw InvalidArgument("grid nx x ny", kWhere,
                          "is " + std::to_string(options_.grid.nx) + " x " + std::to_string(options_.grid.ny) +
                              "; allowed: 1 x 1 (batched cells are 1D)");
  }
  if (options_.thermal == ThermalModel::conduction)
    throw InvalidArgument("thermal model", kWhere,
                          "is conduction; allowed: isothermal or lumped (batched cells are 1D)");
  if (batch_.threads < 0)
    throw InvalidArgument("BatchOptions::threads", kWhere,
                          "is " + std::to_string(batch_.threads) + "; allowed: >= 0 (0: every hardware thread)");
  if (batch_.rows_per_call < 0 || batch_.rows_per_call > 65536)
    throw InvalidArgument("BatchOptions::rows_per_call", kWhere,
                          "is " + std::to_string(batch_.rows_per_call) + "; allowed: 0 (chosen) or 1 to 65,536");
  if (!exec_) throw InvalidArgument("executor", kWhere, "is null");
  if (exec_->backend() != Backend::cpu && batch_.engine == BatchEngine::simulation)
    throw BackendUnavailable("backend " + exec_->name(), kWhere,
                             "the simulation engine runs on the CPU; allowed on CUDA: the cell program");
  if (!options_.field_times.empty() || options_.field_period > 0.0) {
    throw InvalidArgument("SimulationOptions::field_times, field_period", kWhere,
                          "ask for fields; allowed: none (a batch keeps each cell's curves and cycle summaries, not "
                          "fields: run the cell alone with Simulation for its fields)");
  }
  if (engine() == BatchEngine::simulation) require_batch_memory(num_cells(), worker_threads(), options_, *exec_, 1);
}

BatchEngine BatchSimulation::engine() const {
  if (batch_.engine != BatchEngine::automatic) return batch_.engine;
  return exec_->backend() == Backend::cpu ? BatchEngine::simulation : BatchEngine::cell_program;
}

std::size_t BatchSimulation::worker_threads() const {
  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  return std::min<std::size_t>(num_cells(), batch_.threads > 0 ? unsigned(batch_.threads) : hardware);
}

BatchSimulation::~BatchSimulation() = default;

ParameterSet BatchSimulation::cell_parameters(std::size_t i) const {
  ParameterSet p = base_;
  for (std::size_t k = 0; k < cells_.names.size(); ++k) set_parameter(p, cells_.names[k], cells_.value(i, k));
  return p;
}

namespace {

BatchCellResult run_cell(const ParameterSet& p, const SimulationOptions& options,
                         const std::shared_ptr<const Executor>& exec, const Experiment& experiment, BatchRun& run,
                         std::size_t index) {
  try {
    Simulation sim(p, options, exec);
    CellObserver observer(run, index);
    const Solution s = sim.run(experiment, &observer);
    observer.tell_cycles(s);
    return result_of(s, sim.work(), observer.stopped());
  } catch (const Error& e) {  // a non-physical parameter, or a step the cell cannot take
    return failure(e.what_failed() + ": " + e.why());
  } catch (const std::bad_alloc&) {
    return failure("out of memory");
  }
}

}  // namespace

void require_batch_memory(std::size_t cells, std::size_t threads, const SimulationOptions& options,
                          const Executor& exec, int cycles) {
  const double per_cell = double(sizeof(BatchCellResult)) + 128.0 + double(cycles) * double(sizeof(CycleSummary));
  const double need = double(cells) * per_cell + double(threads) * simulation_memory_bytes(options);
  const double have = available_memory_bytes(exec);
  if (need <= have) return;
  std::ostringstream why;
  why << "needs about " << need / double(1 << 20) << " MiB for " << cells << " cells on " << threads << " threads, but "
      << exec.name() << " has " << have / double(1 << 20) << " MiB available; allowed: fewer cells per batch";
  throw InsufficientMemory("cells", kWhere, why.str());
}

std::vector<BatchCellResult> BatchSimulation::run(const Experiment& experiment, BatchObserver* observer,
                                                  const Checkpoint* resume) {
  const bool checkpoints = resume || (observer && observer->checkpoint_period_s() >= 0.0);
  // A 1D Simulation runs on the program, so the automatic engine may switch.
  const BatchEngine e = checkpoints && batch_.engine == BatchEngine::automatic ? BatchEngine::cell_program : engine();
  if (e == BatchEngine::cell_program) return run_cell_program(experiment, observer, resume);
  if (checkpoints)
    throw InvalidArgument("checkpoint", "BatchSimulation::run",
                          "is kept by the cell program engine only, not by BatchEngine::simulation");
  return run_simulations(experiment, observer);
}

std::vector<BatchCellResult> BatchSimulation::run_simulations(const Experiment& experiment, BatchObserver* observer) {
  const std::size_t n = num_cells();
  // Each cell keeps a summary per cycle: 1,000 cells x 1,000 cycles is about 0.2 GB.
  require_batch_memory(n, worker_threads(), options_, *exec_, experiment.cycles());
  std::vector<BatchCellResult> results(n);
  BatchRun run;
  run.observer = observer;
  const auto work = [&] {
    for (std::size_t i = run.next++; i < n && run.stop_reason().empty(); i = run.next++) {
      BatchCellResult r = run_cell(cell_parameters(i), options_, exec_, experiment, run, i);
      run.on_cell(i, r);
      if (!batch_.keep_curves) drop_curves(r);
      results[i] = std::move(r);
    }
  };
  const std::size_t threads = worker_threads();
  std::vector<std::thread> workers;
  try {
    for (std::size_t t = 1; t < threads; ++t) workers.emplace_back(work);
  } catch (const std::system_error&) {  // fewer threads than asked: the ones started share the cells
  }
  work();  // the calling thread is a worker too
  for (std::thread& w : workers) w.join();
  if (run.observer_error) std::rethrow_exception(run.observer_error);
  return results;
}

}  // namespace voltaic
