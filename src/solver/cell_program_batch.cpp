// BatchSimulation's cell-program engine: every cell runs cell_program.hpp's
// CellRun, two CUDA warps a cell (all cells of a wave in one kernel per call,
// the host looking once per call) or one CPU worker thread per cell at a
// time. The host builds each cell's constants from its own ParameterSet (a
// CPU CellLayout, which validates it), drains the cells' row buffers between
// calls and words how each cell ended as Simulation does.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <system_error>
#include <thread>

#include "core/backend_dispatch.hpp"
#include "solver/batch_cell_record.hpp"
#include "solver/batch_checkpoint.hpp"
#include "solver/batch_run.hpp"
#include "solver/cell_program.hpp"
#include "solver/cell_program_cpu.hpp"
#include "solver/cell_program_launch.hpp"
#include "solver/cell_program_setup.hpp"
#include "solver/cycle_summary.hpp"
#include "solver/failure_cause.hpp"
#include "solver/step_limits.hpp"
#include "voltaic/core/array.hpp"
#include "voltaic/solver/batch_simulation.hpp"
#include "voltaic/solver/lumped_thermal.hpp"
#include "voltaic/solver/memory_estimate.hpp"
#include "voltaic/solver/particle_step.hpp"
#include "voltaic/solver/simulation.hpp"

namespace voltaic {

namespace {

using program::CellConstants;
using program::CellInFlight;
using program::CellRecord;
using program::compile_experiment;
using program::constant_doubles;
using program::Curves;
using program::failure_text;
using program::ProgramClock;
using program::ProgramSettings;
using program::ProgramStep;

constexpr const char* kWhere = "BatchSimulation";
/// Rows a cell may add per call before the host drains its buffer: between
/// kMinRowsPerCall and kMaxRowsPerCall, as many as kRowBudgetBytes of row
/// buffers for the whole batch allow. A call lasts as long as its slowest
/// cell's rows, and the others wait, so a small batch (a GPU far from full,
/// each cell at its own point of the protocol) gains from fewer, longer
/// calls: 1,000 OKane2022 cells through 10 cycles took 37.6 s at 1,024 rows
/// against 41.9 s at 64 on an H200, the same bits (docs/performance.md,
/// "Seventeenth session"). A large batch keeps 64 (its memory is its cells),
/// and so does the CPU, whose cells do not wait for each other (each runs on
/// its own thread) and whose stop takes effect between calls.
constexpr int kMinRowsPerCall = 64, kMaxRowsPerCall = 1024;
constexpr std::size_t kRowBudgetBytes = std::size_t(64) << 20;

int rows_per_call(std::size_t cells, Backend backend, int asked) {
  if (asked > 0) return asked;
  if (backend == Backend::cpu) return kMinRowsPerCall;
  int rows = kMaxRowsPerCall;
  while (rows > kMinRowsPerCall &&
         cells * static_cast<std::size_t>(rows) * program::kRowValues * sizeof(double) > kRowBudgetBytes)
    rows /= 2;
  return rows;
}

}  // namespace

/// The state of one run of the cell program.
struct BatchSimulation::ProgramRun : BatchRun {
  ProgramSettings settings{};
  std::vector<ProgramStep> steps;
  std::vector<double> tables;  ///< the steps' drive cycles (ProgramStep::table)
  const Experiment* experiment = nullptr;
  std::vector<double> functions;  ///< the base set's custom function data
  std::vector<CellRecord> cells;
  std::vector<double> statics;  ///< constant_doubles() per cell, cell-major
  bool keep_curves = true;
  /// BatchObserver::checkpoint_period_s(); >= 0: the finished cells keep their curves for the checkpoints.
  double checkpoint_period = -1.0;
  std::string setup;  ///< program::batch_setup, where checkpoints are kept or resumed
  /// Per cell: the state a resumed cell starts from, and a stopped (or, for a periodic checkpoint, running) one's.
  std::vector<std::unique_ptr<CellInFlight>> resume_from, flight;

