#pragma once
// The pack's circuit as Newton sees it (pack.hpp): the cells of a parallel
// group share the group's voltage U through their connection resistances,
// their currents add up to the group's. Plain arithmetic on a group's
// values, so that a host loop and (later) a device kernel update alike.

#include <cmath>
#include <cstddef>

#include "voltaic/core/macros.hpp"

namespace voltaic::pack {

/// The largest |dV/dI| a secant is trusted with [Ohm] and the slope used
/// where none is (a cell's instantaneous resistance is milliohms to ohms).
inline constexpr double kMaxSlope = 1e3;

/// A group's Newton update.
struct GroupStep {
  double voltage;     ///< U after the update [V]
  double mismatch;    ///< max over the cells of |V_k - r_k I_k - U| before it [V]
  double admittance;  ///< sum of -1 / (dV_k/dI_k - r_k) [S]: dI/dU of the group
};

/// One Newton update of the m cells of a group under the group current J:
/// v[k] the voltage cell k gave at the current i[k], dv[k] its slope dV/dI
/// (< 0), r[k] its connection resistance. The update makes the currents sum
/// to J and equalises the linearised voltages: with d_k = dv_k - r_k and
/// f_k = v_k - r_k i_k, U = (J - sum i + sum f/d) / sum 1/d and
/// i_k += (U - f_k) / d_k. `next` receives the updated currents.
VOLTAIC_HD inline GroupStep update_group(const double* v, const double* i, const double* dv, const double* r,
                                         std::size_t m, double J, double* next) {
  double sum_i = 0.0, sum_fd = 0.0, sum_1d = 0.0;
  for (std::size_t k = 0; k < m; ++k) {
    const double d = dv[k] - r[k];
    sum_i += i[k];
    sum_fd += (v[k] - r[k] * i[k]) / d;
    sum_1d += 1.0 / d;
  }
  const double U = (J - sum_i + sum_fd) / sum_1d;
  double mismatch = 0.0;
  for (std::size_t k = 0; k < m; ++k) {
    const double f = v[k] - r[k] * i[k];
    mismatch = fmax(mismatch, fabs(f - U));
    next[k] = i[k] + (U - f) / (dv[k] - r[k]);
  }
  return {U, mismatch, -sum_1d};
}

/// The secant slope dV/dI of a cell from two solves, or `old` where the
/// currents are too close to tell or the secant is not a falling, finite,
/// bounded line.
VOLTAIC_HD inline double secant_slope(double v0, double i0, double v1, double i1, double old) {
  const double di = i1 - i0;
  if (!(fabs(di) > 1e-9 * (fabs(i0) + fabs(i1)) + 1e-12)) return old;
  const double s = (v1 - v0) / di;
  return s < 0.0 && s > -kMaxSlope ? s : old;
}

}  // namespace voltaic::pack
