#pragma once
// The potential step's reaction with side reactions on the negative
// particles (film_reaction.hpp: SEI growth, lithium plating, the film's
// drop): the negative nodes' total current, every other node as
// ReactionCurrentT has it. Per node functors, as dfn_point.hpp's.

#include <cstddef>

#include "solver/dfn_point.hpp"
#include "solver/film_reaction.hpp"

namespace voltaic::dfn {

// The film's solve (an implicit Butler-Volmer inside a Newton, with the
// side reactions) stays a call on both sides: the CPU program is flattened
// (cell_program_cpu.cpp), where inlining it at every site makes the compile
// take tens of minutes, and on the GPU it only runs for ageing cells.
#if defined(__CUDA_ARCH__)
#define VOLTAIC_SEI_NOINLINE __noinline__
#elif defined(__GNUC__)
#define VOLTAIC_SEI_NOINLINE __attribute__((noinline))
#else
#define VOLTAIC_SEI_NOINLINE
#endif

/// The side reactions' arrays (n each; a null pointer: that reaction is off).
struct SideArrays {
  const double* c_sei;  ///< the film [mol/m^3] (its thickness c_sei V_bar / a)
  double* aj_sei;       ///< a j_sei; also the guess (the last solve's)
  const double* c_pl;   ///< plated lithium [mol/m^3]
  double* aj_pl;        ///< a j_pl
  double* adj_pl;       ///< a dj_pl / d(phi_s - phi_e), for the linearised end
};

/// ReactionCurrentT with the negative nodes' side reactions: aj and adj are
/// a j_tot and a dj_tot / d(phi_s - phi_e); adj_main the intercalation's
/// a dj / d(phi_s - phi_e), for the solve's linearised end (SideLinearisedT).
template <class K = DfnConstants>
struct SideReactionT {
  ReactionCurrentT<K> plain;  ///< slope and flux set: the particles follow j
  const sei::Constants& s;
  const plating::Constants& pc;
  SideArrays side;
  double* adj_main;

  /// a j of the side reactions at c: what the particles do not see.
  VOLTAIC_HD double main_of(std::size_t c, double aj) const {
    if (side.aj_sei) aj = aj - side.aj_sei[c];
    if (side.aj_pl) aj = aj - side.aj_pl[c];
    return aj;
  }

  VOLTAIC_HD VOLTAIC_SEI_NOINLINE void operator()(std::size_t c) const {
    const K& k = plain.k;
    const int r = k.map.region(c);
    if (r != static_cast<int>(CellRegion::negative)) {
      plain(c);
      return;
    }
    const double a = surface_area(k, r, plain.active, c);
    const std::size_t p = k.map.particle_of_cell(c);
    const kinetics::SurfaceResponse surface{plain.c_surf[p], plain.slope[p], plain.flux[p]};
    // The film's thickness c_sei V_bar / a: c_to_l holds a0 (a = a0 f).
    const double l_sei = !side.c_sei    ? 0.0
                         : plain.active ? side.c_sei[c] * s.c_to_l / plain.active[c]
                                        : side.c_sei[c] * s.c_to_l;
    const sei::NodeFilm film{l_sei, side.c_pl ? side.c_pl[c] : 0.0};
    const sei::FilmReaction x = sei::film_reaction(
        s, pc, k.electrode_of(r), k.reference_temperature, plain.phi_s[c], plain.phi_e[c], plain.c_e[c], surface,
        plain.T[c], k.electrolyte.initial_concentration, film, plain.aj[c] / a, main_of(c, plain.aj[c]) / a);
    plain.aj[c] = x.ok ? a * x.j_tot : NAN;
    if (side.aj_sei) side.aj_sei[c] = x.ok ? a * x.j_sei : 0.0;
    if (side.aj_pl) {
      side.aj_pl[c] = x.ok ? a * x.j_pl : 0.0;
      side.adj_pl[c] = a * x.d_pl;
    }
    plain.adj[c] = a * fmax(x.d_tot, 0.0);
    adj_main[c] = a * x.d_main;
    plain.surface[p] = x.c_surf;
  }
};

/// LinearisedReactionT with the negative nodes' side reactions: the total,
/// the intercalation's and the plating's currents each follow the update to
/// first order, the SEI's is what is left, the surface follows the
/// intercalation's.
template <class K = DfnConstants>
struct SideLinearisedT {
  LinearisedReactionT<K> plain;
  const double* adj_main;
  SideArrays side;

  VOLTAIC_HD void operator()(std::size_t c) const {
    const K& k = plain.k;
    const int r = k.map.region(c);
    if (r != static_cast<int>(CellRegion::negative)) {
      plain(c);
      return;
    }
    const double d = plain.update[c] - plain.update[k.map.cells + c];
    double main = plain.aj[c];
    if (side.aj_sei) main = main - side.aj_sei[c];
    if (side.aj_pl) main = main - side.aj_pl[c];
    main = main + adj_main[c] * d;
    plain.aj[c] += plain.adj[c] * d;
    if (side.aj_pl) side.aj_pl[c] += side.adj_pl[c] * d;
    if (side.aj_sei) side.aj_sei[c] = side.aj_pl ? plain.aj[c] - main - side.aj_pl[c] : plain.aj[c] - main;
    const std::size_t p = k.map.particle_of_cell(c);
    const double a = surface_area(k, r, plain.active, c);
    plain.surface[p] = plain.value[p] + plain.slope[p] * (main / (a * kFaraday) - plain.flux[p]);
  }
};

}  // namespace voltaic::dfn
