#pragma once
// The names a run config may use: its sections and their keys. One list, so
// that the check for unknown names, config_keys() and the docs test agree.

#include <toml++/toml.h>

#include <string>
#include <vector>

#include "io/config_section.hpp"

namespace voltaic::io::detail {

struct SectionSchema {
  std::string name;               ///< "grid"
  std::vector<std::string> keys;  ///< "nx", ...; "overrides" of [cell] is a table
};

/// Every section, in the order the reader checks their values.
const std::vector<SectionSchema>& config_schema();

/// The key of [cell] whose table holds parameter overrides by PyBaMM name.
inline const std::string kOverridesKey = "overrides";

/// The key of [sweep] whose table holds the swept parameters by PyBaMM name.
inline const std::string kSweepParametersKey = "parameters";
/// The keys of one swept parameter's table, [sweep.parameters."NAME"].
const std::vector<std::string>& sweep_parameter_keys();

/// [pack], its key whose table is the thermal network, [pack.thermal]'s
/// keys and those of each of its links ({a = 0, b = 1, conductance = 0.5}).
inline const std::string kPackSection = "pack";
inline const std::string kPackThermalKey = "thermal";
inline const std::string kPackThermalSection = "pack.thermal";
const std::vector<std::string>& pack_thermal_keys();
const std::vector<std::string>& pack_link_keys();

/// Why `name` is not a parameter a config can set: a material function, or
/// unknown (with the nearest parameter's name); "" when it is one.
std::string not_a_parameter(const std::string& name);

/// Finds the first name (in the file's order) that the config may not use: an
/// unknown section or key, a section given as a value, a top-level key, an
/// override or swept parameter that names no parameter, a key of a swept
/// parameter's table, of [pack.thermal] or of one of its links. Suggests the nearest valid name.
/// @throws ConfigError for it
void check_names(const toml::table& root, const ConfigSource& source);

}  // namespace voltaic::io::detail