  bool checkpoints() const { return checkpoint_period >= 0.0; }
  /// Hands the observer the checkpoint of the cells as they are now.
  void checkpoint() { on_checkpoint(program::batch_checkpoint(setup, settings, cells, flight)); }
};

namespace {

/// Takes the rows of a cell's last call (up to `rows` rows of kRowValues in
/// `buffer`; all of one cycle, since the program pauses at cycle ends) into
/// its cycle's tally and, where `keep`, into its curves: those of a cycle
/// that keeps its rows (PyBaMM's save_at_cycles), else held until the cycle
/// ends and kept if the cell ends in it, as Simulation keeps them.
void drain(CellRecord& r, const double* buffer, int rows, bool keep, const ProgramSettings& s,
           const Experiment& experiment) {
  const int kept = std::min(rows, s.rows_per_call);
  r.rows += static_cast<std::size_t>(kept);
  const int cycle = static_cast<int>(r.step / s.cycle_size) + 1;
  std::vector<double>* result[program::kRowValues] = {&r.result.time, &r.result.voltage, &r.result.current,
                                                      &r.result.temperature};
  const bool saved = experiment.saving().saved(cycle, experiment.cycles());
  for (int i = 0; i < kept; ++i) {
    const double* row = buffer + static_cast<std::size_t>(i) * program::kRowValues;
    r.tally.add(row[0], row[2], row[1]);
    if (!keep) continue;
    for (int v = 0; v < program::kRowValues; ++v) (saved ? *result[v] : r.held.values[v]).push_back(row[v]);
  }
}

/// After a call of a cell whose clock is `k`: the summary of the cycle the
/// call ended, if it ended one (its state through `read`, summed by the
/// cell's totals, which `totals` builds at the first cycle's end), and the
/// experiment's termination checked on it. True when the cycling ends there.
bool close_cycle(CellRecord& r, const ProgramClock& k, const ProgramSettings& s, const Experiment& experiment,
                 const program::SlabRead& read, const std::function<std::unique_ptr<program::CellTotals>()>& totals) {
  const auto done = static_cast<int>(k.step / s.cycle_size);
  if (done <= static_cast<int>(r.result.cycles.size())) return false;
  try {
    if (!r.totals) r.totals = totals();
    r.result.cycles.push_back(program::summarise_cycle(r.tally, *r.totals, read, done));
  } catch (const Error& e) {  // as Simulation's run would throw it: the cell fails
    r.error = one_line(e.what_failed() + ": " + e.why());
    return true;
  } catch (const std::bad_alloc&) {
    r.error = "out of memory";
    return true;
  }
  r.tally = program::CycleTally{};
  if (experiment.termination().any() && done < experiment.cycles()) {
    r.cycling_end = program::cycling_ended(experiment.termination(), r.result.cycles);
    if (!r.cycling_end.empty()) return true;
  }
  r.held = Curves{};  // a cycle that keeps no rows
  return false;
}

/// A running cell between two calls: its record as the next call's drain
/// reads it (the step its rows belong to is the clock's), clock and state.
std::unique_ptr<CellInFlight> in_flight(const CellRecord& r, const ProgramClock& k, std::vector<double> state) {
  auto f = std::make_unique<CellInFlight>();
  f->record = program::resumable_copy(r);
  f->record.step = k.step;
  f->clock = k;
  f->state = std::move(state);
  return f;
}

/// The host's sums over the state of a cell of `p` (cycle_summary.hpp).
std::unique_ptr<program::CellTotals> totals_of(const ParameterSet& p, const SimulationOptions& options,
                                               const ProgramSettings& s, const CellConstants& c) {
  return std::make_unique<program::CellTotals>(std::make_unique<CellLayout>(p, options.grid, CpuExecutor::create()),
                                               options, s, c);
}

/// Words a finished (or interrupted) cell's result as Simulation would.
/// `c_e` and `c_surf`: the cell's state (for the physical cause of a failed
/// step), or empty.
void finish(CellRecord& r, const ProgramClock& k, const ProgramSettings& s, const Experiment& experiment,
            const ParameterSet& parameters, const SimulationOptions& options, const std::vector<double>& c_e,
            const std::vector<double>& c_surf, bool interrupted) {
  BatchCellResult& out = r.result;
  out.steps_taken = k.steps_taken;
  out.steps_rejected = k.steps_rejected;
  out.concentration_passes = k.passes;
  out.newton_iterations = k.newton_iterations;
  const auto step_of = [&](long long i) -> const ExperimentStep& {
    return experiment.cycle()[static_cast<std::size_t>(i % s.cycle_size)];
  };
  using program::Ending;
  if (!r.error.empty()) {  // its cycle's summary failed
    out.status = BatchCellResult::Status::failed;
    out.termination = r.error;
  } else if (k.ending == Ending::completed) {
    out.status = BatchCellResult::Status::completed;
    const long long last = s.total_steps - 1;
    out.termination = !r.cycling_end.empty()
                          ? r.cycling_end
                          : describe_step(step_of(last), std::size_t(last)) +
                                (k.ended_by_event ? " ended by a cut-off event" : " ended after its duration");
  } else if (k.ending == Ending::running) {
    out.status = interrupted ? BatchCellResult::Status::interrupted : BatchCellResult::Status::not_run;
  } else {
    out.status = BatchCellResult::Status::stopped;
    const ExperimentStep& step = step_of(k.step);
    std::ostringstream m;
    if (k.ending == Ending::infeasible_voltage) {
      const bool discharge = step_drive(step, parameters.electrical).at(0.0).value > 0.0;
      m << describe_step(step, std::size_t(k.step)) << " is infeasible: it " << (discharge ? "discharges" : "charges")
        << " until " << *step.until_voltage_of_cell() << " V, but the voltage at its start is already " << k.voltage
        << " V";
    } else if (k.ending == Ending::infeasible_cutoff) {  // Simulation::infeasibility's words
      const ElectricalParameters& e = parameters.electrical;
      m << describe_step(step, std::size_t(k.step))
        << " is infeasible: a cut-off is already reached at its start (voltage " << k.voltage << " V, current "
        << k.current << " A; the cell's voltage cut-offs " << e.lower_voltage_cutoff << " V and "
        << e.upper_voltage_cutoff << " V";
      if (step.until_current)
        m << ", the step's current limit " << step.until_current->amperes(e.nominal_capacity) << " A";
      m << ")";
    } else {
      const std::string reason = failure_text(k, s);
      std::string cause;
      if (!c_e.empty()) {
        try {
          cause = physical_limit(c_e, c_surf, CellLayout(parameters, options.grid, CpuExecutor::create()));
        } catch (const Error&) {
        }
      }
      m << describe_step(step, std::size_t(k.step)) << " failed at t = " << k.time
        << " s: " << (cause.empty() ? reason : cause + " (the solver: " + reason + ")");
    }
    out.termination = m.str();
  }
  std::vector<double>* curves[program::kRowValues] = {&out.time, &out.voltage, &out.current, &out.temperature};
  for (int v = 0; v < program::kRowValues; ++v) {  // the cycle it ended in keeps its rows
    curves[v]->insert(curves[v]->end(), r.held.values[v].begin(), r.held.values[v].end());
    std::vector<double>().swap(r.held.values[v]);
  }
  r.totals.reset();
  if (r.rows == 0) return;
  out.discharge_capacity_ah = k.capacity_ah;
  out.discharge_energy_wh = k.energy_wh;
  out.final_voltage = k.voltage;
  out.simulated_time = k.time;
  out.max_temperature = k.max_temperature;
}

}  // namespace

namespace {

/// Runs f(i) for i in [0, count) on `threads` threads (the caller one of them).
template <class F>
void parallel_for(std::size_t count, std::size_t threads, const F& f) {
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t i = next++; i < count; i = next++) f(i);
  };
  std::vector<std::thread> workers;
  try {
    for (std::size_t t = 1; t < std::min(threads, count); ++t) workers.emplace_back(work);
  } catch (const std::system_error&) {  // fewer threads: the ones started share the work
  }
  work();
  for (std::thread& w : workers) w.join();
}

