// PyBaMM's electrode state of health (electrode_soh.py's "Capacity [A.h]").
#include "voltaic/solver/electrode_soh.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "voltaic/core/error.hpp"
#include "voltaic/model/constants.hpp"
#include "voltaic/model/material_functions.hpp"
#include "voltaic/model/parameter_set.hpp"

namespace voltaic {
namespace {

double capacity(const ElectrodeParameters& e, const ParameterSet& p) {
  return e.active_material_volume_fraction * e.thickness * p.electrode_area() * e.maximum_concentration * kFaraday /
         3600.0;
}

/// The root of an increasing f on [lo, hi] (f(lo) <= 0 <= f(hi)), to the
/// doubles' resolution.
template <class F>
double increasing_root(F f, double lo, double hi) {
  for (int i = 0; i < 200 && hi - lo > 4e-16 * std::max(1.0, std::fabs(hi)); ++i) {
    const double mid = 0.5 * (lo + hi);
    (f(mid) > 0.0 ? hi : lo) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace

double negative_electrode_capacity(const ParameterSet& p) { return capacity(p.negative_electrode, p); }
double positive_electrode_capacity(const ParameterSet& p) { return capacity(p.positive_electrode, p); }

double initial_particle_lithium(const ParameterSet& p) {
  const auto moles = [&](const ElectrodeParameters& e) {
    return e.active_material_volume_fraction * e.thickness * p.electrode_area() * e.initial_concentration;
  };
  return moles(p.negative_electrode) + moles(p.positive_electrode);
}

ElectrodeSoh electrode_soh(const ParameterSet& p, double particle_lithium_mol) {
  const ElectrodeParameters &n = p.negative_electrode, &q = p.positive_electrode;
  const double t = p.thermal.reference_temperature;
  const auto U_n = [&](double x) { return material::guarded_open_circuit_potential(n, x, t, t); };
  const auto U_p = [&](double y) { return material::guarded_open_circuit_potential(q, y, t, t); };
  const double Q_n = negative_electrode_capacity(p), Q_p = positive_electrode_capacity(p);
  const double Q_li = particle_lithium_mol * kFaraday / 3600.0;
  const double V_100 = p.electrical.ocv_at_100_soc, V_0 = p.electrical.ocv_at_0_soc;
  // x_100 within [0, 1] with y_100 = (Q_li - Q_n x) / Q_p within [0, 1].
  const double lo = std::max(0.0, (Q_li - Q_p) / Q_n), hi = std::min(1.0, Q_li / Q_n);
  if (!(lo < hi)) {
    std::ostringstream m;
    m << particle_lithium_mol << " mol of lithium fits no stoichiometry window of electrodes of " << Q_n << " and "
      << Q_p << " A.h";
    throw InvalidArgument("cyclable lithium", "voltaic::electrode_soh", m.str());
  }
  ElectrodeSoh s;
  const auto y_of = [&](double x) { return (Q_li - Q_n * x) / Q_p; };
  // More lithium in the negative: U_n falls and U_p rises, the cell's OCV rises.
  s.x_100 = increasing_root([&](double x) { return U_p(y_of(x)) - U_n(x) - V_100; }, lo, hi);
  s.y_100 = y_of(s.x_100);
  // x_0 below x_100, with y_0 = y_100 + (x_100 - x_0) Q_n / Q_p within [0, 1].
  const auto y0_of = [&](double x) { return s.y_100 + (s.x_100 - x) * Q_n / Q_p; };
  const double x_lo = std::max(0.0, s.x_100 - (1.0 - s.y_100) * Q_p / Q_n);
  s.x_0 = increasing_root([&](double x) { return U_p(y0_of(x)) - U_n(x) - V_0; }, x_lo, s.x_100);
  s.y_0 = y0_of(s.x_0);
  s.capacity_ah = Q_n * (s.x_100 - s.x_0);
  return s;
}

}  // namespace voltaic
