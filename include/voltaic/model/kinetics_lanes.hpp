#pragma once
/// @file kinetics_lanes.hpp
/// @brief The CPU's implicit Butler-Volmer solves of one electrode run
/// together, the evaluations of four iterates made at once (lanes::D4): the
/// OCP fit's exps, j0's roots and the reaction's exps are most of the CPU
/// cell program's time, and four lanes of them cost little more than one.
/// Each lane does the scalar evaluation's operations (its bits), and each
/// solve takes its evaluation as step() would: results are those of the
/// solves run alone, as on the GPU.

#include <cstddef>

#include "voltaic/core/lanes4.hpp"
#include "voltaic/model/kinetics.hpp"

#if VOLTAIC_HAS_LANES4
namespace voltaic::kinetics {

/// The m (1 to 4) solves' evaluations at their iterates, made at once, each
/// handed to its solve (ImplicitSolve::take). All of one electrode, whose OCP
/// has a four-lane form (material::has_lanes_ocp); unused lanes repeat the first.
/// Called, not inlined (VOLTAIC_CPU_CALL): flattened into the program's entry
/// points (twice, with and without FMA) its four fits' lanes made that one
/// file take 11-15 minutes to compile instead of about 4.
VOLTAIC_CPU_CALL inline void step_lanes(ImplicitSolve* const* x, std::size_t m) {
  using lanes::D4;
  D4 j, value, slope, flux, dphi, factor, f, T;
  for (std::size_t i = 0; i < 4; ++i) {
    const ImplicitSolve& s = *x[i < m ? i : 0];
    const detail::ImplicitResidual& r = s.residual();
    j[i] = s.iterate();
    value[i] = r.s.value;
    slope[i] = r.s.slope;
    flux[i] = r.s.flux;
    dphi[i] = r.dphi;
    factor[i] = r.j0_factor;
    f[i] = r.f;
    T[i] = r.T;
  }
  const detail::ImplicitResidual& r0 = x[0]->residual();
  const D4 c = detail::ImplicitResidual::surface_at(j, value, slope, flux);
  const SurfaceReactionOf<D4> reaction = butler_volmer_slope_at(*r0.e, r0.t_ref, dphi, factor, f, c, T);
  D4 g, dg, dbv;
  detail::ImplicitResidual::from_reaction(j, slope, reaction, g, dg, dbv);
  const lanes::I4 good = lanes::finite(g) && lanes::finite(dg) && lanes::finite(dbv);
  for (std::size_t i = 0; i < m; ++i) x[i]->take(good[i] != 0, g[i], dg[i], dbv[i]);
}

/// Most solves run_lanes takes at once.
constexpr std::size_t kLanesBatch = 16;

/// Runs the m <= kLanesBatch solves of one electrode (has_lanes_ocp) to their
/// ends: in each round the running ones' evaluations four at a time (a last
/// one alone by step()).
inline void run_lanes(ImplicitSolve* x, std::size_t m) {
  for (;;) {
    ImplicitSolve* live[kLanesBatch];
    std::size_t r = 0;
    for (std::size_t i = 0; i < m; ++i) {
      if (x[i].running()) live[r++] = &x[i];
    }
    if (r == 0) return;
    std::size_t q = 0;
    for (; q + 1 < r; q += 4) step_lanes(live + q, r - q < 4 ? r - q : 4);
    if (q < r) live[q]->step();
  }
}

}  // namespace voltaic::kinetics
#endif
