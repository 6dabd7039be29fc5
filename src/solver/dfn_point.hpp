#pragma once
// The DFN's cell-wise kernels as functors: one VOLTAIC_HD call per cell (or
// particle), run by the CPU loop and by one CUDA kernel template alike
// (dfn_launch.hpp), so every formula is written once. The front ends have
// checked sizes and executors; these trust their pointers.

#include <cmath>
#include <cstddef>

#include "voltaic/core/macros.hpp"
#include "voltaic/model/constants.hpp"
#include "voltaic/model/kinetics.hpp"
#include "voltaic/model/material_functions.hpp"
#include "voltaic/solver/cell_layout.hpp"

namespace voltaic::dfn {

/// How the positive collector face is driven.
struct Drive {
  bool voltage_control = false;
  double current_density = 0.0;  ///< outward, i.e. discharge > 0 [A/m^2] (current control)
  double voltage = 0.0;          ///< terminal voltage [V] (voltage control)
};

/// G of a Dirichlet face: area 2 sigma / dz (the half-cell conductance) [S].
VOLTAIC_HD inline double half_cell_conductance(double area, double sigma, double dz) { return area * 2.0 * sigma / dz; }

/// Electrolyte transport coefficients per cell: eps^b D_e, kappa_eff = eps^b
/// kappa, the diffusion-potential coefficient kappa_eff 2 (1 - t+) TDF R T / F,
/// and ln c_e. A null output is not computed (the electrolyte step needs only
/// the diffusivity, the potential step only the others).
struct ElectrolyteProperties {
  DfnConstants k;
  const double *c_e, *T;
  double *diffusivity, *kappa, *kappa_d, *log_c;

  VOLTAIC_HD void operator()(std::size_t c) const {
    const RegionConstants& r = k.region[k.map.region(c)];
    const double ce = c_e[c], t = T[c];
    if (diffusivity) diffusivity[c] = r.transport_factor * material::electrolyte_diffusivity(k.electrolyte, ce, t);
    if (!kappa) return;
    const double kap = r.transport_factor * material::electrolyte_conductivity(k.electrolyte, ce, t);
    kappa[c] = kap;
    kappa_d[c] = kap * 2.0 * (1.0 - k.electrolyte.transference_number) * k.electrolyte.thermodynamic_factor *
                 kGasConstant * t / kFaraday;
    log_c[c] = log(ce);
  }
};

/// Volumetric reaction current a j [A/m^3] and a dj/deta per cell (0 in the separator).
struct ReactionCurrent {
  DfnConstants k;
  const double *phi_s, *phi_e, *c_e, *T, *c_surf;
  double *aj, *adj;

  VOLTAIC_HD void operator()(std::size_t c) const {
    const int r = k.map.region(c);
    if (r == 1) {
      aj[c] = 0.0;
      adj[c] = 0.0;
      return;
    }
    const kinetics::Reaction x = kinetics::butler_volmer(k.electrode_of(r), k.reference_temperature, phi_s[c], phi_e[c],
                                                         c_e[c], c_surf[k.map.particle_of_cell(c)], T[c]);
    const double a = k.region[r].surface_area;
    aj[c] = a * x.j;
    adj[c] = a * x.dj;
  }
};

/// Newton residual and Jacobian of the charge balances, per cell c:
///
///   F_s = (A_s phi_s)_c + V a j + (positive collector face term)
///   F_e = (A_k phi_e)_c - (A_kd ln c_e)_c - V a j
///
/// A_s, A_k, A_kd the stencils of sigma_eff, kappa_eff and the diffusion
/// potential (their products already in s_phi, e_phi, d_logc); separator rows
/// of phi_s are phi_s = 0 (diagonal 1). Jacobian: per-volume diagonals a dj
/// (1 for the separator's phi_s) and couplings -V a dj.
struct NewtonSystem {
  DfnConstants k;
  Drive drive;
  const double *s_phi, *e_phi, *d_logc, *aj, *adj;
  double *residual, *d_s, *d_e, *c01, *c10;

  VOLTAIC_HD void operator()(std::size_t c) const {
    const std::size_t n = k.map.cells;
    const double v = k.map.volume[c];
    const int r = k.map.region(c);
    double f_s = s_phi[c] + v * aj[c];
    if (c >= n - k.map.layer) {
      // The positive collector face: outward current, or the Dirichlet value's
      // share of G (phi_c - V) (the operator's diagonal holds G phi_c).
      const double g = half_cell_conductance(k.map.face_area, k.region[2].solid_conductivity, k.last_layer_dz);
      f_s += drive.voltage_control ? -g * drive.voltage : k.map.face_area * drive.current_density;
    }
    residual[c] = f_s;
    residual[n + c] = e_phi[c] - d_logc[c] - v * aj[c];
    d_s[c] = r == 1 ? 1.0 : adj[c];
    d_e[c] = adj[c];
    c01[c] = -v * adj[c];
    c10[c] = -v * adj[c];
  }
};

/// The sub-step inputs that follow from a j: the electrolyte source (1 - t+)
/// a j / F per cell, and per particle the molar flux out of it j / F and D_s(T).
struct ConcentrationInputs {
  DfnConstants k;
  const double *aj, *T;
  double *source, *flux, *diffusivity;

