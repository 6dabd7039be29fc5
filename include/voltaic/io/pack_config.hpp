#pragma once
/// @file pack_config.hpp
/// @brief PackRunConfig: a run config plus a [pack] section wiring Np x Ns
/// 1D cells into a pack (and [pack.thermal], its thermal network), read for
/// `voltaic pack` (docs/config.md, [pack]). With a [sweep] section the
/// cells differ, one sweep cell per pack cell (k = s Np + p); without one
/// they are identical.

#include <string>

#include "voltaic/io/config.hpp"
#include "voltaic/solver/batch_simulation.hpp"
#include "voltaic/solver/pack.hpp"

namespace voltaic::io {

struct PackRunConfig {
  RunConfig run;  ///< everything but [pack] and [sweep], as load_config reads it
  PackLayout layout;
  /// cell: run.simulation; the pack's voltage cut-offs (NaN when not
  /// given); thermal: [pack.thermal].
  PackOptions options;
  /// The cells' own parameters: [sweep]'s cells, Np Ns of them, or none
  /// (identical cells).
  CellParameters cells;
};

/// Reads and checks a pack config: what load_config accepts, plus [pack]
/// (required), [pack.thermal] and [sweep] (optional). Names are checked
/// first (those of [pack], [pack.thermal] and [sweep] too), then the other
/// sections' values as load_config reads them, then that the cells are 1D
/// (as a sweep's), then [pack], [pack.thermal] and [sweep], whose cells must
/// number Np x Ns.
/// @throws FileError when the config file itself cannot be read
/// @throws ConfigError for everything in it
PackRunConfig load_pack_config(const std::string& path);

/// The same from TOML text; `origin` names it in errors, `base_dir` resolves relative paths.
/// @throws ConfigError
PackRunConfig parse_pack_config(const std::string& toml_text, const std::string& origin,
                                const std::string& base_dir = ".");

}  // namespace voltaic::io
