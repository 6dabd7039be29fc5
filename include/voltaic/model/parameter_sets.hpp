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

/// The set called `name` ("Chen2020", "Marquis2019"; case-insensitive).
/// @throws InvalidArgument listing the available sets if there is none
ParameterSet by_name(const std::string& name);

/// Names by_name() accepts, as PyBaMM spells them.
std::vector<std::string> parameter_set_names();

}  // namespace voltaic::parameter_sets
