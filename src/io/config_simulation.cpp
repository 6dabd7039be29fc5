// [grid], the model of [thermal] and [solver]: SimulationOptions and the
// backend, with the ranges CellLayout and Simulation check, so that a bad
// value is reported at its key before anything is built. The [solver]
// options come from solver_option_table().
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "io/config_readers.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/model/parameter_table.hpp"
#include "voltaic/solver/solver_options.hpp"

namespace voltaic::io::detail {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
const Interval kAtLeastOne{1.0, kInf, true, false, true};
const Interval kAtLeastTwo{2.0, kInf, true, false, true};

template <class T>
void read(const std::optional<T>& value, T& into) {
  if (value) into = *value;
}

void read_grid(const ConfigSection& g, CellGridSpec& spec) {
  read(g.integer("negative_cells", kAtLeastOne), spec.negative_cells);
  read(g.integer("separator_cells", kAtLeastOne), spec.separator_cells);
  read(g.integer("positive_cells", kAtLeastOne), spec.positive_cells);
  read(g.integer("radial_shells", kAtLeastTwo), spec.radial_shells);
  read(g.integer("nx", kAtLeastOne), spec.nx);
  read(g.integer("ny", kAtLeastOne), spec.ny);
  if (const auto c = g.choice("current_collector", {"uniform", "potential pair"}))
    spec.collectors = *c == "uniform" ? CurrentCollectorModel::uniform : CurrentCollectorModel::potential_pair;
}

void read_thermal_model(const ConfigSection& t, ThermalModel& model) {
  const std::optional<std::string> name = t.choice("model", {"isothermal", "lumped", "conduction"});
  if (!name) return;
  model = *name == "isothermal" ? ThermalModel::isothermal
          : *name == "lumped"   ? ThermalModel::lumped
                                : ThermalModel::conduction;
}

/// One option for both electrodes, or [negative, positive], as PyBaMM's
/// per-electrode options take a string or a pair; `names` are PyBaMM's.
/// `booleans`: a TOML true/false stands for "true"/"false".
template <class E, class Parse>
void read_electrode_pair(const ConfigSection& d, const std::string& key, const std::vector<std::string>& names,
                         Parse parse, bool booleans, E (&out)[2]) {
  const toml::node* n = d.node(key);
  if (!n) return;
  const std::string allowed = "one of " + quoted_list(names) + (booleans ? " (or true, false)" : "") +
                              ", or an array of two (negative, positive)";
  const auto one = [&](const toml::node& v) {
    const std::optional<bool> flag = booleans ? v.value<bool>() : std::nullopt;
    const std::string name = flag && v.is_boolean() ? (*flag ? "true" : "false") : d.text_of(v, key, allowed);
    E e{};
    if (!parse(name, e)) d.fail_at(v, d.path(key), "unknown value \"" + name + "\"; allowed: " + allowed);
    return e;
  };
  if (const toml::array* a = n->as_array()) {
    if (a->size() != 2) d.fail(key, "has " + std::to_string(a->size()) + " entries; allowed: " + allowed);
    out[0] = one((*a)[0]);
    out[1] = one((*a)[1]);
    return;
  }
  out[0] = out[1] = one(*n);
}

/// [degradation]: PyBaMM's "SEI", "SEI film resistance" and "lithium plating"
/// options by their PyBaMM names; the parameters they need are checked where
/// the cell is built.
void read_degradation(const ConfigSection& d, DegradationOptions& o) {
  if (const auto name = d.choice("sei", sei_model_names())) parse_sei_model(*name, o.sei);
  if (const auto name = d.choice("sei_film_resistance", sei_film_resistance_names()))
    parse_sei_film_resistance(*name, o.sei_film_resistance);
  if (const auto name = d.choice("lithium_plating", plating_model_names()))
    parse_plating_model(*name, o.lithium_plating);
  read_electrode_pair(d, "loss_of_active_material", lam_model_names(), parse_lam_model, false,
                      o.loss_of_active_material);
  read_electrode_pair(d, "particle_mechanics", particle_mechanics_names(), parse_particle_mechanics, false,
                      o.particle_mechanics);
  if (const auto on = d.flag("sei_porosity_change")) o.sei_porosity_change = *on;
  if (const auto on = d.flag("lithium_plating_porosity_change")) o.lithium_plating_porosity_change = *on;
  read_electrode_pair(d, "stress_induced_diffusion", stress_induced_diffusion_names(), parse_stress_induced_diffusion,
                      true, o.stress_induced_diffusion);
  if (o.sei == SeiModel::none && o.sei_film_resistance == SeiFilmResistance::distributed)
    d.fail("sei_film_resistance",
           "is \"distributed\" without a growing film; allowed: \"auto\" or \"none\" "
           "when sei is \"none\"");
}

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

/// A per-electrode option's value as a config writes it.
template <class E>
std::string describe_pair(const E (&pair)[2]) {
  if (pair[0] == pair[1]) return quoted(to_string(pair[0]));
  return "[" + quoted(to_string(pair[0])) + ", " + quoted(to_string(pair[1])) + "]";
}

/// The [degradation] key (and its value as written) of the option a
/// refusal is about. A stress-induced diffusion on by default is about the
/// particle_mechanics key that turned it on, when the file sets that one only.
std::pair<std::string, std::string> key_of(const ConfigSection& d, DegradationRefusal::Option option,
                                           const DegradationOptions& o) {
  using Option = DegradationRefusal::Option;
  switch (option) {
    case Option::sei: return {"sei", quoted(to_string(o.sei))};
    case Option::sei_film_resistance: return {"sei_film_resistance", quoted(to_string(o.sei_film_resistance))};
    case Option::lithium_plating: return {"lithium_plating", quoted(to_string(o.lithium_plating))};
    case Option::loss_of_active_material: return {"loss_of_active_material", describe_pair(o.loss_of_active_material)};
    case Option::particle_mechanics: return {"particle_mechanics", describe_pair(o.particle_mechanics)};
    case Option::stress_induced_diffusion:
      if (!d.has("stress_induced_diffusion") && d.has("particle_mechanics"))
        return {"particle_mechanics", describe_pair(o.particle_mechanics)};
      return {"stress_induced_diffusion", describe_pair(o.stress_induced_diffusion)};
  }
  return {"sei", quoted(to_string(o.sei))};
}

/// What the cell must be for [degradation]: 1D, with the models' parameters
/// set. The message names the key of the model that asks.
void check_degradation_cell(const ConfigSection& d, const RunConfig& config) {
  const DegradationOptions& o = config.simulation.degradation;
  if (!o.any()) return;
  const bool sei = o.sei != SeiModel::none, plated = o.lithium_plating != PlatingModel::none;
  const std::string key = sei       ? "sei"
                          : plated  ? "lithium_plating"
                          : o.lam() ? "loss_of_active_material"
                                    : "stress_induced_diffusion";
  const std::string value = sei       ? quoted(to_string(o.sei))
                            : plated  ? quoted(to_string(o.lithium_plating))
                            : o.lam() ? describe_pair(o.loss_of_active_material)
                                      : describe_pair(o.stress_induced_diffusion);
  const CellGridSpec& g = config.simulation.grid;
  if (g.nx != 1 || g.ny != 1 || config.simulation.thermal == ThermalModel::conduction ||
      g.collectors != CurrentCollectorModel::uniform)
    d.fail(key, "is " + value +
                    " for a 3D cell (nx, ny, collectors or conduction); degradation runs on 1D cells only: "
                    "nx = ny = 1, uniform collectors, isothermal or lumped");
  if (const auto r = degradation_refusal(o, config.parameters)) {
    const auto [k, v] = key_of(d, r->option, o);
    // An option's own refusal reads "is V: why"; a missing parameter "is V, which needs 'P': why".
    d.fail(k, "is " + v + (r->parameter ? ", which needs '" + r->what_failed + "': " + r->why : ": " + r->why));
  }
}

void read_backend(const ConfigSection& s, BackendChoice& backend) {
  const std::optional<std::string> name = s.choice("backend", {"auto", "cpu", "cuda"});
  if (!name) return;
  backend = *name == "auto" ? BackendChoice::automatic : *name == "cpu" ? BackendChoice::cpu : BackendChoice::cuda;
}

/// min_dt <= initial_dt <= max_dt, as Simulation checks them; reported at the
/// key the file sets (initial_dt when the other one is a default).
void check_step_sizes(const ConfigSection& s, const StepControl& c) {
  const auto show = [](double v) { return format_parameter_value(v); };
  if (!(c.min_dt <= c.initial_dt)) {
    if (s.has("min_dt")) {
      s.fail("min_dt", "is " + show(c.min_dt) + ", more than initial_dt (" + show(c.initial_dt) +
                           "); allowed: a number in (0, initial_dt] [s]");
    }
    s.fail("initial_dt", "is " + show(c.initial_dt) + ", less than min_dt (" + show(c.min_dt) +
                             ", its default); allowed: a number >= min_dt [s]");
  }
  if (!(c.max_dt >= c.initial_dt)) {
    if (s.has("max_dt")) {
      s.fail("max_dt", "is " + show(c.max_dt) + ", less than initial_dt (" + show(c.initial_dt) +
                           "); allowed: a number >= initial_dt [s]");
    }
    s.fail("initial_dt", "is " + show(c.initial_dt) + ", more than max_dt (" + show(c.max_dt) +
                             ", its default); allowed: a number <= max_dt [s]");
  }
}

/// One [solver] option of the table as a double (a choice as its index), if given.
std::optional<double> read_option(const ConfigSection& s, const SolverOption& opt) {
  switch (opt.kind) {
    case SolverOption::Kind::number: return s.number(opt.key, opt.allowed, opt.unit);
    case SolverOption::Kind::integer: {
      const std::optional<int> v = s.integer(opt.key, opt.allowed);
      return v ? std::optional<double>(*v) : std::nullopt;
    }
    case SolverOption::Kind::choice: {
      const std::optional<std::string> name = s.choice(opt.key, opt.choices);
      if (!name) return std::nullopt;
      return static_cast<double>(std::find(opt.choices.begin(), opt.choices.end(), *name) - opt.choices.begin());
    }
  }
  return std::nullopt;
}

void read_solver_options(const ConfigSection& s, SimulationOptions& o) {
  for (const SolverOption& opt : solver_option_table()) {
    if (const std::optional<double> v = read_option(s, opt)) opt.set(o, *v);
  }
  check_step_sizes(s, o.steps);
}

/// Potential-pair collectors need both tabs: checked here (the collectors
/// check them again when built) so that the error names the config's key.
void check_collector_tabs(const ConfigSection& g, const RunConfig& config) {
  if (config.simulation.grid.collectors != CurrentCollectorModel::potential_pair) return;
  for (const char* side : {"Negative", "Positive"}) {
    for (const char* what : {"width [m]", "centre y-coordinate [m]", "centre z-coordinate [m]"}) {
      const std::string name = std::string(side) + " tab " + what;
      if (std::isnan(parameter_value(config.parameters, name)))
        g.fail("current_collector", "is \"potential pair\", which needs both tabs, and '" + name +
                                        "' is unset; allowed: \"uniform\", or set the tabs' widths and centres "
                                        "under [cell.overrides]");
    }
  }
}

}  // namespace

void read_simulation(const ConfigSections& s, RunConfig& config) {
  read_grid(s.grid, config.simulation.grid);
  check_collector_tabs(s.grid, config);
  read_thermal_model(s.thermal, config.simulation.thermal);
  read_degradation(s.degradation, config.simulation.degradation);
  check_degradation_cell(s.degradation, config);
  read_backend(s.solver, config.backend);
  read_solver_options(s.solver, config.simulation);
}

}  // namespace voltaic::io::detail
