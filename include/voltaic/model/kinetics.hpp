#pragma once
/// @file kinetics.hpp
/// @brief Butler-Volmer kinetics as VOLTAIC_HD point functions: the reaction
/// current density at one particle surface and its derivative, which the
/// potential step's residual and Newton Jacobian both evaluate.

#include <cmath>

#include "voltaic/core/macros.hpp"
#include "voltaic/model/constants.hpp"
#include "voltaic/model/material_functions.hpp"
#include "voltaic/model/parameter_set.hpp"
#include "voltaic/model/portable_exp.hpp"

namespace voltaic::kinetics {

/// A reaction current density and its derivative by the overpotential
/// (D: double, or lanes::D4 for four at once on the CPU).
template <class D>
struct ReactionOf {
  D j;    ///< [A/m^2] of particle surface, > 0 when lithium leaves the particle
  D dj;   ///< dj / d eta [A/m^2/V], > 0
  D eta;  ///< overpotential phi_s - phi_e - U [V]
  D ocp;  ///< U(c_surf / c_max, T) [V]
};
using Reaction = ReactionOf<double>;

namespace detail {

/// F / (R T) [1/V].
VOLTAIC_HD inline double faraday_per_rt(double T) { return kFaraday / (kGasConstant * T); }

/// The Butler-Volmer current at overpotential eta = dphi - ocp with exchange
/// current j0, f = F / (R T); `per_j0` receives j / j0 (the bracket of exponentials).
template <class D>
VOLTAIC_HD inline ReactionOf<D> butler_volmer_at(const ElectrodeParameters& e, D dphi, D ocp, D j0, D f, D& per_j0) {
  const D eta = dphi - ocp;
  const double alpha = e.charge_transfer_coefficient;
  const D forward = pmath::exp(alpha * f * eta);
  // The symmetric case (every built-in set) from the same exponential.
  const D backward = alpha == 0.5 ? 1.0 / forward : pmath::exp(-(1.0 - alpha) * f * eta);
  per_j0 = forward - backward;
  return {j0 * per_j0, j0 * f * (alpha * forward + (1.0 - alpha) * backward), eta, ocp};
}

}  // namespace detail

/// Butler-Volmer with charge-transfer coefficient alpha:
///
///   j = j0 (exp(alpha f eta) - exp(-(1 - alpha) f eta)),  f = F / (R T),
///
/// which for alpha = 1/2 is PyBaMM's symmetric form 2 j0 sinh(f eta / 2).
/// A non-finite result (a concentration outside (0, c_max), an overflowing
/// exponential) is the caller's signal that the state is not admissible.
///
/// j0 and U are PyBaMM's regularised forms (material::regularised_exchange_current_density,
/// c_e_scale the initial electrolyte concentration; material::guarded_open_circuit_potential).
VOLTAIC_HD inline Reaction butler_volmer(const ElectrodeParameters& e, double reference_temperature, double phi_s,
                                         double phi_e, double c_e, double c_surf, double T, double c_e_scale) {
  const double ocp =
      material::guarded_open_circuit_potential(e, c_surf / e.maximum_concentration, T, reference_temperature);
  // c_e at 0 where an iterate is a hair below it (PyBaMM's odd regularised
  // power would reverse the reaction there): no reaction without electrolyte.
  const double j0 = material::regularised_exchange_current_density(e, fp::max(c_e, 0.0), c_surf, T, c_e_scale);
  double per_j0;
  return detail::butler_volmer_at(e, phi_s - phi_e, ocp, j0, detail::faraday_per_rt(T), per_j0);
}

/// butler_volmer and its derivative by c_surf at fixed phi_s - phi_e
/// [A/m^2 per mol/m^3], from the OCP's and j0's analytic slopes.
template <class D>
struct SurfaceReactionOf {
  ReactionOf<D> r;
  D dj_dc;
};
using SurfaceReaction = SurfaceReactionOf<double>;

/// butler_volmer_slope with j0's surface-free factor (material::exchange_current_factor
/// at max(c_e, 0)) and f = F / (R T) given: the same bits, for a solve that
/// moves only the surface.
/// (D: double, or lanes::D4 where material::has_lanes_ocp(e).)
template <class D>
VOLTAIC_HD inline SurfaceReactionOf<D> butler_volmer_slope_at(const ElectrodeParameters& e,
                                                              double reference_temperature, D dphi, D j0_factor, D f,
                                                              D c_surf, D T) {
  const double c_max = e.maximum_concentration;
  const auto ocp = material::guarded_open_circuit_potential_slope(e, c_surf / c_max, T, reference_temperature);
  const auto j0 = material::exchange_current_density_slope(e, j0_factor, c_surf);
  D per_j0;
  const auto r = detail::butler_volmer_at(e, dphi, ocp.value, j0.value, f, per_j0);
  // j = j0 b(eta): dj/dc = dj0/dc b - dj/deta dU/dc.
  return {r, j0.slope * per_j0 - r.dj * ocp.slope / c_max};
}

VOLTAIC_HD inline SurfaceReaction butler_volmer_slope(const ElectrodeParameters& e, double reference_temperature,
                                                      double dphi, double c_e, double c_surf, double T,
                                                      double c_e_scale) {
  return butler_volmer_slope_at(e, reference_temperature, dphi,
                                material::exchange_current_factor(e, fp::max(c_e, 0.0), T, c_e_scale),
                                detail::faraday_per_rt(T), c_surf, T);
}

/// The particle's surface concentration as its backward-Euler step makes it:
/// linear in the molar flux N = j / F out of the particle,
///
///   c_surf(N) = value + slope (N - flux),
///
/// `value` the surface after a step with flux `flux`, `slope` = d c_surf / d N
/// (< 0: lithium leaving lowers the surface) from a step with a unit flux.
struct SurfaceResponse {
  double value;  ///< [mol/m^3]
  double slope;  ///< [mol/m^3 per mol/m^2/s], <= 0; 0 makes the surface fixed
  double flux;   ///< [mol/m^2/s]
};

/// Butler-Volmer with the surface concentration a function of j itself
/// (SurfaceResponse): j = BV(phi_s - phi_e - U(c_surf(j)), c_e, c_surf(j)).
struct ImplicitReaction {
  double j;       ///< [A/m^2], the root
  double dj;      ///< total d j / d (phi_s - phi_e) [A/m^2/V], > 0
  double c_surf;  ///< c_surf(j) [mol/m^3]
  bool ok;        ///< false when no admissible root was found (the state is outside the model's domain)
};

namespace detail {

/// x finite (x - x is 0 exactly then; NaN and infinities give NaN).
VOLTAIC_HD inline bool finite(double x) { return x - x == 0.0; }

/// g(j) = j - BV(j) and its derivative for the implicit surface, d U / d c
/// and d j0 / d c from their analytic slopes (butler_volmer_slope).
struct ImplicitResidual {
  const ElectrodeParameters* e;  ///< a pointer: an ImplicitSolve can be assigned (sei::FilmSolve starts new ones)
  double t_ref, dphi, c_e, T, c_e_scale;
  SurfaceResponse s;
  double j0_factor, f;  ///< what the surface does not change, taken once a solve (butler_volmer_slope_at)

