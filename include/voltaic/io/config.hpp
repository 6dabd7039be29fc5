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
#include "voltaic/solver/simulation.hpp"

namespace voltaic::io {

/// A config that cannot be used. what_failed() is the key ("grid.nx",
/// "cell.overrides.\"Negative electrode thickness [m]\"") or the file; why()
/// says what is wrong and what is allowed (the nearest valid key for an
/// unknown one). The message is one line: "FILE:LINE: KEY: WHY".
class ConfigError : public InvalidArgument {
  using InvalidArgument::InvalidArgument;
};

enum class BackendChoice { automatic, cpu, cuda };

/// [output]
struct OutputConfig {
  std::string directory = "voltaic-output";  ///< relative to the working directory
  std::vector<double> field_times;           ///< [s]: fields stored at these times ...
  double field_period = 0.0;                 ///< [s]: ... and every period (0: none)
  /// Field keys (field_catalog() in solution.hpp); empty: every field.
  std::vector<std::string> fields;
  double checkpoint_period = 0.0;  ///< [s] of simulated time between checkpoints (0: none)
};

/// A whole run.
struct RunConfig {
  std::string path;              ///< the config file ("" when parsed from text)
  std::string cell_source;       ///< a built-in set's name ("Chen2020") or a BPX file's path
  ParameterSet parameters;       ///< the cell with the overrides applied, validated
  SimulationOptions simulation;  ///< grid, thermal model, step control, tolerances (field_times left empty)
  BackendChoice backend = BackendChoice::automatic;
  std::vector<std::string> experiment_steps;  ///< as PyBaMM writes them
  int cycles = 1;
  OutputConfig output;

  Experiment experiment() const { return Experiment(experiment_steps, cycles); }
};

/// Reads and checks a config file; a BPX path in [cell] is relative to the
/// config's directory.
/// @throws FileError when the file (or its BPX file) cannot be read
/// @throws ConfigError (or BpxError, ExperimentError) for what is wrong in it
RunConfig load_config(const std::string& path);

/// The same, from TOML text; `origin` names it in errors, `base_dir` resolves relative paths.
RunConfig parse_config(const std::string& toml_text, const std::string& origin, const std::string& base_dir = ".");

}  // namespace voltaic::io
