#pragma once
/// @file drive_table.hpp
/// @brief DriveTable: a drive cycle's rows as an integrator reads them, on
/// the host or in a kernel (trivially copyable; DriveCycle's lookups are
/// these, so Simulation and the batch cell program read the same bits).

#include <cstddef>

#include "voltaic/core/macros.hpp"
#include "voltaic/linalg/rounding.hpp"

namespace voltaic::stepping {

/// Rows of (time [s] from the step's start, value [A] or [W]); DriveCycle
/// checks them (at least 2, time[0] == 0, strictly increasing, finite).
struct DriveTable {
  const double* time = nullptr;
  const double* value = nullptr;
  std::size_t rows = 0;

  VOLTAIC_HD double duration() const { return time[rows - 1]; }
  /// The first row whose time is after t (rows when none): std::upper_bound.
  VOLTAIC_HD std::size_t after(double t) const {
    std::size_t lo = 0, count = rows;
    while (count > 0) {
      const std::size_t half = count / 2;
      if (!(t < time[lo + half])) {
        lo += half + 1;
        count -= half + 1;
      } else {
        count = half;
      }
    }
    return lo;
  }
  /// Linear between rows, t clamped to [0, duration()] (a NaN t reads as 0);
  /// at a row's time exactly its value. Rounded alike on both backends.
  VOLTAIC_HD double value_at(double t) const {
    if (!(t > 0.0)) return value[0];
    if (t >= duration()) return value[rows - 1];
    const std::size_t i = after(t) - 1;  // t lies in [time[i], time[i + 1])
    if (t == time[i]) return value[i];
    const double w = fp::sub(t, time[i]) / fp::sub(time[i + 1], time[i]);
    return fp::add(value[i], fp::mul(w, fp::sub(value[i + 1], value[i])));
  }
  /// The first row's time after t (duration() when none): integrators land steps on these.
  VOLTAIC_HD double next_breakpoint(double t) const {
    const std::size_t next = after(t);
    return next == rows ? duration() : time[next];
  }
};

}  // namespace voltaic::stepping
