#pragma once
// The readers of a run config's sections, each filling its part of RunConfig.

#include <toml++/toml.h>

#include "io/config_section.hpp"
#include "voltaic/io/config.hpp"

namespace voltaic::io::detail {

/// Every section of the file; absent ones are empty.
struct ConfigSections {
  ConfigSection cell, overrides, grid, thermal, solver, experiment, output;
};

/// The sections of a file whose names check_names() has accepted.
/// @throws ConfigError when cell.overrides is not a table
ConfigSections sections_of(const toml::table& root, const ConfigSource& source);

/// [cell], [cell.overrides] and the temperatures and cooling of [thermal]:
/// the validated ParameterSet and where it came from.
void read_cell(const ConfigSections& s, RunConfig& config);
/// [grid], the model of [thermal], [solver].
void read_simulation(const ConfigSections& s, RunConfig& config);
/// [experiment]: the steps, each parsed, and the cycles.
void read_experiment(const ConfigSection& experiment, RunConfig& config);
/// [output].
void read_output(const ConfigSection& output, OutputConfig& config);

}  // namespace voltaic::io::detail
