#pragma once
// PyBaMM's SEI parameters, the same in its Chen2020 and Marquis2019 sets
// (used only by a degradation model; checked against PyBaMM by tests/model).

#include "voltaic/model/parameter_set.hpp"

namespace voltaic::parameter_sets {

inline SeiParameters pybamm_sei() {
  SeiParameters s;
  s.exchange_current_density = 1.5e-07;
  s.open_circuit_potential = 0.4;
  s.resistivity = 200000.0;
  s.partial_molar_volume = 9.585e-05;
  s.lithium_moles_ratio = 2.0;
  s.initial_thickness = 5e-09;
  s.activation_energy = 0.0;
  s.solvent_diffusivity = 2.5e-22;
  s.bulk_solvent_concentration = 2636.0;
  s.interstitial_diffusivity = 1e-20;
  s.interstitial_concentration = 15.0;
  s.ec_diffusivity = 2e-18;
  s.ec_concentration = 4541.0;
  s.kinetic_rate_constant = 1e-12;
  s.electron_conductivity = 8.95e-14;
  return s;
}

}  // namespace voltaic::parameter_sets