  VOLTAIC_HD void operator()(std::size_t c) const {
    const int r = k.map.region(c);
    source[c] = (1.0 - k.electrolyte.transference_number) * aj[c] / kFaraday;
    if (r == 1) return;
    const std::size_t p = k.map.particle_of_cell(c);
    flux[p] = aj[c] / (k.region[r].surface_area * kFaraday);
    diffusivity[p] = material::particle_diffusivity(k.electrode_of(r), 0.0, T[c]);
  }
};

/// Neighbour couplings of one stencil (StencilCoefficients' tx, ty, tz).
struct Couplings {
  const double *tx, *ty, *tz;
};

/// Heat generated per unit volume [W/m^3], per cell: ohmic heat in the solid
/// and the electrolyte as the discrete dissipation of each face (the face
/// current times the potential drop across it, half to each neighbour, so the
/// sum over cells is exactly the discrete energy balance), irreversible
/// reaction heat a j eta and reversible heat a j T dU/dT.
struct HeatSource {
  DfnConstants k;
  Drive drive;
  int nx, ny;
  Couplings sigma, kappa, kappa_d;
  const double *phi_s, *phi_e, *log_c, *aj, *c_surf, *T;
  double* q;

  /// Half the dissipation of the face between c and nb with couplings t_s, t_k, t_kd [W].
  VOLTAIC_HD double face(std::size_t c, std::size_t nb, double t_s, double t_k, double t_kd) const {
    const double ds = phi_s[c] - phi_s[nb], de = phi_e[c] - phi_e[nb], dl = log_c[c] - log_c[nb];
    return 0.5 * (t_s * ds * ds + (t_k * de - t_kd * dl) * de);
  }

  VOLTAIC_HD void operator()(std::size_t c) const {
    const std::size_t layer = k.map.layer, n = k.map.cells;
    const std::size_t i = c % static_cast<std::size_t>(nx), j = (c / nx) % static_cast<std::size_t>(ny);
    const std::size_t kz = c / layer;
    double w = 0.0;  // dissipation in watts
    if (i + 1 < static_cast<std::size_t>(nx)) w += face(c, c + 1, sigma.tx[c], kappa.tx[c], kappa_d.tx[c]);
    if (i > 0) w += face(c, c - 1, sigma.tx[c - 1], kappa.tx[c - 1], kappa_d.tx[c - 1]);
    if (j + 1 < static_cast<std::size_t>(ny)) w += face(c, c + nx, sigma.ty[c], kappa.ty[c], kappa_d.ty[c]);
    if (j > 0) w += face(c, c - nx, sigma.ty[c - nx], kappa.ty[c - nx], kappa_d.ty[c - nx]);
    if (c + layer < n) w += face(c, c + layer, sigma.tz[c], kappa.tz[c], kappa_d.tz[c]);
    if (kz > 0) w += face(c, c - layer, sigma.tz[c - layer], kappa.tz[c - layer], kappa_d.tz[c - layer]);
    const double area = k.map.face_area;
    if (kz == 0) {  // the negative collector face, phi_s = 0
      const double g = half_cell_conductance(area, k.region[0].solid_conductivity, k.first_layer_dz);
      w += g * phi_s[c] * phi_s[c];
    }
    if (c >= n - layer) {  // the positive collector face
      const double sig = k.region[2].solid_conductivity;
      const double g = half_cell_conductance(area, sig, k.last_layer_dz);
      const double drop = drive.voltage_control ? phi_s[c] - drive.voltage : drive.current_density * area / g;
      w += g * drop * drop;
    }
    const int r = k.map.region(c);
    double reaction = 0.0;
    if (r != 1) {
      const ElectrodeParameters& e = k.electrode_of(r);
      const double sto = c_surf[k.map.particle_of_cell(c)] / e.maximum_concentration;
      const double ocp = material::open_circuit_potential(e, sto, T[c], k.reference_temperature);
      const double eta = phi_s[c] - phi_e[c] - ocp;
      reaction = aj[c] * (eta + T[c] * material::entropic_change(e, sto));
    }
    q[c] = w / k.map.volume[c] + reaction;
  }
};

}  // namespace voltaic::dfn

namespace voltaic::dfn {

/// y = 1 / x: min(T) as 1 / max|1 / T| with the deterministic max_abs (T > 0).
struct Reciprocal {
  const double* x;
  double* y;
  VOLTAIC_HD void operator()(std::size_t i) const { y[i] = 1.0 / x[i]; }
};

/// A per-particle field on the cells: its electrode cell's particle, NaN in
/// the separator (for output on the cell grid).
struct ParticlesToCells {
  CellMap map;
  const double* particle;
  double* cell;
  VOLTAIC_HD void operator()(std::size_t c) const {
    cell[c] = map.region(c) == 1 ? NAN : particle[map.particle_of_cell(c)];
  }
};

}  // namespace voltaic::dfn
