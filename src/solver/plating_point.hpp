#pragma once
// Lithium plating on the negative particles, per node, as PyBaMM 26.10.1.1
// writes it (submodels/interface/lithium_plating/plating.py, O'Kane et al.
// 2020 and 2022; docs/theory.md "Lithium plating"):
//
//   eta   = (phi_s - phi_e) - j_tot L_sei R_sei   (the film's drop when it applies)
//   j_pl  = j0_s exp(F (1 - alpha) eta / RT) - j0_p exp(-F alpha eta / RT)   (< 0 plates)
//           ("irreversible": the plating term only)
//   j0_p  = F k c_e,  j0_s = F k c_pl                (OKane2020's exchange currents)
//   dc_pl/dt   = -a j_pl / F - gamma c_pl,  dc_dead/dt = gamma c_pl
//   gamma = gamma_0 L_sei_0 / L_sei ("partially reversible"; 0 for "reversible";
//           "irreversible" sends all of -a j_pl / F to c_dead)
//
// j_pl joins j_tot (the charge balances and the electrolyte's source); the
// particles see only the intercalation's j. Every exp is pmath::exp.

#include <cmath>

#include "voltaic/core/macros.hpp"
#include "voltaic/model/constants.hpp"
#include "voltaic/model/portable_exp.hpp"
#include "voltaic/solver/degradation_options.hpp"

namespace voltaic::plating {

/// One cell's plating constants (trivially copyable, for kernels).
struct Constants {
  PlatingModel model = PlatingModel::none;
  double alpha = 0.5;  ///< plating transfer coefficient (stripping: 1 - alpha)
  double fk = 0;       ///< F k_plating [A m/mol]: j0 = fk c
  double c0 = 0;       ///< initial plated concentration [mol/m^3]
  double scale = 1;    ///< typical plated concentration [mol/m^3], the error test's scale
  double decay_l = 0;  ///< gamma_0 L_sei_0 [m/s]: gamma = decay_l / L_sei
  double c_to_l = 0;   ///< V_bar_Li / a of the negative electrode [m^4/mol] (the plated layer's thickness)

  VOLTAIC_HD bool on() const { return model != PlatingModel::none; }
};

/// Exponents are capped (as sei::kLargestExponent): a far iterate must not overflow.
constexpr double kLargestExponent = 300.0;

/// j_pl [A/m^2] and its derivative in eta.
struct Rate {
  double j, d_eta;
};

/// The plating (stripping, when positive) current at one node: eta the
/// stripping overpotential [V], c_e and c_pl [mol/m^3], T [K].
VOLTAIC_HD inline Rate rate(const Constants& p, double eta, double c_e, double c_pl, double T) {
  const double f = kFaraday / (kGasConstant * T);
  const double j0_p = p.fk * fp::max(c_e, 0.0);
  const double plate = -j0_p * pmath::exp(fp::min(-p.alpha * f * eta, kLargestExponent));
  const double d_plate = -p.alpha * f * plate;
  if (p.model == PlatingModel::irreversible) return {plate, d_plate};
  const double beta = 1.0 - p.alpha;
  const double strip = p.fk * fp::max(c_pl, 0.0) * pmath::exp(fp::min(beta * f * eta, kLargestExponent));
  return {strip + plate, beta * f * strip + d_plate};
}

/// The decay rate gamma [1/s] of plated into dead lithium under a film L_sei [m].
VOLTAIC_HD inline double decay(const Constants& p, double L_sei) {
  return p.model == PlatingModel::partially_reversible ? p.decay_l / L_sei : 0.0;
}

}  // namespace voltaic::plating
