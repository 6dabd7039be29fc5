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
#include "voltaic/model/kinetics.hpp"
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
      const double j = -arrhenius * s.j0 * pmath::exp(fmin(-s.alpha * f * eta, kLargestExponent));
      return {j, -s.alpha * f * j, s.alpha * f * L * s.resistivity * j};
    }
    case SeiModel::solvent_diffusion_limited: return {-arrhenius * s.solvent / L, 0.0, 0.0};
    case SeiModel::interstitial_diffusion_limited: {
      const double j = -arrhenius * s.interstitial / L * pmath::exp(fmin(-f * dphi, kLargestExponent));
      return {j, -f * j, 0.0};
    }
    case SeiModel::ec_reaction_limited:
    case SeiModel::ec_reaction_limited_asymmetric: {
      const double k = s.k * pmath::exp(fmin(-s.alpha * f * eta, kLargestExponent));
      const double q = 1.0 + L * k / s.d_ec;
      const double j = -arrhenius * kFaraday * s.c_ec * k / q;
      const double d_eta = -s.alpha * f * j / q;  // dj/deta: dj/dk dk/deta
      return {j, d_eta, -L * s.resistivity * d_eta};
    }
    case SeiModel::none: break;
  }
  return {0.0, 0.0, 0.0};
}

/// The reactions of one negative node: j_tot = j(dphi - j_tot L R) + j_sei.
struct FilmReaction {
  double j_tot, j_sei;  ///< [A/m^2]
  double d_tot;         ///< d j_tot / d(phi_s - phi_e), the film's drop and the particle's response included
  double d_main;        ///< d j / d(phi_s - phi_e), likewise
  double c_surf;
  bool ok;
};

/// Solves the node's total current: g(J) = J - j(dphi - J L R) - j_sei = 0,
/// each j the particle's implicit Butler-Volmer at the film-shifted
/// overpotential; without the film's drop, one evaluation. eta_SEI falls
/// as j rises (its own film term), so below some J the SEI current runs
/// away (dj_sei/dj < -1) and g turns back up: a second, unphysical root.
/// Above that point g' = 1 + (1 + dj_sei/dj) dj/deta L R >= 1, so a value
/// g(J) there brackets the physical root in [J - g, J] or [J, J - g]; a
/// value on the runaway side puts the root above J. Newton inside the
/// bracket, bisection when it leaves it.
/// `guess_tot`, `guess_main`: the last solve's currents [A/m^2].
VOLTAIC_HD inline FilmReaction film_reaction(const Constants& s, const ElectrodeParameters& e, double t_ref,
                                             double phi_s, double phi_e, double c_e,
                                             const kinetics::SurfaceResponse& surface, double T, double c_e_scale,
                                             double L, double guess_tot, double guess_main) {
  const double lr = s.film ? L * s.resistivity : 0.0;
  double j_tot = guess_tot, main = guess_main, lo = -INFINITY, hi = INFINITY;
  for (int it = 0; it < 100; ++it) {
    const kinetics::ImplicitReaction x =
        kinetics::butler_volmer_implicit(e, t_ref, phi_s - j_tot * lr, phi_e, c_e, surface, T, c_e_scale, main);
    if (!x.ok) return {NAN, NAN, 0.0, 0.0, x.c_surf, false};
    const Rate r = growth(s, phi_s - phi_e, x.j, L, T);
    const double g = j_tot - x.j - r.j;
    const bool physical = 1.0 + r.d_main > 0.0 && g - g == 0.0;
    const double tolerance = 1e-13 * (fabs(j_tot) + 1.0);
    if (lr == 0.0 || (physical && (fabs(g) <= tolerance || hi - lo <= tolerance))) {
      // d j_tot = (1 + S_m) D (d dphi - lr d j_tot) + S_d d dphi
      const double dm = (1.0 + r.d_main) * x.dj;
      const double d_tot = (dm + r.d_dphi) / (1.0 + dm * lr);
      const bool ok = lr == 0.0 || fabs(g) <= 1e-8 * (fabs(j_tot) + 1.0);
      return {x.j + r.j, r.j, d_tot, x.dj * (1.0 - lr * d_tot), x.c_surf, ok};
    }
    double next;
    if (!physical) {  // the runaway side: the root is above
      lo = j_tot;
      next = hi < INFINITY ? 0.5 * (lo + hi) : j_tot + fabs(j_tot) + 1.0;
    } else {
      if (g > 0.0) {
        hi = j_tot;
        lo = fmax(lo, j_tot - g);
      } else {
        lo = j_tot;
        hi = fmin(hi, j_tot - g);
      }
      next = j_tot - g / (1.0 + (1.0 + r.d_main) * x.dj * lr);
      if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
      main = x.j;
    }
    if (hi - lo <= tolerance) return {NAN, NAN, 0.0, 0.0, x.c_surf, false};
    j_tot = next;
  }
  return {NAN, NAN, 0.0, 0.0, 0.0, false};
}

}  // namespace voltaic::sei
