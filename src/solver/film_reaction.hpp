#pragma once
// The reactions of one negative node with side reactions: the intercalation
// (the particle's implicit Butler-Volmer), SEI growth (sei_point.hpp) and
// lithium plating (plating_point.hpp), coupled through the film's ohmic drop
// j_tot L_sei R_sei (PyBaMM's "SEI film resistance": "distributed").

#include <cmath>

#include "solver/plating_point.hpp"
#include "solver/sei_point.hpp"
#include "voltaic/core/macros.hpp"
#include "voltaic/model/kinetics.hpp"

namespace voltaic::sei {

/// The film's state at one node.
struct NodeFilm {
  double L;     ///< SEI thickness [m] (0 without a film)
  double c_pl;  ///< plated lithium [mol/m^3]
};

/// j_tot = j(dphi - j_tot L R) + j_sei(dphi, j) + j_pl(dphi - j_tot L R) at one node.
struct FilmReaction {
  double j_tot, j_sei, j_pl;  ///< [A/m^2]
  double d_tot;               ///< d j_tot / d(phi_s - phi_e), the film's drop and the particle's response included
  double d_main;              ///< d j / d(phi_s - phi_e), likewise
  double d_pl;                ///< d j_pl / d(phi_s - phi_e), likewise
  double c_surf;
  bool ok;
};

/// Solves the node's total current: g(J) = J - j(dphi - J L R) - j_sei -
/// j_pl(dphi - J L R) = 0, each j the particle's implicit Butler-Volmer at
/// the film-shifted overpotential; without the film's drop, one evaluation.
/// eta_SEI falls as j rises (its own film term), so below some J the SEI
/// current runs away (dj_sei/dj < -1) and g turns back up: a second,
/// unphysical root. Above that point g' = 1 + ((1 + dj_sei/dj) dj/deta +
/// dj_pl/deta) L R >= 1, so a value g(J) there brackets the physical root in
/// [J - g, J] or [J, J - g]; a value on the runaway side puts the root above
/// J. Newton inside the bracket, bisection when it leaves it. As in the
/// inner solve, a Newton step that its contraction rate puts below
/// rounding ends the solve without a further evaluation (which would only
/// confirm it): the currents then move with the step along their slopes.
/// `guess_tot`, `guess_main`: the last solve's currents [A/m^2].
///
/// A state machine, as kinetics::ImplicitSolve: step() makes one evaluation
/// of the inner solve, or the outer update once it has ended, so that the
/// CPU can run two nodes side by side (film_reaction_pair).
class FilmSolve {
 public:
  VOLTAIC_HD FilmSolve(const Constants& s, const plating::Constants& pc, const ElectrodeParameters& e, double t_ref,
                       double phi_s, double phi_e, double c_e, const kinetics::SurfaceResponse& surface, double T,
                       double c_e_scale, NodeFilm film, double guess_tot, double guess_main)
      : s_(&s),
        pc_(&pc),
        e_(&e),
        t_ref_(t_ref),
        phi_s_(phi_s),
        phi_e_(phi_e),
        c_e_(c_e),
        T_(T),
        c_e_scale_(c_e_scale),
        surface_(surface),
        film_(film),
        lr_(s.film ? film.L * s.resistivity : 0.0),
        j_tot_(guess_tot),
        main_(guess_main),
        inner_(start()) {}

  VOLTAIC_HD bool running() const { return running_; }
  /// The particle's solve at the present iterate.
  VOLTAIC_HD kinetics::ImplicitSolve& inner() { return inner_; }
  VOLTAIC_HD void step() {
    if (inner_.running()) {
      inner_.step();
    } else {
      update();
    }
  }
  VOLTAIC_HD FilmReaction result() const { return result_; }

