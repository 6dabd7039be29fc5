// RunRecorder's checkpoints (a Simulation's): the state arrays, the scalars of the integrator and
// the step cursor, the Solution's rows, and a fingerprint of everything that
// shapes the trajectory, so that a restart either continues bit for bit or
// is refused with the first difference.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "solver/checkpoint_cycles.hpp"
#include "solver/checkpoint_values.hpp"
#include "solver/run_recorder.hpp"
#include "solver/setup_fingerprint.hpp"
#include "solver/simulation_run.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/solver/cell_layout.hpp"
#include "voltaic/solver/solver_options.hpp"

namespace voltaic {

namespace {

constexpr const char* kFormat = "voltaic simulation state 4";
// Read too: state 3 keeps two past levels of phi and aj, not three
// (complete_predictor_levels), and no Newton constant (measured afresh);
// state 2 also lacks "split rate dt" (the passes then measure a rate
// afresh), the current's history (the current at every level: a hold's
// error estimate then starts again) and the notes.
constexpr const char* kFormat3 = "voltaic simulation state 3";
constexpr const char* kFormat2 = "voltaic simulation state 2";

bool known_format(const std::string& f) { return f == kFormat || f == kFormat3 || f == kFormat2; }

/// A checkpoint of state 2 or 3 holds phi and aj at two past levels; the
/// third, before them, is put on the line through the two newest values, so
/// that the first step's quadratic predictor is the linear extrapolation
/// those states' runs made.
void complete_predictor_levels(const Checkpoint& c, std::map<std::string, std::vector<double>>& state) {
  namespace v = checkpoint_values;
  const double h1 = v::scalar(c, "step h1", 0.0, v::kInf, "[s]"), h2 = v::scalar(c, "step h2", 0.0, v::kInf, "[s]");
  const double back = h1 > 0.0 ? h2 / h1 : 0.0;
  for (const char* name : {"phi", "aj"}) {
    const std::string key = std::string(name) + "@2";
    const auto live = state.find(name), last = state.find(std::string(name) + "@1");
    if (state.count(key) || live == state.end() || last == state.end() || live->second.size() != last->second.size())
      continue;  // complete, or named by the loader
    std::vector<double>& before = state[key];
    before.resize(last->second.size());
    for (std::size_t i = 0; i < before.size(); ++i)
      before[i] = last->second[i] + back * (last->second[i] - live->second[i]);
  }
}

}  // namespace

std::string RunRecorder::setup_fingerprint() const {
  return voltaic::setup_fingerprint(layout_.parameters(), options_);
}

Checkpoint RunRecorder::make_checkpoint(const detail::RunContext& run) const {
  const stepping::Clock& k = clock_;
  Checkpoint c;
  c.texts["format"] = kFormat;
  c.texts["setup"] = setup_fingerprint();
  c.texts["experiment"] = run.experiment;
  c.texts["termination"] = run.solution.termination;
  std::string notes;
  for (const std::string& n : run.solution.notes) notes += n + "\n";
  c.texts["notes"] = notes;
  // A cut plane's state is gathered whole (on every rank): the checkpoint is
  // the serial run's, and restarts on any number of ranks. An observer that
  // takes blocks gets this rank's owned cells and their window instead.
  const auto& cut = layout_.decomposition();
  const bool piece = cut && run.blocks;
  const std::size_t layer = layout_.grid()->cells_per_layer();
  const std::size_t owned = piece ? cut->blocks()[static_cast<std::size_t>(cut->rank())].columns() : 0;
  for (auto& [name, values] : state_.arrays()) {
    std::vector<double>& out = c.arrays["state/" + name];
    if (!cut) {
      out = std::move(values);
      continue;
    }
    // Through the executor's memory, where the decomposition's arrays live.
    const auto& exec = layout_.executor();
    const int layers = static_cast<int>(values.size() / layer);
    const Array<double> block = Array<double>::from_host(exec, values);
    Array<double> result(exec, piece ? owned * static_cast<std::size_t>(layers) : layout_.plane_count(values.size()));
    if (piece)
      cut->owned(block.data(), layers, result.data());
    else
      cut->gather(block.data(), layers, result.data());
    out = result.to_host();
  }
  for (const std::string& name : Solution::variable_names()) c.arrays["solution/" + name] = run.solution[name];
  c.scalars = {{"time", k.time},
               {"discharge capacity", k.capacity_ah},
               {"discharge energy", k.energy_wh},
               {"voltage", k.voltage},
               {"current", k.current},
               {"heat", k.heat_w},
               {"lumped temperature", k.lumped_t},
               {"step elapsed", k.elapsed},
               {"step dt", k.dt},
               {"step h1", k.h1},
               {"step h2", k.h2},
               {"split rate", k.split_rate},
               {"split rate dt", k.split_rate_dt},
               {"newton constant", state_.newton_constant()}};
  for (int i = 0; i < 3; ++i) {
    c.scalars["lumped temperature@" + std::to_string(i)] = k.lumped_history[i];
    c.scalars["voltage@" + std::to_string(i)] = k.voltage_history[i];
    c.scalars["current@" + std::to_string(i)] = k.current_history[i];
  }
  c.integers = {{"step index", static_cast<std::int64_t>(index_)},
                {"next field", static_cast<std::int64_t>(next_field_)},
                {"next periodic field", static_cast<std::int64_t>(next_periodic_field_)},
                {"step history", k.history},
                {"step until below", k.until_below ? 1 : 0},
                {"step free steps", k.free_steps},
                {"steps taken", run.solution.steps_taken},
                {"steps rejected", run.solution.steps_rejected}};
  if (piece) set_window(c, {options_.grid.nx, options_.grid.ny, cut->blocks()[static_cast<std::size_t>(cut->rank())]});
  if (cycles_) save_cycles(run.solution.cycles, run.cycle_tally, run.held, c);
  return c;
}

std::vector<double> RunRecorder::block_of(const std::vector<double>& whole) const {
  const auto& cut = layout_.decomposition();
  const std::size_t layer = layout_.grid()->cells_per_layer(), plane = layout_.plane_count(layer);
  if (!cut || whole.size() % plane != 0) return whole;  // a mis-sized array is named by the loader
  const std::size_t layers = whole.size() / plane;
  std::vector<double> block(layers * layer);
  cut->slice_host(whole.data(), static_cast<int>(layers), block.data());
  return block;
}

void RunRecorder::load_checkpoint(const Checkpoint& c) {
  namespace v = checkpoint_values;
  const char* where = "Simulation::load_checkpoint";
  if (!known_format(v::text(c, "format")))
    throw InvalidArgument("checkpoint", where, "has format '" + v::text(c, "format") + "', expected '" + kFormat + "'");
  const std::string here = setup_fingerprint(), difference = first_difference(v::text(c, "setup"), here);
  if (!difference.empty())
    throw InvalidArgument("checkpoint", where, "was written with another cell, grid or options: " + difference);
  v::text(c, "experiment");
  v::text(c, "termination");
  v::solution_rows(c, Solution::variable_names());
  // The whole plane's state (this rank's block sliced from it), or exactly
  // this rank's window of it.
  const std::optional<CheckpointWindow> window = window_of(c);
  const CheckpointWindow mine = state_window();
  if (window && *window != mine)
    throw InvalidArgument("checkpoint", where,
                          "holds the state of " + window->describe() + "; this " +
                              (layout_.decomposition() ? "rank" : "run") + " needs " + mine.describe() +
                              " (io::read_checkpoint_for assembles a checkpoint written per rank for any window)");
  std::map<std::string, std::vector<double>> state;
  for (const auto& [name, values] : c.arrays)
    if (name.rfind("state/", 0) == 0) state[name.substr(6)] = window ? values : block_of(values);
  for (const char* live : {"c_s", "c_e", "T", "c_surf", "phi", "aj"}) v::finite_array(c, std::string("state/") + live);
  if (v::text(c, "format") != kFormat) complete_predictor_levels(c, state);
  state_.load_arrays(state, where);
  load_scalars(c);
  v::integer(c, "steps taken", 0, std::numeric_limits<int>::max());
  v::integer(c, "steps rejected", 0, std::numeric_limits<int>::max());
  stepping::Clock& cursor = clock_;
  cursor.history = static_cast<int>(v::integer(c, "step history", 0, 3));
  cursor.until_below = v::integer(c, "step until below", 0, 1) != 0;
  // Written since the progress guard (stepping::stalled); before it, a step's count starts afresh.
  cursor.free_steps = c.integers.count("step free steps") != 0
                          ? static_cast<int>(v::integer(c, "step free steps", 0, std::numeric_limits<int>::max()))
                          : 0;
  index_ = static_cast<std::size_t>(v::integer(c, "step index", 0, std::numeric_limits<std::int32_t>::max()));
  resume_field_schedule();
  pending_ = std::make_unique<Checkpoint>(c);
}

void RunRecorder::check_resume(const Experiment& experiment) const {
  const char* where = "Simulation::run";
  const std::string there = pending_->texts.at("experiment"), here = experiment.fingerprint();
  if (there != here)
    throw InvalidArgument("checkpoint", where,
                          "was written by a run of another experiment: " + first_difference(there, here));
  if (index_ >= experiment.total_steps())
    throw InvalidArgument("checkpoint", where,
                          "'step index' is " + std::to_string(index_) + "; allowed: below the experiment's " +
                              std::to_string(experiment.total_steps()) + " steps");
}

void RunRecorder::load_scalars(const Checkpoint& c) {
  namespace v = checkpoint_values;
  stepping::Clock& k = clock_;
  k.time = v::scalar(c, "time", 0.0, v::kInf, "[s]");
  k.capacity_ah = v::scalar(c, "discharge capacity");
  k.energy_wh = v::scalar(c, "discharge energy");
  k.voltage = v::scalar(c, "voltage");
  k.current = v::scalar(c, "current");
  k.heat_w = v::scalar(c, "heat");
  k.lumped_t = v::scalar(c, "lumped temperature", v::kPositive, v::kInf, "[K]");
  k.elapsed = v::scalar(c, "step elapsed", 0.0, k.time, "[s] (at most 'time')");
  k.dt = v::scalar(c, "step dt", v::kPositive, v::kInf, "[s]");
  k.h1 = v::scalar(c, "step h1", 0.0, v::kInf, "[s]");
  k.h2 = v::scalar(c, "step h2", 0.0, v::kInf, "[s]");
  k.split_rate = v::scalar(c, "split rate", 0.0, 1.0);
  const bool format3 = v::text(c, "format") != kFormat2;  // state 3 or later
  k.split_rate_dt = format3 ? v::scalar(c, "split rate dt", 0.0, v::kInf, "[s]") : 0.0;
  // State 4 on: Newton's measured quadratic constant (before it: measured afresh).
  const double newton_constant =
      v::text(c, "format") == kFormat ? v::scalar(c, "newton constant", 0.0, v::kInf, "[1/V]") : 0.0;
  state_.set_newton_constant(newton_constant);
  for (int i = 0; i < 3; ++i) {
    k.lumped_history[i] = v::scalar(c, "lumped temperature@" + std::to_string(i), v::kPositive, v::kInf, "[K]");
    k.voltage_history[i] = v::scalar(c, "voltage@" + std::to_string(i));
    k.current_history[i] = format3 ? v::scalar(c, "current@" + std::to_string(i)) : k.current;
  }
}

// The field schedule follows this run's options, not the checkpoint's: a
// restart may store fields at other times. Outputs due up to the clock's time were
// written before the checkpoint was taken (report_row), as emit_due_fields
// would have moved past them.
void RunRecorder::resume_field_schedule() {
  const auto& times = options_.field_times;
  const double now = clock_.time;
  next_field_ = 0;
  while (next_field_ < times.size() && times[next_field_] <= now + 1e-9) ++next_field_;
  next_periodic_field_ = 0;
  if (options_.field_period > 0.0) {
    const double k = std::floor((now + 1e-9) / options_.field_period);
    next_periodic_field_ = k > 1.0 ? static_cast<std::size_t>(k) - 1 : 0;
    while (options_.field_period * double(next_periodic_field_) <= now + 1e-9) ++next_periodic_field_;
  }
}

}  // namespace voltaic
