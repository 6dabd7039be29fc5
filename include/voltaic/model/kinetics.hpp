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
VOLTAIC_HD inline Reaction butler_volmer(const ElectrodeParameters& e, double reference_temperature, double phi_s,
                                         double phi_e, double c_e, double c_surf, double T) {
  const double ocp = material::open_circuit_potential(e, c_surf / e.maximum_concentration, T, reference_temperature);
  const double eta = phi_s - phi_e - ocp;
  const double j0 = material::exchange_current_density(e, c_e, c_surf, T);
  const double f = kFaraday / (kGasConstant * T);
  const double alpha = e.charge_transfer_coefficient;
  const double forward = exp(alpha * f * eta), backward = exp(-(1.0 - alpha) * f * eta);
  return {j0 * (forward - backward), j0 * f * (alpha * forward + (1.0 - alpha) * backward), eta, ocp};
}

}  // namespace voltaic::kinetics