  VOLTAIC_HD double surface(double j) const { return surface_at(j, s.value, s.slope, s.flux); }
  template <class D>
  VOLTAIC_HD static D surface_at(D j, D value, D slope, D flux) {
    return value + slope * (j / kFaraday - flux);
  }
  VOLTAIC_HD Reaction at(double c) const { return butler_volmer(*e, t_ref, dphi, 0.0, c_e, c, T, c_e_scale); }
  /// Fills g, dg / dj and d BV / d dphi; returns false when not finite.
  VOLTAIC_HD bool evaluate(double j, double& g, double& dg, double& dbv) const {
    const SurfaceReaction x = butler_volmer_slope_at(*e, t_ref, dphi, j0_factor, f, surface(j), T);
    from_reaction(j, s.slope, x, g, dg, dbv);
    return finite(g) && finite(dg) && finite(dbv);
  }
  /// g, dg and dbv from the reaction at the surface c_surf(j).
  template <class D>
  VOLTAIC_HD static void from_reaction(D j, D slope, const SurfaceReactionOf<D>& x, D& g, D& dg, D& dbv) {
    dg = 1.0 - x.dj_dc * slope / kFaraday;
    g = j - x.r.j;
    dbv = x.r.dj;
  }
};

}  // namespace detail

/// The implicit Butler-Volmer equation of one particle solved by Newton on j,
/// safeguarded by bisection inside the admissible interval (c_surf(j) in
/// (0, c_max), where g = j - BV changes sign because j0 vanishes at both
/// ends). `guess` starts the iteration (the last solve's j). A state machine:
/// step() makes one evaluation and its update, so that a CPU loop can run
/// particles' solves side by side (butler_volmer_implicit_pair; four
/// evaluations at once in kinetics_lanes.hpp) and their chains of dependent
/// latencies overlap; each particle's operations are the same as alone.
class ImplicitSolve {
 public:
  ImplicitSolve() = default;  ///< a slot to assign a solve to
  /// `quadratic`: the constant C of Newton's error e' <= C e^2 for this
  /// particle, known from a former solve (quadratic() of the same node's at
  /// the last Newton iterate); 0 when none is known.
  VOLTAIC_HD ImplicitSolve(const ElectrodeParameters& e, double reference_temperature, double phi_s, double phi_e,
                           double c_e, const SurfaceResponse& s, double T, double c_e_scale, double guess,
                           double quadratic = 0.0)
      : f_{&e,
           reference_temperature,
           phi_s - phi_e,
           c_e,
           T,
           c_e_scale,
           s,
           material::exchange_current_factor(e, fp::max(c_e, 0.0), T, c_e_scale),
           detail::faraday_per_rt(T)},
        c_max_(e.maximum_concentration),
        known_(quadratic) {
    if (!(s.slope < 0.0)) {  // a fixed surface: the explicit form
      const Reaction r = f_.at(s.value);
      fixed_ = {r.j, r.dj, s.value, detail::finite(r.j) && detail::finite(r.dj)};
      is_fixed_ = true;
      running_ = false;
      return;
    }
    // c_surf(j) decreases in j: c_surf = c_max at lo, 0 at hi (shrunk by a hair).
    span_ = -c_max_ / s.slope * kFaraday;
    lo_ = kFaraday * (s.flux + (c_max_ - s.value) / s.slope) + 1e-12 * span_;
    hi_ = kFaraday * (s.flux - s.value / s.slope) - 1e-12 * span_;
    j_ = (guess > lo_ && guess < hi_) ? guess : 0.5 * (lo_ + hi_);
  }