#if VOLTAIC_HAS_CUDA
/// The cycle ends of a wave of cells on the device: after a call, the
/// states that CellTotals reads of the cells that ended a cycle are gathered
/// (a chunk of neighbouring cells at a time, each range one strided copy),
/// their cycles summarised on every core, and a cell whose experiment's
/// termination fired has its clock ended on the host and on the device.
class CycleEnds {
 public:
  CycleEnds(std::shared_ptr<const Executor> exec, const ProgramSettings& s, std::size_t wave)
      : exec_(std::move(exec)), s_(s), ranges_(program::totals_ranges(s)), chunk_(std::min(wave, kChunk)) {
    std::size_t doubles = 0;
    for (const auto& r : ranges_) doubles += r.second;
    buffer_ = Array<double>::pinned(exec_, chunk_ * doubles);
  }

  /// `ends`: the wave's cells (ascending) that ended a cycle in the last call,
  /// `records` the wave's records, `clocks` their clocks on the host (and
  /// `device` on the device); `totals(j)` builds cell j's sums.
  template <class Totals>
  void close(const std::vector<std::size_t>& ends, const std::vector<CellRecord*>& records, ProgramClock* clocks,
             const cuda::ProgramCells& device, const Experiment& experiment, std::size_t threads,
             const Totals& totals) {
    const CudaExecutor& cuda = detail::as_cuda(*exec_);
    for (std::size_t a = 0; a < ends.size();) {
      const std::size_t j0 = ends[a];
      std::size_t b = a;
      while (b < ends.size() && ends[b] < j0 + chunk_) ++b;
      const cuda::ProgramCells part{device.constants + j0, device.clocks + j0, device.slabs + j0 * s_.o.total,
                                    ends[b - 1] - j0 + 1};
      std::vector<const double*> base(ranges_.size());
      double* at = buffer_.data();
      for (std::size_t r = 0; r < ranges_.size(); ++r) {
        cuda::cell_program_gather(cuda, part, ranges_[r].first, ranges_[r].second, s_.o.total, at);
        base[r] = at;
        at += part.count * ranges_[r].second;
      }
      parallel_for(b - a, threads, [&](std::size_t e) {
        const std::size_t j = ends[a + e];
        const program::SlabRead read = [&](std::size_t offset, std::size_t size) {
          for (std::size_t r = 0; r < ranges_.size(); ++r) {
            if (ranges_[r].first != offset || ranges_[r].second != size) continue;
            const double* from = base[r] + (j - j0) * size;
            return std::vector<double>(from, from + size);
          }
          throw InvalidArgument("the cycle's summary", kWhere, "reads a range the batch did not gather");
        };
        if (close_cycle(*records[j], clocks[j], s_, experiment, read, [&] { return totals(j); }))
          clocks[j].ending = program::Ending::completed;
      });
      for (std::size_t e = a; e < b; ++e) {  // the ended cells stop on the device too
        const std::size_t j = ends[e];
        if (clocks[j].ending == program::Ending::completed)
          exec_->copy(device.clocks + j, exec_->memory_space(), &clocks[j], MemorySpace::host(), sizeof(ProgramClock));
      }
      a = b;
    }
  }