  /// The outer iteration from the ended inner solve: the result, or the next
  /// iterate and its inner solve (at most 100).
  VOLTAIC_HD void update() {
    const kinetics::ImplicitReaction x = inner_.result();
    if (!x.ok) return finish({NAN, NAN, NAN, 0.0, 0.0, 0.0, x.c_surf, false});
    const double lr = lr_, j_tot = j_tot_;
    const Rate r = growth(*s_, phi_s_ - phi_e_, x.j, film_.L, T_);
    const plating::Rate pl =
        pc_->on() ? plating::rate(*pc_, phi_s_ - phi_e_ - j_tot * lr, c_e_, film_.c_pl, T_) : plating::Rate{0.0, 0.0};
    const double g = j_tot - x.j - r.j - pl.j;
    const bool physical = 1.0 + r.d_main > 0.0 && g - g == 0.0;
    const double tolerance = 1e-13 * (fabs(j_tot) + 1.0);
    const double slope = (1.0 + r.d_main) * x.dj + pl.d_eta;  // d(j + j_sei + j_pl) / d(film-shifted eta)
    // The solve's result from these currents, with this iterate's slopes:
    // d j_tot = slope (d dphi - lr d j_tot) + S_d d dphi.
    const auto result = [&](double j_main, double j_sei, double j_pl, double c_surf, bool ok) {
      const double d_tot = (slope + r.d_dphi) / (1.0 + slope * lr);
      const double shifted = 1.0 - lr * d_tot;
      return FilmReaction{j_main + j_sei + j_pl, j_sei, j_pl, d_tot, x.dj * shifted, pl.d_eta * shifted, c_surf, ok};
    };
    if (lr == 0.0 || (physical && (fabs(g) <= tolerance || hi_ - lo_ <= tolerance))) {
      return finish(result(x.j, r.j, pl.j, x.c_surf, lr == 0.0 || fabs(g) <= 1e-8 * (fabs(j_tot) + 1.0)));
    }
    double next;
    if (!physical) {  // the runaway side: the root is above
      lo_ = j_tot;
      next = hi_ < INFINITY ? 0.5 * (lo_ + hi_) : j_tot + fabs(j_tot) + 1.0;
    } else {
      if (g > 0.0) {
        hi_ = j_tot;
        lo_ = fp::max(lo_, j_tot - g);
      } else {
        lo_ = j_tot;
        hi_ = fp::min(hi_, j_tot - g);
      }
      next = j_tot - g / (1.0 + slope * lr);
      const bool newton = next > lo_ && next < hi_;
      if (!newton) next = 0.5 * (lo_ + hi_);
      main_ = x.j;
      // The error left after the step: the step times the contraction rate
      // of the last two Newton steps (an overestimate for Newton's quadratic
      // convergence).
      const double step = fabs(next - j_tot);
      const double rate = newton && last_newton_ ? fp::min(1.0, step / last_step_) : 1.0;
      last_step_ = step;
      last_newton_ = newton;
      if (newton && step * rate <= tolerance) {
        const double shift = -lr * (next - j_tot);  // the film-shifted eta's change
        const double d_main = x.dj * shift;
        const double c_surf = surface_.slope < 0.0 ? x.c_surf + surface_.slope * (d_main / kFaraday) : x.c_surf;
        return finish(result(x.j + d_main, r.j + r.d_main * d_main, pl.j + pl.d_eta * shift, c_surf, true));
      }
    }
    // A bracket closed on the runaway side has no physical root; one closed
    // by the physical branch is judged at its last point (the top of the
    // next update), whose g may sit above `tolerance` by the inner solve's rounding.
    if (!physical && hi_ - lo_ <= tolerance) return finish({NAN, NAN, NAN, 0.0, 0.0, 0.0, x.c_surf, false});
    j_tot_ = next;
    if (++it_ == 100) return finish({NAN, NAN, NAN, 0.0, 0.0, 0.0, 0.0, false});
    inner_ = start();
  }

 private:
  VOLTAIC_HD kinetics::ImplicitSolve start() const {
    return kinetics::ImplicitSolve(*e_, t_ref_, phi_s_ - j_tot_ * lr_, phi_e_, c_e_, surface_, T_, c_e_scale_, main_);
  }
  VOLTAIC_HD void finish(const FilmReaction& r) {
    result_ = r;
    running_ = false;
  }

  const Constants* s_;
  const plating::Constants* pc_;
  const ElectrodeParameters* e_;
  double t_ref_, phi_s_, phi_e_, c_e_, T_, c_e_scale_;
  kinetics::SurfaceResponse surface_;
  NodeFilm film_;
  double lr_, j_tot_, main_;
  double lo_ = -INFINITY, hi_ = INFINITY, last_step_ = 0.0;
  int it_ = 0;
  bool last_newton_ = false, running_ = true;
  FilmReaction result_{NAN, NAN, NAN, 0.0, 0.0, 0.0, 0.0, false};
  kinetics::ImplicitSolve inner_;  ///< last: it starts from the members above
};

/// One node's solve, each inner solve run to its end.
VOLTAIC_HD VOLTAIC_CPU_CALL inline FilmReaction film_reaction(FilmSolve f) {
  while (f.running()) {
    kinetics::ImplicitSolve& inner = f.inner();
    while (inner.running()) inner.step();
    f.update();
  }
  return f.result();
}

/// One node's solve (FilmSolve) from its arguments.
VOLTAIC_HD inline FilmReaction film_reaction(const Constants& s, const plating::Constants& pc,
                                             const ElectrodeParameters& e, double t_ref, double phi_s, double phi_e,
                                             double c_e, const kinetics::SurfaceResponse& surface, double T,
                                             double c_e_scale, NodeFilm film, double guess_tot, double guess_main) {
  return film_reaction(
      FilmSolve(s, pc, e, t_ref, phi_s, phi_e, c_e, surface, T, c_e_scale, film, guess_tot, guess_main));
}

/// Two nodes' solves, their steps alternated (each as alone): the CPU
/// overlaps the two chains of dependent latencies.
VOLTAIC_CPU_CALL inline void film_reaction_pair(FilmSolve& a, FilmSolve& b) {
  while (a.running() && b.running()) {
    a.step();
    b.step();
  }
  while (a.running()) a.step();
  while (b.running()) b.step();
}

}  // namespace voltaic::sei
