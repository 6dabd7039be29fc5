#pragma once
/// @file drive_cycle.hpp
/// @brief DriveCycle: a table of current or power against time that an
/// experiment step ("Run US06 (A)") follows, as PyBaMM's drive cycles.
///
/// Between rows the value is interpolated linearly, as PyBaMM does:
/// `pybamm.step.current(array)` (and `power`) wraps the two columns in
/// `pybamm.Interpolant(t, y, pybamm.t - start_time)`, whose interpolator
/// defaults to "linear" (scipy `interp1d`) since PyBaMM 23; earlier releases
/// defaulted to cubic splines or pchip. The step lasts the table's last time
/// unless told otherwise. Where PyBaMM loops a table to fill a longer
/// duration, voltaic refuses one (Experiment says so), and it holds the end
/// values outside [0, duration()] where PyBaMM would extrapolate.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "voltaic/core/error.hpp"
#include "voltaic/solver/drive_table.hpp"

namespace voltaic {

/// Current [A] or power [W] against time from a step's start, PyBaMM's sign (> 0 discharges).
class DriveCycle {
 public:
  /// @param name how steps name it ("US06"): non-empty, without whitespace
  /// @param time_s [s] from the step's start: time_s[0] == 0, strictly increasing, finite
  /// @param value [A] or [W] at those times, finite; as many as times
  /// @throws InvalidArgument naming the table, the row (from 1) and the value
  ///         for fewer than 2 rows, a first time other than 0, a time not
  ///         after the one before, a non-finite number or a bad name;
  ///         SizeMismatch (an InvalidArgument) for columns of different lengths
  DriveCycle(std::string name, std::vector<double> time_s, std::vector<double> value);

  const std::string& name() const { return name_; }
  const std::vector<double>& times() const { return time_; }
  const std::vector<double>& values() const { return value_; }
  std::size_t rows() const { return time_.size(); }

  /// [s]: the last time; a Run step lasts this long unless "for" shortens it.
  double duration() const { return time_.back(); }
  /// Linear interpolation between rows; t is clamped to [0, duration()]
  /// (a NaN t reads as 0). At a row's time, exactly that row's value.
  double value_at(double t) const;
  /// The first breakpoint strictly after t (duration() when none): integrators land steps on these.
  double next_breakpoint(double t) const;
  /// The rows as integrators read them (valid while this table lives).
  stepping::DriveTable table() const { return {time_.data(), value_.data(), time_.size()}; }
  /// A 64-bit FNV-1a digest of every row's time and value (their bits): a
  /// checkpoint records it, so that a restart sees an edited table.
  std::uint64_t digest() const;

 private:
  std::string name_;
  std::vector<double> time_, value_;
};

/// Tables by the name steps use; key: name as written in the config.
using DriveCycles = std::map<std::string, std::shared_ptr<const DriveCycle>>;

}  // namespace voltaic