 private:
  static constexpr std::size_t kChunk = 4096;  ///< cells gathered at a time
  std::shared_ptr<const Executor> exec_;
  ProgramSettings s_;
  std::vector<std::pair<std::size_t, std::size_t>> ranges_;
  std::size_t chunk_;
  Array<double> buffer_;
};
#endif

}  // namespace

void BatchSimulation::report(ProgramRun& run, std::size_t index) {
  CellRecord& r = run.cells[index];
  if (r.reported) return;
  r.reported = true;
  run.on_cell(index, r.result);
  if (!run.keep_curves && !run.checkpoints()) drop_curves(r.result);
}

void BatchSimulation::run_program_on_cpu(ProgramRun& run, const std::vector<std::size_t>& cells) {
  const ProgramSettings& s = run.settings;
  const std::size_t statics = constant_doubles(s.o);
  const bool keep = run.keep_curves || run.observer;
  parallel_for(cells.size(), worker_threads(), [&](std::size_t j) {
    const std::size_t i = cells[j];
    CellRecord& r = run.cells[i];
    if (!run.stop_reason().empty()) {
      report(run, i);  // not run
      return;
    }
    std::vector<double> slab(s.o.total, 0.0);
    std::copy(run.statics.begin() + i * statics, run.statics.begin() + (i + 1) * statics, slab.begin());
    CellConstants c = r.constants;
    c.k.map.volume = slab.data() + s.o.volume;
    ProgramClock k;
    program::CellRun cell(s, c, k, slab.data());
    program::initialise_on_cpu(cell);
    if (const CellInFlight* from = run.resume_from[i].get()) {
      std::copy(from->state.begin(), from->state.end(), slab.begin() + static_cast<std::ptrdiff_t>(s.o.c_s));
      k = from->clock;
    }
    const auto state = [&](std::size_t at, std::size_t m) {
      return std::vector<double>(slab.begin() + static_cast<std::ptrdiff_t>(at),
                                 slab.begin() + static_cast<std::ptrdiff_t>(at + m));
    };
    bool interrupted = false;
    while (k.ending == program::Ending::running) {
      k.rows = 0;
      r.step = k.step;
      program::advance_on_cpu(cell);
      drain(r, slab.data() + s.o.rows, k.rows, keep, s, *run.experiment);
      const std::size_t summarised = r.result.cycles.size();
      if (close_cycle(r, k, s, *run.experiment, state,
                      [&] { return totals_of(cell_parameters(i), options_, s, r.constants); }))
        k.ending = program::Ending::completed;
      if (r.result.cycles.size() > summarised) run.on_cycle(i, r.result.cycles.back());
      if (k.ending == program::Ending::running && !run.stop_reason().empty()) {
        interrupted = true;
        if (run.checkpoints()) run.flight[i] = in_flight(r, k, state(s.o.c_s, program::flight_state_doubles(s.o)));
        break;
      }
    }
    finish(r, k, s, *run.experiment, cell_parameters(i), options_, state(s.o.c_e, static_cast<std::size_t>(s.n)),
           state(s.o.c_surf, static_cast<std::size_t>(s.P)), interrupted);
    report(run, i);
  });
}

