#pragma once
/// @file kinetics.hpp
/// @brief Butler-Volmer kinetics as VOLTAIC_HD point functions: the reaction
/// current density at one particle surface and its derivative, which the
/// potential step's residual and Newton Jacobian both evaluate.

#include <cmath>

#include "voltaic/core/macros.hpp"
#include "voltaic/model/constants.hpp"
#include "voltaic/model/material_functions.hpp"
#include "voltaic/model/parameter_set.hpp"
#include "voltaic/model/portable_exp.hpp"

namespace voltaic::kinetics {

/// A reaction current density and its derivative by the overpotential.
struct Reaction {
  double j;    ///< [A/m^2] of particle surface, > 0 when lithium leaves the particle
  double dj;   ///< dj / d eta [A/m^2/V], > 0
  double eta;  ///< overpotential phi_s - phi_e - U [V]
  double ocp;  ///< U(c_surf / c_max, T) [V]
};

/// Butler-Volmer with charge-transfer coefficient alpha:
///
///   j = j0 (exp(alpha f eta) - exp(-(1 - alpha) f eta)),  f = F / (R T),
///
/// which for alpha = 1/2 is PyBaMM's symmetric form 2 j0 sinh(f eta / 2).
/// A non-finite result (a concentration outside (0, c_max), an overflowing
/// exponential) is the caller's signal that the state is not admissible.
///
/// j0 and U are PyBaMM's regularised forms (material::regularised_exchange_current_density,
/// c_e_scale the initial electrolyte concentration; material::guarded_open_circuit_potential).
VOLTAIC_HD inline Reaction butler_volmer(const ElectrodeParameters& e, double reference_temperature, double phi_s,
                                         double phi_e, double c_e, double c_surf, double T, double c_e_scale) {
  const double ocp =
      material::guarded_open_circuit_potential(e, c_surf / e.maximum_concentration, T, reference_temperature);
  const double eta = phi_s - phi_e - ocp;
  // c_e at 0 where an iterate is a hair below it (PyBaMM's odd regularised
  // power would reverse the reaction there): no reaction without electrolyte.
  const double j0 = material::regularised_exchange_current_density(e, fmax(c_e, 0.0), c_surf, T, c_e_scale);
  const double f = kFaraday / (kGasConstant * T);
  const double alpha = e.charge_transfer_coefficient;
  const double forward = pmath::exp(alpha * f * eta);
  // The symmetric case (every built-in set) from the same exponential.
  const double backward = alpha == 0.5 ? 1.0 / forward : pmath::exp(-(1.0 - alpha) * f * eta);
  return {j0 * (forward - backward), j0 * f * (alpha * forward + (1.0 - alpha) * backward), eta, ocp};
}

/// The particle's surface concentration as its backward-Euler step makes it:
/// linear in the molar flux N = j / F out of the particle,
///
///   c_surf(N) = value + slope (N - flux),
///
/// `value` the surface after a step with flux `flux`, `slope` = d c_surf / d N
/// (< 0: lithium leaving lowers the surface) from a step with a unit flux.
struct SurfaceResponse {
  double value;  ///< [mol/m^3]
  double slope;  ///< [mol/m^3 per mol/m^2/s], <= 0; 0 makes the surface fixed
  double flux;   ///< [mol/m^2/s]
};

/// Butler-Volmer with the surface concentration a function of j itself
/// (SurfaceResponse): j = BV(phi_s - phi_e - U(c_surf(j)), c_e, c_surf(j)).
struct ImplicitReaction {
  double j;       ///< [A/m^2], the root
  double dj;      ///< total d j / d (phi_s - phi_e) [A/m^2/V], > 0
  double c_surf;  ///< c_surf(j) [mol/m^3]
  bool ok;        ///< false when no admissible root was found (the state is outside the model's domain)
};

namespace detail {

/// x finite (x - x is 0 exactly then; NaN and infinities give NaN).
VOLTAIC_HD inline bool finite(double x) { return x - x == 0.0; }

/// g(j) = j - BV(j) and its derivative for the implicit surface; a forward
/// difference in c_surf (1e-7 c_max) for d U / d c and d j0 / d c (Newton
/// needs the derivative only roughly; the root is exact).
struct ImplicitResidual {
  const ElectrodeParameters& e;
  double t_ref, dphi, c_e, T, c_e_scale;
  SurfaceResponse s;

