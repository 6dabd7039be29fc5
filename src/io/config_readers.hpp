#pragma once
// The readers of a run config's sections, each filling its part of RunConfig.

#include <toml++/toml.h>

#include <optional>
#include <string>

#include "io/config_section.hpp"
#include "voltaic/io/config.hpp"

namespace voltaic::io::detail {

/// Every section of the file; absent ones are empty.
struct ConfigSections {
  ConfigSection cell, overrides, grid, thermal, degradation, solver, experiment, output;
};

/// The sections of a file whose names check_names() has accepted.
/// @throws ConfigError when cell.overrides is not a table
ConfigSections sections_of(const toml::table& root, const ConfigSource& source);

/// [cell], [cell.overrides] and the temperatures and cooling of [thermal]:
/// the validated ParameterSet and where it came from.
void read_cell(const ConfigSections& s, RunConfig& config);
/// Where [cell.overrides] or [thermal] sets the parameter named `name`.
struct ParameterSetting {
  std::string key;  ///< "cell.overrides.\"...\"", "thermal.ambient_temperature"
  int line;
};
std::optional<ParameterSetting> parameter_setting(const ConfigSections& s, const std::string& name);

/// [grid], the model of [thermal], [solver].
void read_simulation(const ConfigSections& s, RunConfig& config);
/// An isothermal cell is held at the ambient temperature (PyBaMM's
/// convention): a file that gives only the initial temperature means that
/// one, so it becomes the ambient; one that gives both, different, is
/// refused at the initial one. After read_cell and read_simulation.
void resolve_isothermal_temperature(const ConfigSections& s, RunConfig& config);
/// [experiment]: the steps, each parsed, and the cycles.
void read_experiment(const ConfigSection& experiment, RunConfig& config);
/// [output].
void read_output(const ConfigSection& output, OutputConfig& config);

/// A config with a [pack] section given to a reader of one cell or of a
/// sweep (load_config, load_sweep_config).
/// @throws ConfigError at key "pack", naming voltaic pack, when there is one
void refuse_pack(const toml::table& root, const ConfigSource& source);

/// Every section but [sweep] and [pack], names checked first (check_names(), [sweep]'s
/// included), then values section by section.
RunConfig read_run_config(const toml::table& root, const ConfigSource& source);

/// The text of a config file (at most 16 MiB); `where` names the caller in FileErrors.
std::string read_config_file(const std::string& path, const std::string& where);

/// The directory relative paths of the config at `path` start from ("." for a bare name).
std::string directory_of(const std::string& path);

}  // namespace voltaic::io::detail
