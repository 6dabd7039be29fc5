#pragma once
// Stress-induced diffusion, per particle face, as PyBaMM 26.10.1.1 writes it
// (submodels/particle/base_particle.py, Ai et al. 2020 eq. 12; docs/theory.md
// "Stress-induced diffusion"):
//
//   D_eff = D (1 + theta_M (c - c_0)),  theta_M = Omega / (R T) 2 Omega E / (9 (1 - nu))
//
// PyBaMM takes D_eff at the shell centres and its arithmetic mean on a face;
// with D one value per particle that mean is D (1 + theta_M (mean(c) - c_0)).
// The program lags c by one pass of the split (the factor from the pass
// before's shells; the step's first pass from the last accepted step), so
// each pass's particle step stays linear and its surface response exact.

#include "voltaic/core/macros.hpp"
#include "voltaic/model/constants.hpp"

namespace voltaic::stress_diffusion {

/// One electrode's constants (trivially copyable, for kernels).
struct Electrode {
  bool on = false;
  double theta_t = 0;  ///< theta_M T = Omega 2 Omega E / (9 (1 - nu) R) [K m^3/mol]
  double c0 = 0;       ///< c_0, free of deformation [mol/m^3]
};

/// Both electrodes' (negative, positive).
struct Constants {
  Electrode e[2];
  VOLTAIC_HD bool on() const { return e[0].on || e[1].on; }
};

/// theta_M T of an electrode of partial molar volume Omega [m^3/mol], Young's
/// modulus E [Pa] and Poisson's ratio nu.
inline double theta_times_temperature(double omega, double youngs_modulus, double poisson_ratio) {
  return omega * (2.0 * omega * youngs_modulus) / (9.0 * (1.0 - poisson_ratio)) / kGasConstant;
}

/// The factor 1 + theta_M (c - c_0) on the face between shells of c_a and c_b, at T [K].
VOLTAIC_HD inline double face_factor(const Electrode& e, double T, double c_a, double c_b) {
  return 1.0 + e.theta_t / T * (0.5 * (c_a + c_b) - e.c0);
}

}  // namespace voltaic::stress_diffusion
