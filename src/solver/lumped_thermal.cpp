#include "voltaic/solver/lumped_thermal.hpp"

#include <cmath>
#include <sstream>

#include "voltaic/core/error.hpp"

namespace voltaic {

namespace {
void require(bool ok, const char* what, double value, const char* range) {
  if (ok) return;
  std::ostringstream why;
  why << what << " = " << value << " must be " << range;
  throw InvalidArgument(what, "LumpedThermal", why.str());
}
}  // namespace

LumpedThermal::LumpedThermal(double heat_capacity, double cooling, double ambient)
    : heat_capacity_(heat_capacity), cooling_(cooling), ambient_(ambient) {
  require(std::isfinite(heat_capacity) && heat_capacity > 0, "heat capacity [J/K]", heat_capacity, "finite and > 0");
  require(std::isfinite(cooling) && cooling >= 0, "cooling conductance hA [W/K]", cooling, "finite and >= 0");
  require(std::isfinite(ambient) && ambient > 0, "ambient temperature [K]", ambient, "finite and > 0");
}

double lumped_heat_capacity(const ParameterSet& p) {
  const auto rc = [](double rho, double cp, double l) { return rho * cp * l; };
  const auto& n = p.negative_electrode;
  const auto& s = p.separator;
  const auto& q = p.positive_electrode;
  const auto& nc = p.negative_current_collector;
  const auto& pc = p.positive_current_collector;
  const double sum =
      rc(nc.density, nc.specific_heat_capacity, nc.thickness) + rc(n.density, n.specific_heat_capacity, n.thickness) +
      rc(s.density, s.specific_heat_capacity, s.thickness) + rc(q.density, q.specific_heat_capacity, q.thickness) +
      rc(pc.density, pc.specific_heat_capacity, pc.thickness);
  const double length = nc.thickness + n.thickness + s.thickness + q.thickness + pc.thickness;
  return sum / length * p.thermal.cell_volume;
}

double LumpedThermal::step(double temperature, double heat, double dt) const {
  require(std::isfinite(dt) && dt > 0, "dt [s]", dt, "finite and > 0");
  require(std::isfinite(temperature) && temperature > 0, "temperature [K]", temperature, "finite and > 0");
  require(std::isfinite(heat), "heat [W]", heat, "finite");
  const double c = heat_capacity_ / dt;
  return (c * temperature + heat + cooling_ * ambient_) / (c + cooling_);
}

}  // namespace voltaic
