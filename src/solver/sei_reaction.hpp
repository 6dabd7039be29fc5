#pragma once
// The potential step's reaction with SEI growth (sei_point.hpp): the
// negative nodes' total current through the film, every other node as
// ReactionCurrentT has it. Per node functors, as dfn_point.hpp's.

#include <cstddef>

#include "solver/dfn_point.hpp"
#include "solver/sei_point.hpp"

namespace voltaic::dfn {

// The CPU program is flattened (cell_program_cpu.cpp): the film's solve,
// an implicit Butler-Volmer inside a Newton, stays a call there, or its
// inlining at every site makes the compile take tens of minutes.
#if !defined(__CUDA_ARCH__) && defined(__GNUC__)
#define VOLTAIC_SEI_NOINLINE __attribute__((noinline))
#else
#define VOLTAIC_SEI_NOINLINE
#endif

/// ReactionCurrentT with the negative nodes' SEI: aj and adj are a j_tot and
/// a dj_tot / d(phi_s - phi_e); aj_sei a j_sei; adj_main the intercalation's
/// a dj / d(phi_s - phi_e), for the solve's linearised end (SeiLinearisedT).
/// aj_sei also holds the guess (the last solve's), as aj does.
template <class K = DfnConstants>
struct SeiReactionT {
  ReactionCurrentT<K> plain;  ///< slope and flux set: the particles follow j
  const sei::Constants& s;
  const double* c_sei;
  double *aj_sei, *adj_main;

  VOLTAIC_HD VOLTAIC_SEI_NOINLINE void operator()(std::size_t c) const {
    const K& k = plain.k;
    const int r = k.map.region(c);
    if (r != static_cast<int>(CellRegion::negative)) {
      plain(c);
      return;
    }
    const double a = k.region[r].surface_area;
    const std::size_t p = k.map.particle_of_cell(c);
    const kinetics::SurfaceResponse surface{plain.c_surf[p], plain.slope[p], plain.flux[p]};
    const sei::FilmReaction x =
        sei::film_reaction(s, k.electrode_of(r), k.reference_temperature, plain.phi_s[c], plain.phi_e[c], plain.c_e[c],
                           surface, plain.T[c], k.electrolyte.initial_concentration, c_sei[c] * s.c_to_l,
                           plain.aj[c] / a, (plain.aj[c] - aj_sei[c]) / a);
    plain.aj[c] = x.ok ? a * x.j_tot : NAN;
    aj_sei[c] = x.ok ? a * x.j_sei : 0.0;
    plain.adj[c] = a * fmax(x.d_tot, 0.0);
    adj_main[c] = a * x.d_main;
    plain.surface[p] = x.c_surf;
  }
};

/// LinearisedReactionT with the negative nodes' SEI: the total and the
/// intercalation's currents each follow the update to first order, the SEI's
/// is their difference, the surface follows the intercalation's.
template <class K = DfnConstants>
struct SeiLinearisedT {
  LinearisedReactionT<K> plain;
  const double* adj_main;
  double* aj_sei;

  VOLTAIC_HD void operator()(std::size_t c) const {
    const K& k = plain.k;
    const int r = k.map.region(c);
    if (r != static_cast<int>(CellRegion::negative)) {
      plain(c);
      return;
    }
    const double d = plain.update[c] - plain.update[k.map.cells + c];
    const double main = plain.aj[c] - aj_sei[c] + adj_main[c] * d;
    plain.aj[c] += plain.adj[c] * d;
    aj_sei[c] = plain.aj[c] - main;
    const std::size_t p = k.map.particle_of_cell(c);
    const double a = k.region[r].surface_area;
    plain.surface[p] = plain.value[p] + plain.slope[p] * (main / (a * kFaraday) - plain.flux[p]);
  }
};

}  // namespace voltaic::dfn
