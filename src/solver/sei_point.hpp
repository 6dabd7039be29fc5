#pragma once
// SEI growth on the negative particles, per node, as PyBaMM 26.10.1.1 writes
// it (submodels/interface/sei/sei_growth.py, sei_thickness.py and the film
// term of kinetics/base_kinetics.py; docs/theory.md "SEI growth"):
//
//   L_sei   = c_sei V_bar / a                     (c_sei [mol/m^3] of electrode)
//   eta_SEI = (phi_s - phi_e) - U_sei - j L_sei R_sei   (j: the intercalation's)
//   dc_sei/dt = -a j_sei / (F z_sei)
//   j_tot   = j + j_sei, the intercalation's overpotential less j_tot L_sei R_sei
//             when the film resistance is "distributed"
//
// j_tot carries the charge balances and the electrolyte's source; j alone
// the particles' flux. Every exp is pmath::exp (a CPU and a GPU give the
// same bits).

#include <cmath>

#include "voltaic/core/macros.hpp"
#include "voltaic/model/constants.hpp"
#include "voltaic/model/portable_exp.hpp"
#include "voltaic/solver/degradation_options.hpp"

namespace voltaic::sei {

/// One cell's SEI constants (trivially copyable, for kernels).
struct Constants {
  SeiModel model = SeiModel::none;
  bool film = false;                      ///< the film's drop in the intercalation overpotential
  double j0 = 0, u = 0, resistivity = 0;  ///< [A/m^2], [V], [Ohm m]
  double alpha = 0.5;                     ///< transfer coefficient of eta_SEI
  double c_to_l = 0;                      ///< V_bar / a of the negative electrode [m^4/mol]
  double z = 0;                           ///< lithium moles per SEI mole
  double activation = 0;                  ///< E_sei / R [K]
  double reference_temperature = 0;       ///< [K]
  double solvent = 0;                     ///< D_sol c_sol F [A/m]
  double interstitial = 0;                ///< D_li c_li0 F [A/m]
  double k = 0, d_ec = 0, c_ec = 0;       ///< k_sei [m/s], D_ec [m^2/s], c_ec0 [mol/m^3]
  double c0 = 0;                          ///< initial c_sei [mol/m^3]

  VOLTAIC_HD bool on() const { return model != SeiModel::none; }
  /// Whether the film grows (a "constant" film does not).
  VOLTAIC_HD bool grows() const { return model != SeiModel::none && model != SeiModel::constant; }
};

/// Exponents are capped here: a far iterate of a solve (never a root) must
/// not overflow to inf and poison the next with NaN.
constexpr double kLargestExponent = 300.0;

/// j_sei [A/m^2] and its derivatives in (phi_s - phi_e) at fixed j, and in j.
struct Rate {
  double j, d_dphi, d_main;
};

/// The SEI reaction's current at one node (film thickness L [m], T [K]).
VOLTAIC_HD inline Rate growth(const Constants& s, double dphi, double j_main, double L, double T) {
  const double f = kFaraday / (kGasConstant * T);
  const double arrhenius =
      s.activation == 0.0 ? 1.0 : pmath::exp(s.activation * (1.0 / s.reference_temperature - 1.0 / T));
  const double eta = dphi - s.u - j_main * L * s.resistivity;
  switch (s.model) {
    case SeiModel::reaction_limited:
    case SeiModel::reaction_limited_asymmetric: {
      const double j = -arrhenius * s.j0 * pmath::exp(fp::min(-s.alpha * f * eta, kLargestExponent));
      return {j, -s.alpha * f * j, s.alpha * f * L * s.resistivity * j};
    }
    case SeiModel::solvent_diffusion_limited: return {-arrhenius * s.solvent / L, 0.0, 0.0};
    case SeiModel::interstitial_diffusion_limited: {
      const double j = -arrhenius * s.interstitial / L * pmath::exp(fp::min(-f * dphi, kLargestExponent));
      return {j, -f * j, 0.0};
    }
    case SeiModel::ec_reaction_limited:
    case SeiModel::ec_reaction_limited_asymmetric: {
      const double k = s.k * pmath::exp(fp::min(-s.alpha * f * eta, kLargestExponent));
      const double q = 1.0 + L * k / s.d_ec;
      const double j = -arrhenius * kFaraday * s.c_ec * k / q;
      const double d_eta = -s.alpha * f * j / q;  // dj/deta: dj/dk dk/deta
      return {j, d_eta, -L * s.resistivity * d_eta};
    }
    case SeiModel::none:
    case SeiModel::constant: break;
  }
  return {0.0, 0.0, 0.0};
}

}  // namespace voltaic::sei
