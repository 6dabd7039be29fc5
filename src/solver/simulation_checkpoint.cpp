// Simulation checkpoints: the state arrays, the scalars of the integrator and
// the step cursor, the Solution's rows, and a fingerprint of everything that
// shapes the trajectory, so that a restart either continues bit for bit or
// is refused with the first difference.
#include <sstream>

#include "solver/simulation_run.hpp"
#include "solver/state_history.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/model/parameter_table.hpp"
#include "voltaic/solver/simulation.hpp"
#include "voltaic/solver/solver_options.hpp"

namespace voltaic {

namespace {

constexpr const char* kFormat = "voltaic simulation state 2";

std::string g17(double v) { return format_parameter_value(v); }

const std::string& text_of(const Checkpoint& c, const std::string& key) {
  const auto it = c.texts.find(key);
  if (it == c.texts.end()) throw InvalidArgument("checkpoint", "Simulation::load_checkpoint", "has no '" + key + "'");
  return it->second;
}

template <class Map>
const typename Map::mapped_type& entry(const Map& m, const std::string& key) {
  const auto it = m.find(key);
  if (it == m.end()) throw InvalidArgument("checkpoint", "Simulation::load_checkpoint", "has no '" + key + "'");
  return it->second;
}

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

/// " v1 v2 ...": the table's options of one struct, in the table's order (a
/// new option lengthens its line, so older checkpoints are refused).
std::string option_values(const SimulationOptions& o, SolverOption::Group group) {
  std::string s;
  for (const SolverOption& opt : solver_option_table())
    if (opt.group == group) s += " " + opt.value_text(o);
  return s;
}

}  // namespace

std::string Simulation::setup_fingerprint() const {
  std::ostringstream f;
  const CellGridSpec& g = options_.grid;
  f << "grid " << g.negative_cells << " " << g.separator_cells << " " << g.positive_cells << " " << g.radial_shells
    << " " << g.nx << " " << g.ny << "\n";
  f << "thermal " << static_cast<int>(options_.thermal) << "\n";
  f << "steps" << option_values(options_, SolverOption::Group::steps) << "\n";
  f << "surface " << static_cast<int>(options_.surface) << "\n";
  const SolverOptions& linear = options_.potential.linear;
  f << "potential" << option_values(options_, SolverOption::Group::potential) << " " << g17(linear.relative_tolerance)
    << " " << linear.max_iterations << " " << linear.restart << "\n";
  f << "diffusion " << g17(options_.diffusion.relative_tolerance) << " " << options_.diffusion.max_iterations << "\n";
  const ParameterSet& ps = layout_->parameters();
  for (const ParameterInfo& info : parameter_table()) f << info.name << " = " << g17(info.get(ps)) << "\n";
  for (const FunctionInfo& info : function_table()) f << info.name << " = " << info.selected(ps) << "\n";
  return f.str();
}

Checkpoint Simulation::make_checkpoint(const RunContext& run) const {
  const CellClock& k = clock();
  Checkpoint c;
  c.texts["format"] = kFormat;
  c.texts["setup"] = setup_fingerprint();
  c.texts["experiment"] = run.experiment;
  c.texts["termination"] = run.solution.termination;
  for (auto& [name, values] : w_->history->to_host()) c.arrays["state/" + name] = std::move(values);
  for (const std::string& name : Solution::variable_names()) c.arrays["solution/" + name] = run.solution[name];
  c.scalars = {{"time", k.time},
               {"discharge capacity", k.capacity_ah},
               {"discharge energy", k.energy_wh},
               {"voltage", k.voltage},
               {"current", k.current},
               {"heat", k.heat_w},
               {"lumped temperature", k.lumped_t},
               {"step elapsed", k.cursor.elapsed},
               {"step dt", k.cursor.dt},
               {"step h1", k.cursor.h1},
               {"step h2", k.cursor.h2},
               {"split rate", k.split_rate}};
  for (int i = 0; i < 3; ++i) {
    c.scalars["lumped temperature@" + std::to_string(i)] = k.lumped_history[i];
    c.scalars["voltage@" + std::to_string(i)] = k.voltage_history[i];
  }
  c.integers = {{"step index", static_cast<std::int64_t>(k.cursor.index)},
                {"next field", static_cast<std::int64_t>(next_field_)},
                {"next periodic field", static_cast<std::int64_t>(next_periodic_field_)},
                {"step history", k.cursor.history},
                {"step until below", k.cursor.until_below ? 1 : 0},
                {"steps taken", run.solution.steps_taken},
                {"steps rejected", run.solution.steps_rejected}};
  return c;
}

void Simulation::load_checkpoint(const Checkpoint& c) {
  const char* where = "Simulation::load_checkpoint";
  if (text_of(c, "format") != kFormat)
    throw InvalidArgument("checkpoint", where, "has format '" + text_of(c, "format") + "', expected '" + kFormat + "'");
  const std::string here = setup_fingerprint(), difference = first_difference(text_of(c, "setup"), here);
  if (!difference.empty())
    throw InvalidArgument("checkpoint", where, "was written with another cell, grid or options: " + difference);
  std::map<std::string, std::vector<double>> state;
  for (const auto& [name, values] : c.arrays)
    if (name.rfind("state/", 0) == 0) state[name.substr(6)] = values;
  w_->history->from_host(state, where);
  CellClock& k = clock();
  k.time = entry(c.scalars, "time");
  k.capacity_ah = entry(c.scalars, "discharge capacity");
  k.energy_wh = entry(c.scalars, "discharge energy");
  k.voltage = entry(c.scalars, "voltage");
  k.current = entry(c.scalars, "current");
  k.heat_w = entry(c.scalars, "heat");
  k.lumped_t = entry(c.scalars, "lumped temperature");
  k.cursor.elapsed = entry(c.scalars, "step elapsed");
  k.cursor.dt = entry(c.scalars, "step dt");
  k.cursor.h1 = entry(c.scalars, "step h1");
  k.cursor.h2 = entry(c.scalars, "step h2");
  k.split_rate = entry(c.scalars, "split rate");
  k.cursor.history = static_cast<int>(entry(c.integers, "step history"));
  k.cursor.until_below = entry(c.integers, "step until below") != 0;
  for (int i = 0; i < 3; ++i) {
    k.lumped_history[i] = entry(c.scalars, "lumped temperature@" + std::to_string(i));
    k.voltage_history[i] = entry(c.scalars, "voltage@" + std::to_string(i));
  }
  k.cursor.index = static_cast<std::size_t>(entry(c.integers, "step index"));
  next_field_ = static_cast<std::size_t>(entry(c.integers, "next field"));
  next_periodic_field_ = static_cast<std::size_t>(entry(c.integers, "next periodic field"));
  resume_ = std::make_unique<Checkpoint>(c);
}

void Simulation::resume_solution(const Checkpoint& c, Solution& s) {
  const auto& names = Solution::variable_names();
  std::vector<const std::vector<double>*> columns;
  for (const std::string& name : names) columns.push_back(&entry(c.arrays, "solution/" + name));
  std::vector<double> row(names.size());
  for (std::size_t r = 0; r < columns.front()->size(); ++r) {
    for (std::size_t k = 0; k < names.size(); ++k) row[k] = columns[k]->at(r);
    s.append(row);
  }
  s.steps_taken = static_cast<int>(entry(c.integers, "steps taken"));
  s.steps_rejected = static_cast<int>(entry(c.integers, "steps rejected"));
  s.termination = text_of(c, "termination");
}

}  // namespace voltaic