  VOLTAIC_HD double surface(double j) const { return s.value + s.slope * (j / kFaraday - s.flux); }
  VOLTAIC_HD Reaction at(double c) const { return butler_volmer(e, t_ref, dphi, 0.0, c_e, c, T, c_e_scale); }
  /// Fills g and d BV / d dphi, and with `derivative` dg / dj (else leaves
  /// it: Newton keeps the last one); returns false when not finite.
  VOLTAIC_HD bool evaluate(double j, double& g, double& dg, double& dbv, bool derivative) const {
    const double c = surface(j);
    const Reaction r = at(c);
    if (derivative) {
      const double h = (c > 0.5 * e.maximum_concentration ? -1e-7 : 1e-7) * e.maximum_concentration;
      const double dbv_dc = (at(c + h).j - r.j) / h;  // U and j0 together, at fixed dphi
      dg = 1.0 - dbv_dc * s.slope / kFaraday;
    }
    g = j - r.j;
    dbv = r.dj;
    return finite(g) && finite(dg) && finite(dbv);
  }
};

}  // namespace detail

/// Solves the implicit Butler-Volmer equation of one particle by Newton on j,
/// safeguarded by bisection inside the admissible interval (c_surf(j) in
/// (0, c_max), where g = j - BV changes sign because j0 vanishes at both
/// ends). `guess` starts the iteration (the last solve's j).
VOLTAIC_HD VOLTAIC_CPU_CALL inline ImplicitReaction butler_volmer_implicit(const ElectrodeParameters& e,
                                                                           double reference_temperature, double phi_s,
                                                                           double phi_e, double c_e,
                                                                           const SurfaceResponse& s, double T,
                                                                           double c_e_scale, double guess) {
  const detail::ImplicitResidual f{e, reference_temperature, phi_s - phi_e, c_e, T, c_e_scale, s};
  const double c_max = e.maximum_concentration;
  if (!(s.slope < 0.0)) {  // a fixed surface: the explicit form
    const Reaction r = f.at(s.value);
    return {r.j, r.dj, s.value, detail::finite(r.j) && detail::finite(r.dj)};
  }
  // c_surf(j) decreases in j: c_surf = c_max at lo, 0 at hi (shrunk by a hair).
  const double span = -c_max / s.slope * kFaraday;
  double lo = kFaraday * (s.flux + (c_max - s.value) / s.slope) + 1e-12 * span;
  double hi = kFaraday * (s.flux - s.value / s.slope) - 1e-12 * span;
  double j = (guess > lo && guess < hi) ? guess : 0.5 * (lo + hi);
  double g = 0.0, dg = 1.0, dbv = 0.0, last_step = 0.0;
  bool bisected = false;
  for (int it = 0; it < 100; ++it) {
    // The derivative at the first iterate (the chord method: the surface's
    // share of it changes little near the root), again after a bisection.
    const bool good = f.evaluate(j, g, dg, dbv, it == 0 || bisected);
    const bool newton = !bisected && it > 0;
    bisected = false;
    if (good && fabs(g) <= 1e-13 * (fabs(j) + 1.0)) break;  // j to rounding [A/m^2]
    // Past a non-finite value, the offending end is the one the surface is near.
    if (good ? g > 0.0 : f.surface(j) < 0.5 * c_max) {
      hi = j;
    } else {
      lo = j;
    }
    double next = good && dg > 0.0 ? j - g / dg : 0.5 * (lo + hi);
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    bisected = !(good && dg > 0.0) || next == 0.5 * (lo + hi);
    const double step = fabs(next - j);
    // The error left after a chord step: the step times the contraction
    // rate of the last two. Below rounding, the step ends the solve without
    // a further evaluation (dbv, a Jacobian entry, is then one step old).
    const double rate = newton && !bisected ? fmin(1.0, step / last_step) : 1.0;
    last_step = step;
    j = next;
    if (step * rate <= 1e-13 * (fabs(j) + 1.0) && !bisected) {
      g *= rate;  // the residual the step leaves, to the same estimate
      break;
    }
    if (hi - lo <= 1e-15 * span) {
      f.evaluate(j, g, dg, dbv, true);
      break;
    }
  }
  const double c = f.surface(j);
  const bool ok =
      detail::finite(j) && detail::finite(dg) && dg > 0.0 && c > 0.0 && c < c_max && fabs(g) <= 1e-8 * (fabs(j) + 1.0);
  return {j, ok ? dbv / dg : 0.0, c, ok};
}

}  // namespace voltaic::kinetics
