#include "solver/failure_cause.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace voltaic {

namespace {

/// Three significant digits: enough to see how close to the limit.
std::string short_number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

const char* region_name(CellRegion r) {
  switch (r) {
    case CellRegion::negative: return "negative electrode";
    case CellRegion::separator: return "separator";
    case CellRegion::positive: return "positive electrode";
  }
  return "cell";
}

/// "the positive electrode (z-layer 58 of 60 from the negative collector, x 3, y 1)"
std::string where(std::size_t cell, const CellLayout& layout) {
  const CellMap& m = layout.constants().map;
  const CellGridSpec& g = layout.spec();
  const std::size_t k = cell / m.layer, column = cell % m.layer;
  std::ostringstream s;
  s << "the " << region_name(m.region_of(cell)) << " (z-layer " << k + 1 << " of " << m.cells / m.layer
    << " from the negative collector";
  if (m.layer > 1) s << ", x " << column % g.nx + 1 << ", y " << column / g.nx + 1;
  s << ")";
  return s.str();
}

std::string depletion(const std::vector<double>& c_e, const CellLayout& layout) {
  if (c_e.empty()) return "";
  const std::size_t at = std::min_element(c_e.begin(), c_e.end()) - c_e.begin();
  const double initial = layout.parameters().electrolyte.initial_concentration;
  if (c_e[at] >= kDepletedFraction * initial) return "";
  return "the electrolyte is depleted in " + where(at, layout) + ": c_e = " + short_number(c_e[at]) + " mol/m3, " +
         short_number(100.0 * c_e[at] / initial) + "% of its initial value";
}

std::string particle_limit(const std::vector<double>& c_surf, const CellLayout& layout) {
  const CellMap& m = layout.constants().map;
  const ParameterSet& p = layout.parameters();
  for (std::size_t q = 0; q < c_surf.size(); ++q) {
    const std::size_t cell = m.cell_of_particle(q);
    const bool negative = m.region_of(cell) == CellRegion::negative;
    const double c_max = (negative ? p.negative_electrode : p.positive_electrode).maximum_concentration;
    const double x = c_surf[q] / c_max;
    if (x > kStoichiometryMargin && x < 1.0 - kStoichiometryMargin) continue;
    return "the particles of " + where(cell, layout) + " are " + (x <= kStoichiometryMargin ? "empty" : "full") +
           " at their surface (stoichiometry " + short_number(x) + ", the end of the OCP's range)";
  }
  return "";
}

}  // namespace

std::string physical_limit(const std::vector<double>& c_e, const std::vector<double>& c_surf,
                           const CellLayout& layout) {
  if (std::string d = depletion(c_e, layout); !d.empty()) return d;
  return particle_limit(c_surf, layout);
}

std::string stall_reason(int free_steps, double h, double min_dt, double max_dt, int max_steps) {
  std::ostringstream m;
  m << "the cell stopped making progress: ";
  if (h < min_dt)
    m << "its steps shrank to " << h << " s, below min_dt (" << min_dt << " s)";
  else
    m << free_steps << " steps without completing a minute of simulated time, the step's end or a step of max_dt ("
      << max_dt << " s), the last of " << h << " s (max_steps = " << max_steps << ")";
  return m.str();
}

std::string newton_failure(int max_iterations, double last_update, double tolerance) {
  std::ostringstream m;
  m << "Newton did not converge in " << max_iterations << " iterations (last update " << last_update << " V, tolerance "
    << tolerance << " V)";
  return m.str();
}

std::string newton_update_failure(const std::string& linear) {
  return "the Newton update is not finite (linear solve: " + linear + ")";
}

std::string split_failure(stepping::Split outcome, int max_passes, double change) {
  if (outcome == stepping::Split::nonfinite)
    return "the step produced a non-finite electrolyte concentration or temperature";
  std::ostringstream m;
  m << "the concentration/potential/temperature split did not converge in " << max_passes << " passes (last change "
    << change << " of the error tolerance)";
  return m.str();
}

std::string terminal_failure() { return "the step produced a non-finite voltage, current or heat"; }

std::string depletion_failure() {
  return "the electrolyte concentration fell below zero (depletion: the step is too long)";
}

std::string local_error_failure(double error, double h) {
  std::ostringstream m;
  m << "the local error stays " << error << " times the tolerance at dt = " << h << " s";
  return m.str();
}

std::string power_failure(stepping::Power outcome, double voltage) {
  if (outcome == stepping::Power::no_voltage)
    return "power control: the terminal voltage " + std::to_string(voltage) + " V cannot deliver the power";
  return "power control: the current did not settle in 30 iterations";
}

}  // namespace voltaic
