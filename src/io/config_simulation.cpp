// [grid], the model of [thermal] and [solver]: SimulationOptions and the
// backend, with the ranges CellLayout and Simulation check, so that a bad
// value is reported at its key before anything is built.
#include <limits>
#include <string>

#include "io/config_readers.hpp"
#include "voltaic/model/parameter_table.hpp"

namespace voltaic::io::detail {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
const Interval kPositive{0.0, kInf, false, false};
const Interval kAtLeastOne{1.0, kInf, true, false, true};
const Interval kAtLeastTwo{2.0, kInf, true, false, true};
const Interval kGrowth{1.0, 2.4, false, true};  // variable-step BDF2 is zero-stable below 1 + sqrt 2
const Interval kFraction{0.0, 1.0, false, false};

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
}

void read_thermal_model(const ConfigSection& t, ThermalModel& model) {
  const std::optional<std::string> name = t.choice("model", {"isothermal", "lumped", "conduction"});
  if (!name) return;
  model = *name == "isothermal" ? ThermalModel::isothermal
          : *name == "lumped"   ? ThermalModel::lumped
                                : ThermalModel::conduction;
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

void read_step_control(const ConfigSection& s, StepControl& c) {
  read(s.number("initial_dt", kPositive, "s"), c.initial_dt);
  read(s.number("min_dt", kPositive, "s"), c.min_dt);
  read(s.number("max_dt", kPositive, "s"), c.max_dt);
  check_step_sizes(s, c);
  read(s.number("relative_tolerance", kFraction, ""), c.relative_tolerance);
  read(s.number("absolute_tolerance", kPositive, ""), c.absolute_tolerance);
  read(s.number("max_growth", kGrowth, ""), c.max_growth);
  read(s.integer("max_retries", Interval{0.0, kInf, true, false, true}), c.max_retries);
  read(s.number("event_tolerance", kPositive, "V or A"), c.event_tolerance);
  read(s.integer("max_split_iterations", kAtLeastOne), c.max_split_iterations);
}

void read_potential(const ConfigSection& s, PotentialOptions& p) {
  read(s.number("newton_tolerance", kPositive, "V"), p.tolerance);
  read(s.integer("newton_max_iterations", kAtLeastOne), p.max_iterations);
  read(s.number("newton_max_update", kPositive, "V"), p.max_update);
  const std::optional<std::string> mean = s.choice("electrolyte_face_mean", {"harmonic", "arithmetic"});
  if (mean) p.electrolyte_face_mean = *mean == "harmonic" ? FaceMean::harmonic : FaceMean::arithmetic;
}

}  // namespace

void read_simulation(const ConfigSections& s, RunConfig& config) {
  read_grid(s.grid, config.simulation.grid);
  read_thermal_model(s.thermal, config.simulation.thermal);
  read_backend(s.solver, config.backend);
  read_step_control(s.solver, config.simulation.steps);
  read_potential(s.solver, config.simulation.potential);
}

}  // namespace voltaic::io::detail