  VOLTAIC_HD bool running() const { return running_; }

  /// One evaluation and the update it gives (at most 100 of them). Newton:
  /// the analytic derivative costs little beside the value (a chord's
  /// finite difference took a second evaluation).
  VOLTAIC_HD void step() { update(f_.evaluate(j_, g_, dg_, dbv_)); }

  /// What step() evaluates, and where: for an evaluation made elsewhere
  /// (four solves at once, kinetics_lanes.hpp), handed to take().
  VOLTAIC_HD const detail::ImplicitResidual& residual() const { return f_; }
  VOLTAIC_HD double iterate() const { return j_; }
  /// step() with the evaluation at iterate() given (g, dg, dbv as
  /// ImplicitResidual::evaluate fills them, `good` its return).
  VOLTAIC_HD void take(bool good, double g, double dg, double dbv) {
    g_ = g;
    dg_ = dg;
    dbv_ = dbv;
    update(good);
  }

  /// The constant C this solve measured (its last two Newton steps), else the one it was given.
  VOLTAIC_HD double quadratic() const { return observed_ > 0.0 ? observed_ : known_; }

  VOLTAIC_HD ImplicitReaction result() const {
    if (is_fixed_) return fixed_;
    const double c = f_.surface(j_);
    const bool ok = detail::finite(j_) && detail::finite(dg_) && dg_ > 0.0 && c > 0.0 && c < c_max_ &&
                    fabs(g_) <= 1e-8 * (fabs(j_) + 1.0);
    return {j_, ok ? dbv_ / dg_ : 0.0, c, ok};
  }

