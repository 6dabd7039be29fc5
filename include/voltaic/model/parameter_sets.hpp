#pragma once
/// @file parameter_sets.hpp
/// @brief The published parameter sets, validated, by function or by name.

#include <string>
#include <vector>

#include "voltaic/model/parameter_set.hpp"

namespace voltaic::parameter_sets {

/// LG M50 21700 (NMC811 / graphite-SiOx), Chen et al., J. Electrochem. Soc.
/// 167 (2020) 080534, with every value as PyBaMM's "Chen2020" holds it
/// (thermal properties and cooling as PyBaMM adds them).
ParameterSet chen2020();

/// Kokam SLPB78205130H (LiCoO2 / graphite), Marquis et al., J. Electrochem.
/// Soc. 166 (2019) A3693, as PyBaMM's "Marquis2019" (mostly Dualfoil values).
ParameterSet marquis2019();

/// The LG M50 21700 of Chen2020 as O'Kane et al., Phys. Chem. Chem. Phys. 24
/// (2022) 7909, parameterise it for ageing, as PyBaMM's "OKane2022": the
/// measured graphite OCP through a cubic spline, Bruggeman coefficients
/// (electrode) 1.5, Arrhenius temperature dependence of the particle and
/// electrolyte transport, its SEI and lithium-plating values (its mechanics,
/// cracking and loss of active material are not modelled and left out).
ParameterSet okane2022();

/// The set called `name` ("Chen2020", "Marquis2019", "OKane2022"; case-insensitive).
/// @throws InvalidArgument listing the available sets if there is none
ParameterSet by_name(const std::string& name);

/// Names by_name() accepts, as PyBaMM spells them.
std::vector<std::string> parameter_set_names();

}  // namespace voltaic::parameter_sets
