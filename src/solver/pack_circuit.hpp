#pragma once
// The pack's circuit as Newton sees it (pack.hpp): each iterate, every
// cell's voltage V_k at its current I_k and its slope dV_k/dI_k linearise
// the cells, and the circuit gives the currents that make the linearised
// cells obey Kirchhoff's laws under the pack's current J. An Np x Ns pack
// does it group by group (update_group: plain arithmetic on a group's
// values, so that a host loop and a device kernel update alike); a netlist
// by modified nodal analysis (pack_netlist.hpp).

#include <cmath>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "voltaic/core/macros.hpp"
#include "voltaic/solver/pack.hpp"

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

/// What one Newton update of the circuit found.
struct CircuitStep {
  double voltage;    ///< the pack's terminal voltage under J after the update [V]
  double slope;      ///< its dV/dJ [Ohm], < 0
  double mismatch;   ///< the largest Kirchhoff voltage residual of the iterate [V]
  double tolerance;  ///< the voltage scale it is measured against (rtol |V| + atol of the largest) [V]
};

/// A pack's circuit. Arrays are one value per cell.
class Circuit {
 public:
  virtual ~Circuit() = default;
  /// Currents `amps` that carried `from` (the pack's last current) moved to
  /// carry J, the change shared as the linearised circuit shares it (slopes
  /// `dv`): the first iterate of a step.
  virtual void share(double from, double J, const double* dv, double* amps) = 0;
  /// One Newton update: the cells gave voltages `v` at currents `i`,
  /// slopes `dv`; `next` receives the currents that satisfy the linearised
  /// circuit under J. rtol, atol: the cells' voltage tolerance.
  virtual CircuitStep update(const double* v, const double* i, const double* dv, double J, double rtol, double atol,
                             double* next) = 0;
  /// `amps`, the last update's `next`, += dJ times each cell's dI_k/dJ:
  /// the currents of the next iterate.
  virtual void shift(double dJ, double* amps) = 0;
  /// The state a step's save() keeps and a rejected step's restore() takes back.
  virtual void save() {}
  virtual void restore() {}
  /// The nodes' names (PackSolution::node_names) and their voltages: the
  /// grid's groups at the last update; a netlist's nodes as its cells' last
  /// currents make them (Kirchhoff's current law exact).
  virtual std::vector<std::string> node_names() const = 0;
  virtual void node_voltages(std::vector<double>& out) const = 0;
};

/// The circuit of `layout`: its grid's groups, or its netlist's nodes.
std::unique_ptr<Circuit> make_circuit(const PackLayout& layout);

/// The pack's capacity [A h] (what its C-rates refer to) and its series
/// count (its open-circuit voltage in units of one cell's) from the cells'
/// capacities `q` [A h]: the charge through the terminals until its first
/// cell is empty, each cell taking the share of the current its capacity
/// takes in the circuit's ideal wiring.
struct PackRating {
  double capacity;
  double series;
};
PackRating rating(const PackLayout& layout, const std::vector<double>& q);

}  // namespace voltaic::pack