 private:
  /// The update an evaluation at j_ (in g_, dg_, dbv_; `good`: finite) gives.
  VOLTAIC_HD void update(bool good) {
    const bool newton = !bisected_ && it_ > 0;
    bisected_ = false;
    if (good && fabs(g_) <= 1e-13 * (fabs(j_) + 1.0)) return stop();  // j to rounding [A/m^2]
    // Past a non-finite value, the offending end is the one the surface is near.
    if (good ? g_ > 0.0 : f_.surface(j_) < 0.5 * c_max_) {
      hi_ = j_;
    } else {
      lo_ = j_;
    }
    double next = good && dg_ > 0.0 ? j_ - g_ / dg_ : 0.5 * (lo_ + hi_);
    if (!(next > lo_ && next < hi_)) next = 0.5 * (lo_ + hi_);
    bisected_ = !(good && dg_ > 0.0) || next == 0.5 * (lo_ + hi_);
    const double step = fabs(next - j_);
    // The error left after a step: the step times the contraction rate of
    // the last two (for Newton's quadratic convergence an overestimate). Below rounding, the step ends the solve
    // without a further evaluation (dbv, a Jacobian entry, is then one step old).
    const double rate = newton && !bisected_ ? fp::min(1.0, step / last_step_) : 1.0;
    if (newton && !bisected_ && last_step_ > 0.0) observed_ = step / (last_step_ * last_step_);
    // With a known constant, C step^2 (with a margin) bounds the error left
    // too: a guess already near the root then ends after one evaluation.
    const bool quadratic = known_ > 0.0 && kQuadraticMargin * known_ * step < rate;
    const double left = quadratic ? kQuadraticMargin * known_ * step * step : step * rate;
    last_step_ = step;
    j_ = next;
    if (left <= 1e-13 * (fabs(j_) + 1.0) && !bisected_) {
      // The residual the step leaves, to the same estimate.
      if (quadratic) {
        g_ = step > 0.0 ? g_ * (left / step) : 0.0;
      } else {
        g_ *= rate;
      }
      return stop();
    }
    if (hi_ - lo_ <= 1e-15 * span_) {
      f_.evaluate(j_, g_, dg_, dbv_);
      return stop();
    }
    if (++it_ == 100) stop();
  }

  VOLTAIC_HD void stop() { running_ = false; }

  /// Trusts C step^2 only with a wide margin: C comes from another (nearby) solve.
  static constexpr double kQuadraticMargin = 1e4;

  detail::ImplicitResidual f_;
  double c_max_;
  double known_, observed_ = 0.0;                 ///< the constant C given, and measured here (0: none)
  ImplicitReaction fixed_{0.0, 0.0, 0.0, false};  ///< the explicit form's result (a fixed surface)
  double span_ = 0.0, lo_ = 0.0, hi_ = 0.0, j_ = 0.0;
  double g_ = 0.0, dg_ = 1.0, dbv_ = 0.0, last_step_ = 0.0;
  int it_ = 0;
  bool bisected_ = false, running_ = true, is_fixed_ = false;
};

/// One particle's solve, run to its end in place (its quadratic() stays readable).
VOLTAIC_HD VOLTAIC_CPU_CALL inline void run_to_end(ImplicitSolve& x) {
  while (x.running()) x.step();
}

/// One particle's solve, run to its end.
VOLTAIC_HD VOLTAIC_CPU_CALL inline ImplicitReaction butler_volmer_implicit(ImplicitSolve x) {
  while (x.running()) x.step();
  return x.result();
}

/// One particle's solve (ImplicitSolve) from its arguments.
VOLTAIC_HD inline ImplicitReaction butler_volmer_implicit(const ElectrodeParameters& e, double reference_temperature,
                                                          double phi_s, double phi_e, double c_e,
                                                          const SurfaceResponse& s, double T, double c_e_scale,
                                                          double guess) {
  return butler_volmer_implicit(ImplicitSolve(e, reference_temperature, phi_s, phi_e, c_e, s, T, c_e_scale, guess));
}

/// Two particles' solves, their steps alternated (each as alone): the CPU
/// overlaps the two chains of dependent latencies.
VOLTAIC_CPU_CALL inline void butler_volmer_implicit_pair(ImplicitSolve& a, ImplicitSolve& b) {
  while (a.running() && b.running()) {
    a.step();
    b.step();
  }
  while (a.running()) a.step();
  while (b.running()) b.step();
}

}  // namespace voltaic::kinetics