void BatchSimulation::run_program_on_cuda([[maybe_unused]] ProgramRun& run,
                                          [[maybe_unused]] const std::vector<std::size_t>& cells) {
#if VOLTAIC_HAS_CUDA
  const CudaExecutor& cuda = detail::as_cuda(*exec_);
  const ProgramSettings& s = run.settings;
  const std::size_t statics = constant_doubles(s.o);
  const bool keep = run.keep_curves || run.observer;
  const double per_cell = double(s.o.total * sizeof(double) + sizeof(CellConstants) + sizeof(ProgramClock));
  const auto fit = static_cast<std::size_t>(0.8 * available_memory_bytes(*exec_) / per_cell);
  if (fit == 0) throw InsufficientMemory("cells", kWhere, "not one cell's arrays fit the device's free memory");
  const std::size_t wave = std::min(cells.size(), fit);
  Array<double> slabs(exec_, wave * s.o.total);
  Array<CellConstants> constants(exec_, wave);
  Array<ProgramClock> clocks(exec_, wave);
  Array<ProgramClock> host_clocks = Array<ProgramClock>::pinned(exec_, wave);
  Array<double> host_statics = Array<double>::pinned(exec_, wave * statics);
  const std::size_t row_doubles = static_cast<std::size_t>(s.rows_per_call) * program::kRowValues;
  Array<double> host_rows = Array<double>::pinned(exec_, wave * row_doubles);  // the cycles' tallies read every row
  std::vector<CellConstants> staged(wave);
  CycleEnds summaries(exec_, s, wave);
  std::vector<CellRecord*> records(wave);
  bool stopped = false;
  using Clock = std::chrono::steady_clock;
  const double every = std::min(std::max(run.checkpoint_period, 0.0), 1e9);  // [s]; 0: when stopped only
  const auto period = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(every));
  Clock::time_point next_checkpoint = Clock::now() + period;
  for (std::size_t first = 0; first < cells.size(); first += wave) {
    const std::size_t count = std::min(wave, cells.size() - first);
    if (stopped) {
      for (std::size_t j = 0; j < count; ++j) report(run, cells[first + j]);  // not run
      continue;
    }
    for (std::size_t j = 0; j < count; ++j) {
      const std::size_t i = cells[first + j];
      staged[j] = run.cells[i].constants;
      staged[j].k.map.volume = slabs.data() + j * s.o.total + s.o.volume;
    }
    exec_->copy(constants.data(), constants.space(), staged.data(), MemorySpace::host(), count * sizeof(CellConstants));
    const cuda::ProgramCells device{constants.data(), clocks.data(), slabs.data(), count};
    for (std::size_t j = 0; j < count; ++j) {
      const double* from = run.statics.data() + cells[first + j] * statics;
      std::copy(from, from + statics, host_statics.data() + j * statics);
    }
    cuda::cell_program_upload(cuda, host_statics.data(), statics, device, s.o.total);
    cuda::cell_program_initialise(cuda, s, device);
    for (std::size_t j = 0; j < count; ++j) {  // resumed cells go on from their state
      const CellInFlight* from = run.resume_from[cells[first + j]].get();
      if (!from) continue;
      exec_->copy(slabs.data() + j * s.o.total + s.o.c_s, slabs.space(), from->state.data(), MemorySpace::host(),
                  from->state.size() * sizeof(double));
      exec_->copy(clocks.data() + j, clocks.space(), &from->clock, MemorySpace::host(), sizeof(ProgramClock));
    }
    // The wave's running cells, between two calls, into run.flight.
    const auto take_flight = [&] {
      const std::size_t span = program::flight_state_doubles(s.o);
      std::vector<double> states(count * span);
      cuda::cell_program_gather(cuda, device, s.o.c_s, span, s.o.total, states.data());
      for (std::size_t j = 0; j < count; ++j) {
        const std::size_t i = cells[first + j];
        if (run.cells[i].reported || host_clocks.data()[j].ending != program::Ending::running) continue;
        const double* from = states.data() + j * span;
        run.flight[i] = in_flight(run.cells[i], host_clocks.data()[j], std::vector<double>(from, from + span));
      }
    };
    for (std::size_t running = count; running > 0 && !stopped;) {
      cuda::cell_program_advance(cuda, s, device);
      exec_->copy(host_clocks.data(), MemorySpace::host(), clocks.data(), clocks.space(), count * sizeof(ProgramClock));
      cuda::cell_program_gather(cuda, device, s.o.rows, row_doubles, s.o.total, host_rows.data());
      stopped = !run.stop_reason().empty();
      std::vector<std::size_t> cycle_ends;
      for (std::size_t j = 0; j < count; ++j) {
        CellRecord& r = run.cells[cells[first + j]];
        const ProgramClock& k = host_clocks.data()[j];
        if (r.reported) continue;
        drain(r, host_rows.data() + j * row_doubles, k.rows, keep, s, *run.experiment);
        if (k.step / s.cycle_size > static_cast<long long>(r.result.cycles.size())) cycle_ends.push_back(j);
      }
      if (!cycle_ends.empty()) {
        for (std::size_t j = 0; j < count; ++j) records[j] = &run.cells[cells[first + j]];
        std::vector<std::size_t> summarised(cycle_ends.size());
        for (std::size_t e = 0; e < cycle_ends.size(); ++e)
          summarised[e] = records[cycle_ends[e]]->result.cycles.size();
        summaries.close(cycle_ends, records, host_clocks.data(), device, *run.experiment, worker_threads(),
                        [&](std::size_t j) {
                          return totals_of(cell_parameters(cells[first + j]), options_, s, records[j]->constants);
                        });
        for (std::size_t e = 0; e < cycle_ends.size(); ++e) {
          const CellRecord& r = *records[cycle_ends[e]];
          if (r.result.cycles.size() > summarised[e])
            run.on_cycle(cells[first + cycle_ends[e]], r.result.cycles.back());
        }
      }
      if (stopped && run.checkpoints()) take_flight();  // before finish() words them interrupted
      running = 0;
      for (std::size_t j = 0; j < count; ++j) {
        const std::size_t i = cells[first + j];
        CellRecord& r = run.cells[i];
        const ProgramClock& k = host_clocks.data()[j];
        if (r.reported) continue;
        r.step = k.step;
        if (k.ending == program::Ending::running && !stopped) {
          ++running;
          continue;
        }
        std::vector<double> c_e, c_surf;
        if (k.ending == program::Ending::failed_step) {  // its state, for the physical cause
          c_e.resize(s.n);
          c_surf.resize(s.P);
          const double* slab = slabs.data() + j * s.o.total;
          exec_->copy(c_e.data(), MemorySpace::host(), slab + s.o.c_e, slabs.space(), c_e.size() * sizeof(double));
          exec_->copy(c_surf.data(), MemorySpace::host(), slab + s.o.c_surf, slabs.space(),
                      c_surf.size() * sizeof(double));
        }
        finish(r, k, s, *run.experiment, cell_parameters(i), options_, c_e, c_surf, stopped);
        report(run, i);
      }
      if (running > 0 && run.checkpoint_period > 0.0 && Clock::now() >= next_checkpoint) {
        take_flight();
        run.checkpoint();
        for (std::size_t j = 0; j < count; ++j) run.flight[cells[first + j]].reset();
        next_checkpoint = Clock::now() + period;
      }
    }
  }
