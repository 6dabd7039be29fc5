#pragma once
// One row of inputs through the functions of the implicit Butler-Volmer solve
// and of the film's solve (the tables and their slopes, the guarded OCP, the
// regularised exchange current, Butler-Volmer's slope, the implicit
// reaction, film_reaction): written once, called by the host side of
// slopes_cuda_vs_cpu_test.cpp and by the kernel of slopes_cuda_kernels.cu
// (built with --fmad=false, as the cell program's kernels are), which
// compares the two bit for bit.

#include "solver/film_reaction.hpp"
#include "voltaic/core/macros.hpp"
#include "voltaic/model/kinetics.hpp"
#include "voltaic/model/material_function.hpp"
#include "voltaic/model/material_functions.hpp"
#include "voltaic/model/parameter_set.hpp"

namespace voltaic::test::slopes {

/// What a row evaluates.
enum class Case : int {
  cubic_table,          ///< in: x; out: interpolate_cubic_table_slope's value and slope, interpolate_cubic_table
  linear_table,         ///< in: x; out: interpolate_table_slope's value and slope, interpolate_table
  guarded_ocp,          ///< in: sto, T; out: guarded_open_circuit_potential_slope's value and slope, the plain one
  exchange_current,     ///< in: c_e, c_s, T; out: the regularised j0's value and slope, the plain one
  butler_volmer_slope,  ///< in: dphi, c_e, c_surf, T; out: j, dj, eta, ocp, dj/dc, butler_volmer's j
  implicit_reaction,    ///< in: phi_s, phi_e, c_e, the surface (value, slope, flux), T, guess; out: j, dj, c_surf, ok
  /// in: phi_s, phi_e, c_e, the surface (value, slope, flux), T, L, c_pl, guess_tot, guess_main;
  /// out: j_tot, j_sei, j_pl, d_tot, d_main, d_pl, c_surf, ok
  film_reaction,
};

/// Doubles in a row of inputs and of outputs (a case uses the first few).
inline constexpr int kInputs = 11;
inline constexpr int kOutputs = 8;

VOLTAIC_HD inline int inputs_of(Case c) {
  switch (c) {
    case Case::cubic_table:
    case Case::linear_table: return 1;
    case Case::guarded_ocp: return 2;
    case Case::exchange_current: return 3;
    case Case::butler_volmer_slope: return 4;
    case Case::implicit_reaction: return 8;
    case Case::film_reaction: return 11;
  }
  return 0;
}

VOLTAIC_HD inline int outputs_of(Case c) {
  switch (c) {
    case Case::cubic_table:
    case Case::linear_table:
    case Case::guarded_ocp:
    case Case::exchange_current: return 3;
    case Case::butler_volmer_slope: return 6;
    case Case::implicit_reaction: return 4;
    case Case::film_reaction: return 8;
  }
  return 0;
}

/// Everything a row reads besides its inputs (trivially copyable: the
/// kernel takes it by value). `e`'s custom functions and `table` point into
/// the memory of whoever evaluates.
struct RowConstants {
  Case what = Case::cubic_table;
  ElectrodeParameters e;
  double t_ref = 298.15;      ///< [K]
  double c_e_scale = 1000.0;  ///< [mol/m^3]
  const double* table = nullptr;
  int table_size = 0;
  sei::Constants sei;
  plating::Constants plating;
};

VOLTAIC_HD inline void evaluate_row(const RowConstants& s, const double* in, double* out) {
  switch (s.what) {
    case Case::cubic_table: {
      const ValueSlope v = detail::interpolate_cubic_table_slope(s.table, s.table_size, in[0]);
      out[0] = v.value;
      out[1] = v.slope;
      out[2] = detail::interpolate_cubic_table(s.table, s.table_size, in[0]);
      return;
    }
    case Case::linear_table: {
      const ValueSlope v = detail::interpolate_table_slope(s.table, s.table_size, in[0]);
      out[0] = v.value;
      out[1] = v.slope;
      out[2] = detail::interpolate_table(s.table, s.table_size, in[0]);
      return;
    }
    case Case::guarded_ocp: {
      const ValueSlope v = material::guarded_open_circuit_potential_slope(s.e, in[0], in[1], s.t_ref);
      out[0] = v.value;
      out[1] = v.slope;
      out[2] = material::guarded_open_circuit_potential(s.e, in[0], in[1], s.t_ref);
      return;
    }
    case Case::exchange_current: {
      const ValueSlope v = material::regularised_exchange_current_density_slope(s.e, in[0], in[1], in[2], s.c_e_scale);
      out[0] = v.value;
      out[1] = v.slope;
      out[2] = material::regularised_exchange_current_density(s.e, in[0], in[1], in[2], s.c_e_scale);
      return;
    }
    case Case::butler_volmer_slope: {
      const kinetics::SurfaceReaction x =
          kinetics::butler_volmer_slope(s.e, s.t_ref, in[0], in[1], in[2], in[3], s.c_e_scale);
      out[0] = x.r.j;
      out[1] = x.r.dj;
      out[2] = x.r.eta;
      out[3] = x.r.ocp;
      out[4] = x.dj_dc;
      out[5] = kinetics::butler_volmer(s.e, s.t_ref, in[0], 0.0, in[1], in[2], in[3], s.c_e_scale).j;
      return;
    }
    case Case::implicit_reaction: {
      const kinetics::SurfaceResponse r{in[3], in[4], in[5]};
      const kinetics::ImplicitReaction x =
          kinetics::butler_volmer_implicit(s.e, s.t_ref, in[0], in[1], in[2], r, in[6], s.c_e_scale, in[7]);
      out[0] = x.j;
      out[1] = x.dj;
      out[2] = x.c_surf;
      out[3] = x.ok ? 1.0 : 0.0;
      return;
    }
    case Case::film_reaction: {
      const kinetics::SurfaceResponse r{in[3], in[4], in[5]};
      const sei::FilmReaction x = sei::film_reaction(s.sei, s.plating, s.e, s.t_ref, in[0], in[1], in[2], r, in[6],
                                                     s.c_e_scale, sei::NodeFilm{in[7], in[8]}, in[9], in[10]);
      out[0] = x.j_tot;
      out[1] = x.j_sei;
      out[2] = x.j_pl;
      out[3] = x.d_tot;
      out[4] = x.d_main;
      out[5] = x.d_pl;
      out[6] = x.c_surf;
      out[7] = x.ok ? 1.0 : 0.0;
      return;
    }
  }
}

/// Evaluates `rows` rows on the current CUDA device: `in` holds rows of
/// kInputs doubles, `out` rows of kOutputs (device pointers); returns once
/// the kernel is done. Defined in slopes_cuda_kernels.cu (CUDA builds only).
void evaluate_on_device(const RowConstants& s, const double* in, double* out, int rows);

}  // namespace voltaic::test::slopes
