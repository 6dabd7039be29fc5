#pragma once
/// @file lumped_thermal.hpp
/// @brief The lumped (0D) thermal model, as PyBaMM's "lumped" option defines it:
/// one temperature for the whole cell,
///
///   C dT/dt = Q - hA (T - T_amb),
///
/// C = rho c_p V of the cell [J/K] (PyBaMM: the thickness-weighted mean of
/// rho c_p over collectors, electrodes and separator, times the cell volume),
/// hA the cooling conductance [W/K] (h times the cooled area), Q the total heat
/// generated [W].

#include "voltaic/model/parameter_set.hpp"

namespace voltaic {

/// C of a parameter set [J/K]: rho c_p thickness-weighted over collectors,
/// electrodes and separator, times the cell volume (PyBaMM's lumped model).
double lumped_heat_capacity(const ParameterSet& p);

class LumpedThermal {
 public:
  /// @throws InvalidArgument unless heat_capacity > 0, cooling >= 0, ambient > 0 (all finite)
  LumpedThermal(double heat_capacity, double cooling, double ambient);

  /// Backward Euler: the temperature after dt [s] from `temperature` [K] with
  /// `heat` [W] generated during the step. Unconditionally stable; the energy
  /// balance C (T_new - T) = dt (heat - hA (T_new - T_amb)) holds to rounding.
  double step(double temperature, double heat, double dt) const;

  /// Heat removed by cooling at `temperature` [W].
  double cooling_power(double temperature) const { return cooling_ * (temperature - ambient_); }

  double heat_capacity() const { return heat_capacity_; }
  double cooling() const { return cooling_; }
  double ambient() const { return ambient_; }

 private:
  double heat_capacity_, cooling_, ambient_;
};

}  // namespace voltaic
