#pragma once
// [sweep] as `voltaic sweep` reads it, for the other configs whose cells it
// gives (load_pack_config): one reader, so that a pack's cells are a sweep's.

#include <toml++/toml.h>

#include <string>

#include "io/config_section.hpp"
#include "voltaic/io/sweep_config.hpp"

namespace voltaic::io::detail {

/// [sweep] of `root`: its method and its cells, enumerated, drawn or read
/// from its table. `run` is the rest of the config (read_run_config), whose
/// cell is the base of the cells.
/// @throws ConfigError for everything in [sweep], and when there is none
SweepConfig read_sweep(const toml::table& root, const ConfigSource& source, const RunConfig& run);

/// Cells that run as 1D cells (a sweep's, a pack's): a grid with nx or ny
/// above 1, potential-pair collectors or the 3D heat model are refused at
/// their key, the message saying "(WHOSE cells are 1D; ...)".
/// @throws ConfigError
void check_one_dimensional(const toml::table& root, const ConfigSource& source, const RunConfig& run,
                           const std::string& whose);

}  // namespace voltaic::io::detail
