#pragma once
/// @file solver_options.hpp
/// @brief The table of the options a run config sets under [solver]: the
/// StepControl and PotentialOptions fields, each with its key, range, unit,
/// default and description. Simulation's checks, the config reader, the
/// config's key list, the checkpoint fingerprint and the docs test all walk
/// it, so adding an option is one entry here.

#include <string>
#include <vector>

#include "voltaic/model/parameter_table.hpp"
#include "voltaic/solver/simulation_options.hpp"

namespace voltaic {

/// One [solver] option. Values pass through a double: integers and the index
/// of a choice are exact in it.
struct SolverOption {
  enum class Kind { number, integer, choice };
  /// The struct of SimulationOptions that holds the field.
  enum class Group { steps, potential };

  std::string key;     ///< TOML key under [solver]: "max_growth"
  Group group;         ///< where the field lives
  std::string member;  ///< the field's name in its struct: "max_growth"
  Kind kind;
  Interval allowed;  ///< number and integer (unused for a choice)
  /// How the value must relate to other options ("at most initial_dt"):
  /// documented here, checked by check_solver_options(); empty when none.
  std::string relation;
  std::string note;                  ///< why the range, for messages ("variable-step BDF2 is ...")
  std::vector<std::string> choices;  ///< choice: the names, in the order of the enum's values
  std::string unit;                  ///< "s", "V", "" when dimensionless
  std::string description;           ///< one line, as docs/config.md has it
  /// In the checkpoint's fingerprint (a restart must keep it); false for a
  /// guard that can only end a run, never change its values (max_steps).
  bool fingerprinted = true;
  double (*get)(const SimulationOptions&);
  void (*set)(SimulationOptions&, double);

  /// The struct's own default (SimulationOptions{}), so the two cannot disagree.
  double default_value() const;
  /// "StepControl::max_growth": how Simulation's errors name it.
  std::string qualified_name() const;
  /// "in (1, 2.4]", "> 0", "> 0, at most initial_dt", "\"harmonic\", \"arithmetic\"".
  std::string range_text() const;
  /// The value as the fingerprint and messages write it: shortest decimal of a
  /// number, the integer, the enum's value of a choice.
  std::string value_text(const SimulationOptions& o) const;
};

/// Every [solver] option of SimulationOptions, in the order of the config
/// reader and of the fingerprint. Not in it: the backend (not a
/// SimulationOptions field), and the options a config does not set (surface
/// method, GMRES-IR and CG settings).
const std::vector<SolverOption>& solver_option_table();

/// The entry with this TOML key, or nullptr.
const SolverOption* find_solver_option(const std::string& key);

/// Checks every option of the table against its range and relation.
/// @throws InvalidArgument naming the first bad one ("StepControl::max_growth"),
///         its value and what is allowed
void check_solver_options(const SimulationOptions& o, const std::string& where);

}  // namespace voltaic
