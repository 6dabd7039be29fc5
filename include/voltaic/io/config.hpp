#pragma once
/// @file config.hpp
/// @brief RunConfig: a simulation as a TOML file describes it ([cell],
/// [grid], [thermal], [solver], [experiment], [output]; docs/config.md lists
/// every key with its unit, default and allowed range).

#include <string>
#include <vector>

#include "voltaic/core/error.hpp"
#include "voltaic/model/parameter_set.hpp"
#include "voltaic/solver/experiment.hpp"
#include "voltaic/solver/simulation_options.hpp"

namespace voltaic::io {

/// A config that cannot be used. what_failed() is the key ("grid.nx",
/// "cell.overrides.\"Negative electrode thickness [m]\"", or "syntax" and
/// "file" for problems of the text itself); why() says what is wrong and what
/// is allowed (the nearest valid key for an unknown one); where() is
/// "FILE:LINE". what() is one line, "FILE:LINE: KEY: WHY": control characters
/// (a newline inside a TOML string, say) are written as escapes.
class ConfigError : public InvalidArgument {
 public:
  /// @param file the config's path (or the origin given to parse_config)
  /// @param line from 1: the line of the offending key or value (of the
  ///        section, or 1, for something missing)
  ConfigError(const std::string& file, int line, const std::string& key, const std::string& why);
  const char* what() const noexcept override { return message_.c_str(); }
  const std::string& file() const noexcept { return file_; }
  int line() const noexcept { return line_; }

 private:
  std::string file_;
  int line_;
  std::string message_;
};

enum class BackendChoice { automatic, cpu, cuda };

/// [output]
struct OutputConfig {
  std::string directory = "voltaic-output";  ///< relative to the working directory
  std::vector<double> field_times;           ///< [s]: fields stored at these times ...
  double field_period = 0.0;                 ///< [s]: ... and every period (0: none)
  /// Field keys (field_catalog() in field_catalog.hpp); empty: every field.
  std::vector<std::string> fields;
  double checkpoint_period = 0.0;  ///< [s] of simulated time between checkpoints (0: none)
};

/// A whole run.
struct RunConfig {
  std::string path;  ///< the config file ("" when parsed from text)
  /// A built-in set's name as PyBaMM spells it ("Chen2020"), or the BPX file's
  /// path joined to the config's directory.
  std::string cell_source;
  ParameterSet parameters;       ///< the cell with the overrides applied, validated
  SimulationOptions simulation;  ///< grid, thermal model, step control, tolerances (field_times left empty)
  BackendChoice backend = BackendChoice::automatic;
  std::vector<std::string> experiment_steps;  ///< as PyBaMM writes them
  int cycles = 1;
  CycleTermination termination;  ///< [experiment] termination (PyBaMM's)
  CycleSaving saving;            ///< [experiment] save_at_cycles
  /// [experiment.drive_cycles]: the tables "Run NAME (A)" steps name, loaded
  /// and checked, by the name the config gives them.
  DriveCycles drive_cycles;
  OutputConfig output;

  Experiment experiment() const {
    Experiment e(experiment_steps, cycles, drive_cycles);
    e.set_termination(termination);
    e.set_saving(saving);
    return e;
  }
};

/// Reads and checks a config file; a BPX path in [cell] is relative to the
/// config's directory. Reports the first problem: names that are not known
/// (sections, keys, parameters) first, in the order of the file, then values
/// section by section. Reads files only: it creates nothing (not the output
/// directory either).
/// @throws FileError when the config file itself cannot be read
/// @throws ConfigError for everything in it, including a BPX file that is
///         missing or that load_bpx rejects (its BpxError or FileError is
///         reported at the key cell.bpx), a drive-cycle file of
///         [experiment.drive_cycles] that load_drive_cycle rejects (reported at
///         its key) and experiment steps that do not parse or name a table
///         that is not declared
RunConfig load_config(const std::string& path);

/// The same, from TOML text; `origin` names it in errors, `base_dir` resolves relative paths.
/// Both refuse a config with a [sweep] section (a ConfigError at key "sweep"):
/// that is one for load_sweep_config (sweep_config.hpp) and `voltaic sweep`;
/// and one with a [pack] section (at key "pack"), which is one for
/// load_pack_config (pack_config.hpp) and `voltaic pack`.
/// @throws ConfigError (a BPX or drive-cycle file that cannot be read included)
RunConfig parse_config(const std::string& toml_text, const std::string& origin, const std::string& base_dir = ".");

/// Every key the parsers accept, as "section.key" ("grid.nx",
/// "cell.overrides" for the table of parameter overrides), in the order
/// docs/config.md lists them; those of [pack] and [pack.thermal]
/// (load_pack_config's only) and of [sweep] (load_sweep_config's and
/// load_pack_config's) last, a swept parameter's keys as
/// "sweep.parameters.NAME.values".
std::vector<std::string> config_keys();

}  // namespace voltaic::io
