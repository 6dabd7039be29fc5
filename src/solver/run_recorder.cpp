// RunRecorder's rows, fields and observer (run_recorder.hpp).
#include "solver/run_recorder.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "solver/checkpoint_cycles.hpp"
#include "solver/field_output.hpp"
#include "solver/simulation_run.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/solver/cell_layout.hpp"
#include "voltaic/solver/run_observer.hpp"
#include "voltaic/solver/solution.hpp"

namespace voltaic {

namespace {

/// The rows, counters, termination and notes a checkpoint carries, into `s`.
void resume_solution(const Checkpoint& c, Solution& s) {
  const auto& names = Solution::variable_names();
  std::vector<const std::vector<double>*> columns;
  for (const std::string& name : names) columns.push_back(&c.arrays.at("solution/" + name));
  std::vector<double> row(names.size());
  for (std::size_t r = 0; r < columns.front()->size(); ++r) {
    for (std::size_t k = 0; k < names.size(); ++k) row[k] = (*columns[k])[r];
    s.append(row);
  }
  s.steps_taken = static_cast<int>(c.integers.at("steps taken"));
  s.steps_rejected = static_cast<int>(c.integers.at("steps rejected"));
  s.termination = c.texts.at("termination");
  s.notes.clear();
  if (const auto notes = c.texts.find("notes"); notes != c.texts.end()) {  // state 2 has none
    std::size_t from = 0;
    for (std::size_t end; (end = notes->second.find('\n', from)) != std::string::npos; from = end + 1)
      s.notes.push_back(notes->second.substr(from, end - from));
  }
}

}  // namespace

std::size_t frame_count(const CellLayout& layout, bool blocks, std::size_t local) {
  if (!blocks) return layout.plane_count(local);
  const PlaneDecomposition& cut = *layout.decomposition();
  return local / layout.grid()->cells_per_layer() * cut.blocks()[static_cast<std::size_t>(cut.rank())].columns();
}

RunRecorder::RunRecorder(const CellLayout& layout, const SimulationOptions& options, stepping::Clock& clock,
                         std::size_t& step_index, RecordedState& state, bool cycles)
    : layout_(layout), options_(options), clock_(clock), index_(step_index), state_(state), cycles_(cycles) {}

RunRecorder::~RunRecorder() = default;

void RunRecorder::begin(detail::RunContext& run, RunObserver* observer, const Experiment& experiment) const {
  run.observer = observer;
  run.experiment = experiment.fingerprint();
  if (observer) {
    for (const std::string& key : observer->streamed_fields()) {
      const FieldInfo* f = find_field(key);
      if (!f) throw InvalidArgument("field \"" + key + "\"", "Simulation::run", "is not in field_catalog()");
      run.streamed.push_back(f);
    }
  }
  run.blocks = observer && layout_.decomposition() && observer->takes_blocks();
  if (run.streamed.empty()) return;
  // Per cell (a particle field on the cells), or per in-plane column.
  std::vector<std::size_t> sizes;
  for (const FieldInfo* f : run.streamed)  // the whole plane's, or the owned block's
    sizes.push_back(frame_count(
        layout_, run.blocks, f->kind == FieldKind::column ? layout_.grid()->cells_per_layer() : layout_.num_cells()));
  run.fields = std::make_unique<FieldOutput>(
      layout_.executor(), sizes,
      [observer](double t, const std::vector<const double*>& data) { observer->on_fields(t, data); });
}

std::size_t RunRecorder::resume(detail::RunContext& run, const Experiment& experiment) {
  if (!pending_) return 0;
  check_resume(experiment);
  const std::unique_ptr<Checkpoint> c = std::move(pending_);
  Solution& s = run.solution;
  resume_solution(*c, s);
  CheckpointCycles cycling = resume_cycles(*c, "Simulation::run");
  s.cycles = std::move(cycling.cycles);
  run.cycle_tally = cycling.tally;
  run.held = std::move(cycling.held);
  run.cycling_resumed = cycling.kept;
  run.resuming = true;
  return index_;
}

void RunRecorder::record(Solution& s, int step_index) const {
  const stepping::Clock& k = clock_;
  double mean = 0.0, lo = 0.0, hi = 0.0;
  state_.temperatures(k.lumped_t, mean, lo, hi);
  s.append({k.time, k.voltage, k.current, k.capacity_ah, k.energy_wh, mean, lo, hi, k.heat_w, double(step_index)});
}

double RunRecorder::next_field_time() const {
  double t = std::numeric_limits<double>::infinity();
  if (next_field_ < options_.field_times.size()) t = options_.field_times[next_field_];
  if (options_.field_period > 0.0) t = std::min(t, options_.field_period * double(next_periodic_field_));
  return t;
}

void RunRecorder::emit_due_fields(detail::RunContext& run) {
  const double now = clock_.time;
  if (now < next_field_time() - 1e-9) return;
  if (run.fields) {
    state_.fill(run.streamed, run.fields->next_frame(), run.blocks);
    run.fields->push(now);
  } else {
    FieldSnapshot f;
    f.time = now;
    f.fields = state_.fields();
    run.solution.fields.push_back(std::move(f));
  }
  const auto& times = options_.field_times;
  while (next_field_ < times.size() && times[next_field_] <= now + 1e-9) ++next_field_;
  while (options_.field_period > 0.0 && options_.field_period * double(next_periodic_field_) <= now + 1e-9)
    ++next_periodic_field_;
}

void RunRecorder::report_row(detail::RunContext& run, bool may_checkpoint) {
  emit_due_fields(run);
  if (!run.observer) return;
  run.observer->on_row(run.solution);
  if (!may_checkpoint) return;
  std::string stop = run.observer->stop_reason();
  if (!stop.empty() || run.observer->checkpoint_due(clock_.time)) run.observer->on_checkpoint(make_checkpoint(run));
  if (stop.empty()) return;
  run.solution.completed = false;  // after the checkpoint, which restarts as any other does
  run.solution.termination = std::move(stop);
  run.stopped = true;
}

CheckpointWindow RunRecorder::state_window() const {
  const CellGridSpec& g = options_.grid;
  const auto& cut = layout_.decomposition();
  if (!cut) return {g.nx, g.ny, PlaneBlock{0, g.nx, 0, g.ny}};
  return {g.nx, g.ny,
          PlaneBlock{cut->first_i(), cut->first_i() + cut->ghosted_nx(), cut->first_j(),
                     cut->first_j() + cut->ghosted_ny()}};
}

}  // namespace voltaic
