#pragma once
/// @file experiment.hpp
/// @brief Experiment protocols in PyBaMM's wording, so users can reuse theirs:
///
///   "Discharge at 1C until 2.5 V"      "Charge at 0.5C until 4.2 V"
///   "Discharge at 5 A for 10 minutes"  "Discharge at 2 W until 3 V"
///   "Hold at 4.2 V until C/50"         "Hold at 4.2 V until 50 mA"
///   "Rest for 1 hour"                  "Charge at 1C for 30 minutes or until 4.2 V"
///   "Run US06 (A) until 2.5 V"         "Run US06 (W) for 5 minutes or until 3 V"
///
/// Currents: "<x>C", "C/<n>", "<x> A", "<x> mA"; powers "<x> W", "<x> mW";
/// voltages "<x> V", "<x> mV"; durations "<x> s|second(s)|min|minute(s)|h|hour(s)".
/// "Run <NAME> (A)" follows the current table NAME (a DriveCycle), "(W)" the
/// power table, in PyBaMM's older wording (before pybamm.step.current(array));
/// NAME is matched exactly, case included. A list of steps is repeated for a
/// number of cycles.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "voltaic/core/error.hpp"
#include "voltaic/solver/cycling.hpp"
#include "voltaic/solver/drive_cycle.hpp"

namespace voltaic {

/// The largest value of each kind of number a step may hold (all must be
/// > 0 and finite): limits far beyond any cell, which keep an overflowed or
/// mistyped number from running for ever (docs/config.md lists them).
struct StepLimit {
  double max;
  const char* what;
  const char* unit;
  double min = 0.0;  ///< the least (> 0: a smaller one is refused too)
};
struct StepLimits {
  /// About 32 years; at least a microsecond (the default min_dt): a shorter
  /// step, or drive-cycle rows closer together, leaves a time step that the
  /// solver cannot take (1 / h overflows for h = 5e-324 s).
  StepLimit duration{1e9, "duration", "s", 1e-6};
  StepLimit c_rate{1000.0, "C-rate", "C"};
  StepLimit current{1e6, "current", "A"};
  StepLimit voltage{1000.0, "voltage", "V"};
  StepLimit power{1e9, "power", "W"};
};
inline constexpr StepLimits kStepLimits{};

/// A current given either in amperes or as a C-rate (resolved against the
/// cell's nominal capacity when the experiment runs).
struct CurrentValue {
  double value = 0.0;
  bool c_rate = false;  ///< value is in units of the nominal capacity per hour
  /// Amperes for a cell of `nominal_capacity_ah`.
  double amperes(double nominal_capacity_ah) const { return c_rate ? value * nominal_capacity_ah : value; }
};

enum class StepMode { current, power, voltage, rest };

/// One parsed step. Signs follow PyBaMM: current and power > 0 discharge.
struct ExperimentStep {
  std::string text;  ///< the step as written
  StepMode mode = StepMode::rest;
  CurrentValue current;    ///< mode current (signed); 0 for a Run step
  double power_w = 0.0;    ///< mode power (signed); 0 for a Run step
  double voltage_v = 0.0;  ///< mode voltage (a hold)
  /// "for ..."; a Run step's table duration unless "for" is shorter; without
  /// either, the default (default_step_duration()), so that no step is endless.
  std::optional<double> duration_s;
  bool default_duration = false;          ///< duration_s is the default: the step named no "for"
  std::optional<double> until_voltage_v;  ///< "until <x> V"
  /// "until any cell reaches <x> V": a pack's step ends when its first cell
  /// does; a lone cell is the only cell of its pack (until_voltage_of_cell()).
  std::optional<double> until_cell_voltage_v;
  std::optional<CurrentValue> until_current;  ///< "until <x> A | C/<n>": |I| falls below
  /// A Run step's table (null for other steps): mode current reads it in
  /// amperes, mode power in watts, at the time since the step began.
  std::shared_ptr<const DriveCycle> drive_cycle;

  /// The voltage a lone cell's step stops at: "until <x> V", or "until any
  /// cell reaches <x> V" (the step names one of them at most).
  std::optional<double> until_voltage_of_cell() const {
    return until_voltage_v ? until_voltage_v : until_cell_voltage_v;
  }
};

/// [s]: how long a step without "for" lasts at most, as PyBaMM's steps do:
/// a C-rate step twice the time its rate moves the nominal capacity (2 / |C|
/// hours), any other a day; at most kStepLimits.duration. A step that ends
/// there rather than at its "until" says so in the run's notes.
double default_step_duration(const ExperimentStep& step);

/// A step that does not parse: names the step (its index from 1 and its text)
/// and the position of the offending word.
class ExperimentError : public InvalidArgument {
 public:
  ExperimentError(std::size_t step_index, const std::string& step, std::size_t column, const std::string& why);
  std::size_t step_index() const noexcept { return step_index_; }
  std::size_t column() const noexcept { return column_; }

 private:
  std::size_t step_index_, column_;
};

/// Parses one step; `index` (from 1) only labels errors. A Run step takes its
/// table from `drive_cycles`, by its key.
/// @throws ExperimentError for a step that does not parse, a Run step naming
///         a table that `drive_cycles` lacks, or one whose "for" is longer
///         than its table
ExperimentStep parse_experiment_step(const std::string& text, std::size_t index = 1,
                                     const DriveCycles& drive_cycles = {});

/// How messages name a step: `experiment step 3 ("Rest for 1 hour")`, index from 0 over all cycles.
std::string describe_step(const ExperimentStep& step, std::size_t index);

/// The steps, repeated `cycles` times.
class Experiment {
 public:
  /// @param drive_cycles the tables Run steps may name (shared, not copied)
  /// @throws ExperimentError for the first step that does not parse
  ///         (parse_experiment_step); InvalidArgument for no steps or cycles < 1
  explicit Experiment(const std::vector<std::string>& steps, int cycles = 1, const DriveCycles& drive_cycles = {});
  const std::vector<ExperimentStep>& cycle() const { return cycle_; }
  int cycles() const { return cycles_; }
  /// Step s (from 0) of every cycle.
  const ExperimentStep& step(std::size_t s) const { return cycle_.at(s); }
  std::size_t total_steps() const { return cycle_.size() * static_cast<std::size_t>(cycles_); }
  /// When the cycling ends early (PyBaMM's termination); none by default.
  const CycleTermination& termination() const { return termination_; }
  void set_termination(const CycleTermination& t) { termination_ = t; }
  /// Which cycles keep their rows (PyBaMM's save_at_cycles); all by default.
  const CycleSaving& saving() const { return saving_; }
  void set_saving(const CycleSaving& s) { saving_ = s; }
  /// What shapes a run: the steps as written, the cycles, and one line per
  /// drive-cycle table (its rows and digest), so that a checkpoint of another
  /// experiment, or ranks that read other tables, are told apart by the
  /// first line that differs.
  std::string fingerprint() const;

 private:
  std::vector<ExperimentStep> cycle_;
  int cycles_;
  CycleTermination termination_;
  CycleSaving saving_;
};

}  // namespace voltaic
