#include "voltaic/solver/solver_options.hpp"

#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

#include "voltaic/core/error.hpp"

namespace voltaic {

namespace {

using Kind = SolverOption::Kind;
using Group = SolverOption::Group;

constexpr double kInf = std::numeric_limits<double>::infinity();
const Interval kPositive{0.0, kInf, false, false};
const Interval kAtLeastZero{0.0, kInf, true, false, true};
const Interval kAtLeastOne{1.0, kInf, true, false, true};

/// What a field of type T is to a config: a number, an integer or a choice (an enum).
template <class T>
constexpr Kind kind_of() {
  if constexpr (std::is_enum_v<T>) return Kind::choice;
  if constexpr (std::is_integral_v<T>) return Kind::integer;
  return Kind::number;
}

template <auto G>
constexpr Group group_of() {
  if constexpr (std::is_same_v<decltype(G), StepControl SimulationOptions::*>) return Group::steps;
  return Group::potential;
}

/// (o.*G).*F through a double (an enum as its underlying value).
template <auto G, auto F>
double get_field(const SimulationOptions& o) {
  const auto v = (o.*G).*F;
  if constexpr (std::is_enum_v<decltype(v)>) return static_cast<double>(static_cast<int>(v));
  return static_cast<double>(v);
}

template <auto G, auto F>
void set_field(SimulationOptions& o, double v) {
  auto& field = (o.*G).*F;
  using T = std::remove_reference_t<decltype(field)>;
  if constexpr (std::is_enum_v<T>) {
    field = static_cast<T>(static_cast<int>(v));
  } else {
    field = static_cast<T>(v);
  }
}

template <auto G, auto F>
SolverOption option(const char* key, const char* member, Interval allowed, const char* unit, const char* description) {
  SolverOption o;
  o.key = key;
  o.group = group_of<G>();
  o.member = member;
  o.kind = kind_of<std::decay_t<decltype(std::declval<SimulationOptions&>().*G.*F)>>();
  o.allowed = allowed;
  o.unit = unit;
  o.description = description;
  o.get = &get_field<G, F>;
  o.set = &set_field<G, F>;
  return o;
}

/// An enum option: its choices in the order of the enum's values.
template <auto G, auto F>
SolverOption choice(const char* key, const char* member, std::vector<std::string> choices, const char* description) {
  const Interval index{0.0, static_cast<double>(choices.size()) - 1.0, true, true, true};
  SolverOption o = option<G, F>(key, member, index, "", description);
  o.choices = std::move(choices);
  return o;
}

constexpr auto steps = &SimulationOptions::steps;
constexpr auto potential = &SimulationOptions::potential;

/// StepControl's options, in the order of its fields.
void add_step_control(std::vector<SolverOption>& t) {
  t.push_back(option<steps, &StepControl::initial_dt>(
      "initial_dt", "initial_dt", kPositive, "s",
      "the first time step of every experiment step (backward Euler, not error-checked: keep it small)"));
  t.back().relation = "in [min_dt, max_dt]";
  t.push_back(option<steps, &StepControl::min_dt>("min_dt", "min_dt", kPositive, "s",
                                                  "a step that fails below this stops the run"));
  t.back().relation = "at most initial_dt";
  t.push_back(option<steps, &StepControl::max_dt>("max_dt", "max_dt", kPositive, "s", "the largest time step"));
  t.back().relation = "at least initial_dt";
  t.push_back(option<steps, &StepControl::relative_tolerance>(
      "relative_tolerance", "relative_tolerance", {0.0, 1.0, false, false}, "",
      "rtol of the local error test (IDAKLU's default); see below"));
  t.push_back(option<steps, &StepControl::absolute_tolerance>(
      "absolute_tolerance", "absolute_tolerance", kPositive, "",
      "atol of the local error test, on states scaled by their natural size (IDAKLU's default)"));
  t.push_back(option<steps, &StepControl::max_growth>(
      "max_growth", "max_growth", {1.0, 2.4, false, true}, "",
      "largest ratio of one step to the one before (variable-step BDF2 is zero-stable below 1 + sqrt 2)"));
  t.back().note = "variable-step BDF2 is zero-stable below 1 + sqrt 2";
  t.push_back(option<steps, &StepControl::max_retries>("max_retries", "max_retries", kAtLeastZero, "",
                                                       "cuts of one step before the run gives up"));
  t.push_back(
      option<steps, &StepControl::event_tolerance>("event_tolerance", "event_tolerance", kPositive, "V or A",
                                                   "how closely a cut-off (voltage, or current of a hold) is located"));
  t.push_back(option<steps, &StepControl::max_split_iterations>(
      "max_split_iterations", "max_split_iterations", kAtLeastOne, "",
      "concentration/potential/temperature passes of one step before the step is cut"));
  t.push_back(option<steps, &StepControl::max_steps>(
      "max_steps", "max_steps", kAtLeastOne, "",
      "steps a cell may take without completing a minute of simulated time, reaching a boundary of its "
      "experiment step (its end, a drive cycle's row, a field time) or taking a step of max_dt; more (or such a "
      "step below min_dt) and the cell has stalled: it fails (IDAKLU's max_num_steps between PyBaMM's output times)"));
  t.back().fingerprinted = false;  // a guard: a restart may raise it
}

/// PotentialOptions' Newton options; the GMRES-IR settings are not a config's.
void add_potential(std::vector<SolverOption>& t) {
  t.push_back(option<potential, &PotentialOptions::tolerance>(
      "newton_tolerance", "tolerance", kPositive, "V",
      "Newton has converged when the error left after an update (its largest update times the iterates' "
      "contraction rate) is at most this"));
  t.push_back(option<potential, &PotentialOptions::max_iterations>(
      "newton_max_iterations", "max_iterations", kAtLeastOne, "", "Newton iterations before the step is cut"));
  t.push_back(option<potential, &PotentialOptions::max_update>(
      "newton_max_update", "max_update", kPositive, "V", "a larger Newton update is scaled down to this (damping)"));
  t.push_back(choice<potential, &PotentialOptions::electrolyte_face_mean>(
      "electrolyte_face_mean", "electrolyte_face_mean", {"harmonic", "arithmetic"},
      "face rule of the electrolyte conductivity: arithmetic is PyBaMM's (a run agrees with PyBaMM's at the same "
      "mesh; at 20 cells per domain as close to the converged curve as harmonic: Chen2020 against 160 cells, "
      "0.27 / 0.22 mV RMS at 1C, 0.24 / 1.15 mV at 2C); harmonic is exact for piecewise-constant k at the porosity "
      "jumps at the separator"));
}

std::vector<SolverOption> build_table() {
  std::vector<SolverOption> t;
  add_step_control(t);
  add_potential(t);
  return t;
}

[[noreturn]] void fail(const SolverOption& opt, const SimulationOptions& o, const std::string& where,
                       const std::string& context = "") {
  std::string why = "is " + opt.value_text(o) + context + "; allowed: " + opt.range_text();
  if (!opt.unit.empty()) why += " [" + opt.unit + "]";
  if (!opt.note.empty()) why += " (" + opt.note + ")";
  throw InvalidArgument(opt.qualified_name(), where, why);
}

/// The relations of the table: min_dt <= initial_dt <= max_dt.
void check_step_order(const SimulationOptions& o, const std::string& where) {
  const StepControl& s = o.steps;
  const std::string initial = " (initial_dt is " + find_solver_option("initial_dt")->value_text(o) + ")";
  if (!(s.min_dt <= s.initial_dt)) fail(*find_solver_option("min_dt"), o, where, initial);
  if (!(s.max_dt >= s.initial_dt)) fail(*find_solver_option("max_dt"), o, where, initial);
}

}  // namespace

double SolverOption::default_value() const { return get(SimulationOptions{}); }

std::string SolverOption::qualified_name() const {
  return (group == Group::steps ? "StepControl::" : "PotentialOptions::") + member;
}

std::string SolverOption::range_text() const {
  if (kind == Kind::choice) {
    std::string s;
    for (const std::string& c : choices) s += (s.empty() ? "\"" : ", \"") + c + "\"";
    return s;
  }
  Interval shown = allowed;
  shown.whole = false;  // an integer option's kind says it
  const std::string range = (std::isinf(allowed.hi) ? "" : "in ") + shown.to_string();
  return relation.empty() ? range : range + ", " + relation;
}

std::string SolverOption::value_text(const SimulationOptions& o) const {
  const double v = get(o);
  return kind == Kind::number ? format_parameter_value(v) : std::to_string(static_cast<long long>(v));
}

const std::vector<SolverOption>& solver_option_table() {
  static const std::vector<SolverOption> table = build_table();
  return table;
}

const SolverOption* find_solver_option(const std::string& key) {
  for (const SolverOption& opt : solver_option_table())
    if (opt.key == key) return &opt;
  return nullptr;
}

void check_solver_options(const SimulationOptions& o, const std::string& where) {
  for (const SolverOption& opt : solver_option_table())
    if (!opt.allowed.contains(opt.get(o))) fail(opt, o, where);
  check_step_order(o, where);
}

}  // namespace voltaic