#endif
}

std::size_t BatchSimulation::cell_program_bytes() const {
  const CellGridSpec& g = options_.grid;
  const auto n = static_cast<std::size_t>(g.negative_cells + g.separator_cells + g.positive_cells);
  const auto P = static_cast<std::size_t>(g.negative_cells + g.positive_cells);
  const DegradationOptions& d = options_.degradation;
  return program::slab_offsets(n, P, static_cast<std::size_t>(g.radial_shells),
                               rows_per_call(num_cells(), exec_->backend(), batch_.rows_per_call), d)
                 .total *
             sizeof(double) +
         sizeof(CellConstants) + sizeof(ProgramClock);
}

void BatchSimulation::check_checkpoint(const Experiment& experiment, const Checkpoint& c) const {
  const ProgramSettings s = program::settings_for(options_, kMinRowsPerCall);  // its state does not depend on the rows
  program::resume_batch(c, program::batch_setup(base_, cells_, options_, experiment), s, num_cells());
}

std::vector<BatchCellResult> BatchSimulation::run_cell_program(const Experiment& experiment, BatchObserver* observer,
                                                               const Checkpoint* resume) {
  ProgramRun run;
  run.experiment = &experiment;
  run.steps = compile_experiment(experiment, run.tables);
  run.observer = observer;
  run.keep_curves = batch_.keep_curves;
  const CellGridSpec& g = options_.grid;
  ProgramSettings& s = run.settings;
  s = program::settings_for(options_, rows_per_call(num_cells(), exec_->backend(), batch_.rows_per_call));
  s.pause_at_cycle_ends = true;  // each cycle summarised as it ends (cycle_summary.hpp)
  s.cycle_size = static_cast<int>(run.steps.size());
  s.total_steps = static_cast<long long>(experiment.total_steps());
  // The unit-sphere shell mesh, the steps and the custom functions, in the executor's memory.
  ParticleOptions po;
  po.surface = options_.surface;
  const ParticleDiffusion<double> shells(exec_, g.radial_shells, Array<double>::from_host(exec_, {1.0}).view(), po);
  s.mesh = shells.mesh();
  const Array<ProgramStep> steps = Array<ProgramStep>::from_host(exec_, run.steps);
  s.steps = steps.data();
  const Array<double> tables = Array<double>::from_host(exec_, run.tables);
  s.tables = tables.data();
  run.functions = base_.custom_function_data();
  const Array<double> functions = Array<double>::from_host(exec_, run.functions);

  // Each cell's constants from its own parameters (which they validate), on every core.
  const std::size_t count = num_cells(), statics = constant_doubles(s.o);
  require_batch_memory(count, 0, options_, *CpuExecutor::create(), experiment.cycles());  // the results, on the host
  run.checkpoint_period = observer ? observer->checkpoint_period_s() : -1.0;
  run.flight.resize(count);
  program::ResumedBatch resumed;
  if (resume || run.checkpoints()) run.setup = program::batch_setup(base_, cells_, options_, experiment);
  if (resume) resumed = program::resume_batch(*resume, run.setup, s, count);  // refused before any work
  run.resume_from.resize(count);
  run.cells.resize(count);
  run.statics.resize(count * statics);
  parallel_for(count, worker_threads(), [&](std::size_t i) {
    CellRecord& r = run.cells[i];
    try {
      const CellLayout layout(cell_parameters(i), options_.grid, CpuExecutor::create());
      r.constants = program::cell_constants(layout, options_, s.o, run.functions, functions.data(),
                                            run.statics.data() + i * statics, kWhere);
    } catch (const Error& e) {
      r.error = one_line(e.what_failed() + ": " + e.why());
    } catch (const std::bad_alloc&) {
      r.error = "out of memory";
    }
  });
  std::vector<std::size_t> good;
  for (std::size_t i = 0; i < count; ++i) {
    CellRecord& r = run.cells[i];
    if (r.error.empty() && resume) {  // a finished cell as it was; a running one from its state
      const bool finished = resumed.records[i].reported;
      const CellConstants constants = r.constants;
      r = std::move(resumed.records[i]);
      r.constants = constants;
      r.reported = false;
      run.resume_from[i] = std::move(resumed.flight[i]);
      if (finished) {
        report(run, i);
        continue;
      }
    }
    if (r.error.empty()) {
      good.push_back(i);
      continue;
    }
    r.result.status = BatchCellResult::Status::failed;
    r.result.termination = r.error;
    report(run, i);
  }
  if (exec_->backend() == Backend::cpu)
    run_program_on_cpu(run, good);
  else
    run_program_on_cuda(run, good);
  if (run.observer_error) std::rethrow_exception(run.observer_error);
  if (run.checkpoints() && run.stopping) {
    run.checkpoint();  // every cell finished, stopped on the way or not started
    if (run.observer_error) std::rethrow_exception(run.observer_error);
  }
  std::vector<BatchCellResult> results(count);
  for (std::size_t i = 0; i < count; ++i) results[i] = std::move(run.cells[i].result);
  return results;
}

}  // namespace voltaic
