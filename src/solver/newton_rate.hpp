#pragma once
// The potential step's Newton convergence test after its first update, shared
// by PotentialStep and the batch cell program (one formula, two engines).
//
// Newton's error after an update u is about C u^2 (quadratic convergence), C
// the constant the last solve measured (its second update over its first
// squared). Before this, the first update was always followed by a second
// just to measure a rate; in the split's later passes, whose inputs moved
// little, that second update is far below the tolerance. Four times the
// measured constant leaves room for C to vary between solves; an update
// above kLargest, or no measurement yet, gives no estimate (rate 1).

#include "voltaic/core/macros.hpp"

namespace voltaic::newton {

/// [V]: first updates above this get no estimate (far from the quadratic regime).
constexpr double kLargest = 1e-3;

/// The contraction rate to assume after a first update of size `update` [V],
/// given the measured quadratic constant [1/V] (0: none).
VOLTAIC_HD inline double first_rate(double constant, double update) {
  if (!(constant > 0.0) || !(update <= kLargest)) return 1.0;
  const double rate = 4.0 * constant * update;
  return rate < 1.0 ? rate : 1.0;
}

}  // namespace voltaic::newton
