#pragma once
/// @file electrode_soh.hpp
/// @brief The electrode state of health, as PyBaMM's ElectrodeSOHSolver
/// ("Capacity [A.h]" of its summary variables): from the electrodes'
/// capacities and the cyclable lithium, the stoichiometry window between the
/// open-circuit voltages that define 0% and 100% SOC, at the reference
/// temperature.

namespace voltaic {

struct ParameterSet;

/// The stoichiometries at 0% and 100% SOC and the capacity between them.
struct ElectrodeSoh {
  double x_0 = 0, x_100 = 0;  ///< negative electrode
  double y_0 = 0, y_100 = 0;  ///< positive electrode
  double capacity_ah = 0;     ///< "Capacity [A.h]": Q_n (x_100 - x_0)
};

/// "Negative electrode capacity [A.h]" and "Positive electrode capacity
/// [A.h]": eps_s L A c_max F / 3600 (A the electrode area).
double negative_electrode_capacity(const ParameterSet& p);
double positive_electrode_capacity(const ParameterSet& p);
/// The particles' lithium [mol] of the set's initial state.
double initial_particle_lithium(const ParameterSet& p);

/// Solves PyBaMM's two pairs of equations
///   n_Li F / 3600 = Q_n x_100 + Q_p y_100,  U_p(y_100) - U_n(x_100) = V_100
///   Q_n (x_100 - x_0) = Q_p (y_0 - y_100),  U_p(y_0) - U_n(x_0) = V_0
/// (V_100, V_0: "Open-circuit voltage at 100% / 0% SOC [V]"; the OCPs at the
/// reference temperature), each by bisection on a monotone residual.
/// @throws InvalidArgument naming the lithium when no window holds it (too
///         little or too much for the electrodes)
ElectrodeSoh electrode_soh(const ParameterSet& p, double particle_lithium_mol);

}  // namespace voltaic
