// What shapes a 1D or 3D cell's trajectory besides its state, one item a
// line, for the checkpoints of a Simulation (run_recorder_checkpoint.cpp) and
// of a batch (batch_checkpoint.cpp).
#include "solver/setup_fingerprint.hpp"

#include <sstream>
#include <string>

#include "voltaic/model/parameter_table.hpp"
#include "voltaic/solver/solver_options.hpp"

namespace voltaic {

namespace {

std::string g17(double v) { return format_parameter_value(v); }

/// " v1 v2 ...": the table's fingerprinted options of one struct, in the
/// table's order (a new one lengthens its line, so older checkpoints are refused).
std::string option_values(const SimulationOptions& o, SolverOption::Group group) {
  std::string s;
  for (const SolverOption& opt : solver_option_table())
    if (opt.group == group && opt.fingerprinted) s += " " + opt.value_text(o);
  return s;
}

}  // namespace

std::string setup_fingerprint(const ParameterSet& ps, const SimulationOptions& options) {
  std::ostringstream f;
  const CellGridSpec& g = options.grid;
  f << "grid " << g.negative_cells << " " << g.separator_cells << " " << g.positive_cells << " " << g.radial_shells
    << " " << g.nx << " " << g.ny << "\n";
  if (g.collectors != CurrentCollectorModel::uniform) f << "collectors " << to_string(g.collectors) << "\n";
  f << "thermal " << static_cast<int>(options.thermal) << "\n";
  f << "steps" << option_values(options, SolverOption::Group::steps) << "\n";
  f << "surface " << static_cast<int>(options.surface) << "\n";
  const SolverOptions& linear = options.potential.linear;
  f << "potential" << option_values(options, SolverOption::Group::potential) << " " << g17(linear.relative_tolerance)
    << " " << linear.max_iterations << " " << linear.restart << " " << g17(linear.inner_tolerance) << "\n";
  f << "diffusion " << g17(options.diffusion.relative_tolerance) << " " << options.diffusion.max_iterations << "\n";
  if (options.thermal == ThermalModel::conduction)  // the only model it solves for
    f << "heat " << g17(options.heat.relative_tolerance) << " " << options.heat.max_iterations << "\n";
  // The degradation's parameters and options only where a model runs: a
  // checkpoint without one keeps the fingerprint it had before they existed.
  const DegradationOptions& d = options.degradation;
  if (d.any()) {
    f << "degradation SEI " << to_string(d.sei) << ", film " << d.film_resistance();
    if (d.lithium_plating != PlatingModel::none) f << ", plating " << to_string(d.lithium_plating);
    if (d.lam()) {
      f << ", loss of active material " << to_string(d.loss_of_active_material[0]) << " / "
        << to_string(d.loss_of_active_material[1]);
    }
    if (d.any_stress_diffusion())
      f << ", stress-induced diffusion " << d.stress_diffusion(0) << " / " << d.stress_diffusion(1);
    if (d.porosity_change()) f << ", porosity change";
    f << "\n";
  }
  const auto inside = [](const char* at, const auto& group) {
    const auto* begin = reinterpret_cast<const char*>(&group);
    return at >= begin && at < begin + sizeof(group);
  };
  for (const ParameterInfo& info : parameter_table()) {
    const auto* at = reinterpret_cast<const char*>(&info.field(const_cast<ParameterSet&>(ps)));
    const bool lam = inside(at, ps.negative_lam) || inside(at, ps.positive_lam);
    // The protocol's C-rate factors at 1 leave the experiment as written: a
    // checkpoint of before they existed still continues.
    const bool factor = at == reinterpret_cast<const char*>(&ps.electrical.discharge_rate_factor) ||
                        at == reinterpret_cast<const char*>(&ps.electrical.charge_rate_factor);
    const bool shown = inside(at, ps.sei)       ? d.any()
                       : inside(at, ps.plating) ? d.lithium_plating != PlatingModel::none
                       : lam                    ? d.lam() || d.any_stress_diffusion()
                       : factor                 ? info.get(ps) != 1.0
                                                : true;
    if (shown) f << info.name << " = " << g17(info.get(ps)) << "\n";
  }
  for (const FunctionInfo& info : function_table()) f << info.name << " = " << info.selected(ps) << "\n";
  return f.str();
}

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

}  // namespace voltaic
