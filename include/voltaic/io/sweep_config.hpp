#pragma once
/// @file sweep_config.hpp
/// @brief SweepRunConfig: a run config plus a [sweep] section saying which
/// parameters vary from cell to cell, read for `voltaic sweep` (docs/config.md,
/// [sweep]). The cells are enumerated or drawn here, reproducibly: the same
/// file gives the same cells on every platform.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "voltaic/io/config.hpp"
#include "voltaic/solver/batch_simulation.hpp"

namespace voltaic::io {

/// The most cells a sweep may have (grid products, samples, table rows).
constexpr std::uint64_t kMaxSweepCells = 10'000'000;

/// [sweep]: how the cells' parameters were chosen, and the cells.
struct SweepConfig {
  enum class Method {
    list,             ///< cell i takes entry i of every parameter's values
    grid,             ///< every combination of the values, the first parameter varying slowest
    random,           ///< independent draws from each parameter's distribution
    latin_hypercube,  ///< one draw per stratum of each parameter, strata paired at random
    table,            ///< the rows of a CSV file
  };
  Method method = Method::list;
  std::uint64_t seed = 1;  ///< random, latin_hypercube
  std::string table_path;  ///< table: the CSV file, joined to the config's directory
  /// One entry per cell; names in the file's order (table: the header's).
  /// Values are finite but not checked against the parameters' ranges: a
  /// cell with a non-physical value fails in the batch, not here.
  CellParameters cells;
  /// Each cell's number in the whole sweep when `voltaic sweep --cells` kept
  /// only some (select_cells, cell_selection.hpp); empty: cell i is number i.
  std::vector<std::size_t> numbers;
  std::size_t total_cells = 0;  ///< the whole sweep's cells when some were kept, else 0

  /// Cell i's number in the whole sweep.
  std::size_t number(std::size_t i) const { return numbers.empty() ? i : numbers[i]; }
};

struct SweepRunConfig {
  RunConfig run;  ///< everything but [sweep], as load_config reads it
  SweepConfig sweep;
};

/// Reads and checks a sweep config: what load_config accepts, plus [sweep]
/// (required). Names are checked first ([sweep]'s too), then the values of
/// the other sections as load_config does, then [sweep]. A config with a
/// [pack] section is refused (at key "pack"): its cells are a pack's, for
/// load_pack_config (pack_config.hpp) and `voltaic pack`.
/// @throws FileError when the config file itself cannot be read
/// @throws ConfigError for everything in it, the table file of method "table"
///         included (reported at sweep.table, with the file's own line)
SweepRunConfig load_sweep_config(const std::string& path);

/// The same from TOML text; `origin` names it in errors, `base_dir` resolves relative paths.
/// @throws ConfigError
SweepRunConfig parse_sweep_config(const std::string& toml_text, const std::string& origin,
                                  const std::string& base_dir = ".");

/// "list", "grid", "random", "latin_hypercube", "table": as the config writes it.
const char* to_string(SweepConfig::Method m);

}  // namespace voltaic::io
