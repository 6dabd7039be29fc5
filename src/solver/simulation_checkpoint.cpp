// Simulation checkpoints: the state arrays, the scalars of the integrator and
// the step cursor, the Solution's rows, and a fingerprint of everything that
// shapes the trajectory, so that a restart either continues bit for bit or
// is refused with the first difference.
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>

#include "solver/checkpoint_values.hpp"
#include "solver/simulation_run.hpp"
#include "solver/state_history.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/model/parameter_table.hpp"
#include "voltaic/solver/simulation.hpp"

namespace voltaic {

namespace {

constexpr const char* kFormat = "voltaic simulation state 2";

std::string g17(double v) { return format_parameter_value(v); }

/// The first line where a and b differ.
std::string first_difference(const std::string& a, const std::string& b) {
  std::istringstream sa(a), sb(b);
  std::string la, lb;
  while (true) {
    const bool ga = static_cast<bool>(std::getline(sa, la)), gb = static_cast<bool>(std::getline(sb, lb));
    if (!ga && !gb) return "";
    if (!ga || !gb || la != lb)
      return "'" + (ga ? la : "(nothing)") + "' in the checkpoint, '" + (gb ? lb : "(nothing)") + "' here";
  }
}

}  // namespace

std::string Simulation::setup_fingerprint() const {
  std::ostringstream f;
  const CellGridSpec& g = options_.grid;
  f << "grid " << g.negative_cells << " " << g.separator_cells << " " << g.positive_cells << " " << g.radial_shells
    << " " << g.nx << " " << g.ny << "\n";
  f << "thermal " << static_cast<int>(options_.thermal) << "\n";
  const StepControl& s = options_.steps;
  f << "steps " << g17(s.initial_dt) << " " << g17(s.min_dt) << " " << g17(s.max_dt) << " " << g17(s.relative_tolerance)
    << " " << g17(s.absolute_tolerance) << " " << g17(s.max_growth) << " " << s.max_retries << " "
    << g17(s.event_tolerance) << " " << s.max_split_iterations << "\n";
  f << "surface " << static_cast<int>(options_.surface) << "\n";
  const PotentialOptions& p = options_.potential;
  f << "potential " << g17(p.tolerance) << " " << p.max_iterations << " " << g17(p.max_update) << " "
    << static_cast<int>(p.electrolyte_face_mean) << " " << g17(p.linear.relative_tolerance) << " "
    << p.linear.max_iterations << " " << p.linear.restart << "\n";
  f << "diffusion " << g17(options_.diffusion.relative_tolerance) << " " << options_.diffusion.max_iterations << "\n";
  const ParameterSet& ps = layout_->parameters();
  for (const ParameterInfo& info : parameter_table()) f << info.name << " = " << g17(info.get(ps)) << "\n";
  for (const FunctionInfo& info : function_table()) f << info.name << " = " << info.selected(ps) << "\n";
  return f.str();
}

Checkpoint Simulation::make_checkpoint(const RunContext& run) const {
  Checkpoint c;
  c.texts["format"] = kFormat;
  c.texts["setup"] = setup_fingerprint();
  c.texts["experiment"] = run.experiment;
  c.texts["termination"] = run.solution.termination;
  for (auto& [name, values] : w_->history->to_host()) c.arrays["state/" + name] = std::move(values);
  for (const std::string& name : Solution::variable_names()) c.arrays["solution/" + name] = run.solution[name];
  c.scalars = {{"time", time_},
               {"discharge capacity", capacity_ah_},
               {"discharge energy", energy_wh_},
               {"voltage", voltage_},
               {"current", current_},
               {"heat", heat_w_},
               {"lumped temperature", lumped_t_},
               {"step elapsed", cursor_.elapsed},
               {"step dt", cursor_.dt},
               {"step h1", cursor_.h1},
               {"step h2", cursor_.h2},
               {"split rate", split_rate_}};
  for (int i = 0; i < 3; ++i) {
    c.scalars["lumped temperature@" + std::to_string(i)] = lumped_history_[i];
    c.scalars["voltage@" + std::to_string(i)] = voltage_history_[i];
  }
  c.integers = {{"step index", static_cast<std::int64_t>(cursor_.index)},
                {"next field", static_cast<std::int64_t>(next_field_)},
                {"next periodic field", static_cast<std::int64_t>(next_periodic_field_)},
                {"step history", cursor_.history},
                {"step until below", cursor_.until_below ? 1 : 0},
                {"steps taken", run.solution.steps_taken},
                {"steps rejected", run.solution.steps_rejected}};
  return c;
}

void Simulation::load_checkpoint(const Checkpoint& c) {
  namespace v = checkpoint_values;
  const char* where = "Simulation::load_checkpoint";
  if (v::text(c, "format") != kFormat)
    throw InvalidArgument("checkpoint", where, "has format '" + v::text(c, "format") + "', expected '" + kFormat + "'");
  const std::string here = setup_fingerprint(), difference = first_difference(v::text(c, "setup"), here);
  if (!difference.empty())
    throw InvalidArgument("checkpoint", where, "was written with another cell, grid or options: " + difference);
  v::text(c, "experiment");
  v::text(c, "termination");
  v::solution_rows(c, Solution::variable_names());
  std::map<std::string, std::vector<double>> state;
  for (const auto& [name, values] : c.arrays)
    if (name.rfind("state/", 0) == 0) state[name.substr(6)] = values;
  for (const char* live : {"c_s", "c_e", "T", "c_surf", "phi", "aj"}) v::finite_array(c, std::string("state/") + live);
  w_->history->from_host(state, where);
  load_scalars(c);
  v::integer(c, "steps taken", 0, std::numeric_limits<int>::max());
  v::integer(c, "steps rejected", 0, std::numeric_limits<int>::max());
  cursor_.history = static_cast<int>(v::integer(c, "step history", 0, 3));
  cursor_.until_below = v::integer(c, "step until below", 0, 1) != 0;
  cursor_.index = static_cast<std::size_t>(v::integer(c, "step index", 0, std::numeric_limits<std::int32_t>::max()));
  resume_field_schedule();
  resume_ = std::make_unique<Checkpoint>(c);
}

void Simulation::load_checkpoint(const Checkpoint& c, const Experiment& experiment) {
  load_checkpoint(c);
  check_resume(experiment);
}

void Simulation::check_resume(const Experiment& experiment) const {
  const char* where = "Simulation::run";
  if (resume_->texts.at("experiment") != experiment_fingerprint(experiment))
    throw InvalidArgument("checkpoint", where,
                          "was written by a run of another experiment: " + resume_->texts.at("experiment"));
  if (cursor_.index >= experiment.total_steps())
    throw InvalidArgument("checkpoint", where,
                          "'step index' is " + std::to_string(cursor_.index) + "; allowed: below the experiment's " +
                              std::to_string(experiment.total_steps()) + " steps");
}

void Simulation::load_scalars(const Checkpoint& c) {
  namespace v = checkpoint_values;
  time_ = v::scalar(c, "time", 0.0, v::kInf, "[s]");
  capacity_ah_ = v::scalar(c, "discharge capacity");
  energy_wh_ = v::scalar(c, "discharge energy");
  voltage_ = v::scalar(c, "voltage");
  current_ = v::scalar(c, "current");
  heat_w_ = v::scalar(c, "heat");
  lumped_t_ = v::scalar(c, "lumped temperature", v::kPositive, v::kInf, "[K]");
  cursor_.elapsed = v::scalar(c, "step elapsed", 0.0, time_, "[s] (at most 'time')");
  cursor_.dt = v::scalar(c, "step dt", v::kPositive, v::kInf, "[s]");
  cursor_.h1 = v::scalar(c, "step h1", 0.0, v::kInf, "[s]");
  cursor_.h2 = v::scalar(c, "step h2", 0.0, v::kInf, "[s]");
  split_rate_ = v::scalar(c, "split rate", 0.0, 1.0);
  for (int i = 0; i < 3; ++i) {
    lumped_history_[i] = v::scalar(c, "lumped temperature@" + std::to_string(i), v::kPositive, v::kInf, "[K]");
    voltage_history_[i] = v::scalar(c, "voltage@" + std::to_string(i));
  }
}

// The field schedule follows this run's options, not the checkpoint's: a
// restart may store fields at other times. Outputs due up to time_ were
// written before the checkpoint was taken (report_row), as emit_due_fields
// would have moved past them.
void Simulation::resume_field_schedule() {
  const auto& times = options_.field_times;
  next_field_ = 0;
  while (next_field_ < times.size() && times[next_field_] <= time_ + 1e-9) ++next_field_;
  next_periodic_field_ = 0;
  if (options_.field_period > 0.0) {
    const double k = std::floor((time_ + 1e-9) / options_.field_period);
    next_periodic_field_ = k > 1.0 ? static_cast<std::size_t>(k) - 1 : 0;
    while (options_.field_period * double(next_periodic_field_) <= time_ + 1e-9) ++next_periodic_field_;
  }
}

void Simulation::resume_solution(const Checkpoint& c, Solution& s) {
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
}

}  // namespace voltaic
