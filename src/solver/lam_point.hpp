#pragma once
// Loss of active material, per node, as PyBaMM 26.10.1.1 writes it
// (submodels/active_material/loss_active_material.py, particle_mechanics/
// base_mechanics.py "swelling only"; Reniers et al. 2019, Ai et al. 2020;
// docs/theory.md "Loss of active material"):
//
//   sigma_t = Omega E (c_rav - c_surf) / (3 (1 - nu))   (the surface's tangential stress; radial 0)
//   sigma_h = 2 sigma_t / 3                              (hydrostatic; compressive stress does nothing)
//   d eps_s/dt = -beta (max(sigma_h, 0) / sigma_c)^m     ("stress-driven")
//              + beta_sei a j_sei / F                    ("reaction-driven": the SEI's current)
//   d LLI/dt   = -c_rav d eps_s/dt                       (lithium of the lost material, per volume)
//
// The program keeps f = eps_s / eps_s0 per node: the surface a = a0 f, so
// that f = 1 leaves every product with a0 as it was.

#include <cmath>

#include "voltaic/core/macros.hpp"
#include "voltaic/model/constants.hpp"

namespace voltaic::lam {

/// One electrode's constants (trivially copyable, for kernels).
struct Electrode {
  bool stress = false, reaction = false;
  double beta = 0;          ///< beta_LAM [1/s]
  double m = 1;             ///< m_LAM
  double per_sigma_c = 0;   ///< 1 / sigma_c [1/Pa]
  double stress_per_c = 0;  ///< Omega E / (3 (1 - nu)) [Pa m^3/mol]
  double beta_sei = 0;      ///< beta_LAM_sei [m^3/mol]
  double eps0 = 1;          ///< eps_s at t = 0

  VOLTAIC_HD bool on() const { return stress || reaction; }
};

/// Both electrodes' (negative, positive).
struct Constants {
  Electrode e[2];
  VOLTAIC_HD bool on() const { return e[0].on() || e[1].on(); }
};

/// The surface's tangential stress [Pa] of a particle whose mean is c_rav and surface c_surf.
VOLTAIC_HD inline double tangential_stress(const Electrode& e, double c_rav, double c_surf) {
  return e.stress_per_c * (c_rav - c_surf);
}

/// x^m, by multiplications when m is a small whole number (OKane2022's 2):
/// the same bits on a CPU and a GPU, whose pow() may round apart.
VOLTAIC_HD inline double power(double x, double m) {
  if (m == floor(m) && m >= 1.0 && m <= 8.0) {
    double y = x;
    for (int i = 1; i < static_cast<int>(m); ++i) y = y * x;
    return y;
  }
  return pow(x, m);
}

/// d f / dt [1/s] of the active fraction f = eps_s / eps_s0 at one node.
/// aj_sei: a j_sei there [A/m^3] (0 where no film grows).
VOLTAIC_HD inline double rate(const Electrode& e, double c_rav, double c_surf, double aj_sei) {
  double d_eps = 0.0;
  if (e.stress) {
    const double sigma_h = 2.0 * tangential_stress(e, c_rav, c_surf) / 3.0;
    if (sigma_h > 0.0) d_eps = -e.beta * power(sigma_h * e.per_sigma_c, e.m);
  }
  if (e.reaction) d_eps += e.beta_sei * aj_sei / kFaraday;
  return d_eps / e.eps0;
}

}  // namespace voltaic::lam
