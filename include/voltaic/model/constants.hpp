#pragma once
/// @file constants.hpp
/// @brief Physical constants of the model layer (exact SI values, as PyBaMM uses them).

namespace voltaic {

/// Faraday constant N_A e [C/mol].
inline constexpr double kFaraday = 96485.33212331001;
/// Molar gas constant N_A k_B [J/(mol K)].
inline constexpr double kGasConstant = 8.31446261815324;
/// Temperature at which the published Arrhenius fits give their reference
/// values [K]. It is part of each fit, like the activation energy, and does
/// not follow ThermalParameters::reference_temperature (PyBaMM's fits behave
/// the same way).
inline constexpr double kArrheniusReferenceTemperature = 298.15;

}  // namespace voltaic
