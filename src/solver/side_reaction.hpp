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
    if (!negative(c)) {
      plain(c);
      return;
    }
    const double a = surface_area(plain.k, static_cast<int>(CellRegion::negative), plain.active, c);
    store(c, a, sei::film_reaction(solve_at(c, a)));
  }

  /// Cells c0 and c1 as operator() does them, two negative nodes' solves side
  /// by side (sei::film_reaction_pair), two others' as ReactionCurrentT::pair:
  /// the CPU's loop (all()).
  void pair(std::size_t c0, std::size_t c1) const {
    if (!negative(c0) && !negative(c1)) return plain.pair(c0, c1);
    if (!negative(c0) || !negative(c1)) {
      (*this)(c0);
      (*this)(c1);
      return;
    }
    const double a0 = surface_area(plain.k, static_cast<int>(CellRegion::negative), plain.active, c0);
    const double a1 = surface_area(plain.k, static_cast<int>(CellRegion::negative), plain.active, c1);
    sei::FilmSolve f0 = solve_at(c0, a0), f1 = solve_at(c1, a1);
    sei::film_reaction_pair(f0, f1);
    store(c0, a0, f0.result());
    store(c1, a1, f1.result());
  }

  /// Cells 0..n-1 as operator() does them, two at a time (pair): the CPU's
  /// loop (CellRun::each_then).
  void all(std::size_t n) const { each_pair(*this, n); }

 private:
  /// What a node's solve reads besides the arrays.
  struct NodeArgs {
    const ElectrodeParameters& e;
    double t_ref, c_e_scale;
    sei::NodeFilm film;
  };

  VOLTAIC_HD bool negative(std::size_t c) const {
    return plain.k.map.region(c) == static_cast<int>(CellRegion::negative);
  }
  VOLTAIC_HD kinetics::SurfaceResponse surface_of(std::size_t c) const {
    const std::size_t p = plain.k.map.particle_of_cell(c);
    return {plain.c_surf[p], plain.slope[p], plain.flux[p]};
  }
  VOLTAIC_HD NodeArgs node(std::size_t c) const {
    const K& k = plain.k;
    // The film's thickness c_sei V_bar / a: c_to_l holds a0 (a = a0 f).
    const double l_sei = !side.c_sei    ? 0.0
                         : plain.active ? side.c_sei[c] * s.c_to_l / plain.active[c]
                                        : side.c_sei[c] * s.c_to_l;
    return {k.electrode_of(static_cast<int>(CellRegion::negative)), k.reference_temperature,
            k.electrolyte.initial_concentration, sei::NodeFilm{l_sei, side.c_pl ? side.c_pl[c] : 0.0}};
  }
  VOLTAIC_HD sei::FilmSolve solve_at(std::size_t c, double a) const {
    const NodeArgs n = node(c);
    return sei::FilmSolve(s, pc, n.e, n.t_ref, plain.phi_s[c], plain.phi_e[c], plain.c_e[c], surface_of(c), plain.T[c],
                          n.c_e_scale, n.film, plain.aj[c] / a, main_of(c, plain.aj[c]) / a);
  }
  VOLTAIC_HD void store(std::size_t c, double a, const sei::FilmReaction& x) const {
    plain.aj[c] = x.ok ? a * x.j_tot : NAN;
    if (side.aj_sei) side.aj_sei[c] = x.ok ? a * x.j_sei : 0.0;
    if (side.aj_pl) {
      side.aj_pl[c] = x.ok ? a * x.j_pl : 0.0;
      side.adj_pl[c] = a * x.d_pl;
    }
    plain.adj[c] = a * fmax(x.d_tot, 0.0);
    adj_main[c] = a * x.d_main;
    plain.surface[plain.k.map.particle_of_cell(c)] = x.c_surf;
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
