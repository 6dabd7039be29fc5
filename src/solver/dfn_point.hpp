#pragma once
// The DFN's cell-wise kernels as functors: one VOLTAIC_HD call per cell (or
// particle), run by the CPU loop and by one CUDA kernel template alike
// (dfn_launch.hpp), so every formula is written once. The front ends have
// checked sizes and executors; these trust their pointers.

#include <cmath>
#include <cstddef>

#include "solver/bdf2.hpp"
#include "voltaic/core/macros.hpp"
#include "voltaic/model/constants.hpp"
#include "voltaic/model/kinetics.hpp"
#include "voltaic/model/kinetics_lanes.hpp"
#include "voltaic/model/material_functions.hpp"
#include "voltaic/solver/cell_layout.hpp"

namespace voltaic::dfn {

/// How the positive collector face is driven.
struct Drive {
  bool voltage_control = false;
  double current_density = 0.0;  ///< outward, i.e. discharge > 0 [A/m^2] (current control)
  double voltage = 0.0;          ///< terminal voltage [V] (voltage control)
  /// With current-collector foils (potential pair): the potential of the
  /// negative and positive foil over each column (nx ny values each). Both
  /// faces are then Dirichlet faces at these values and the drive above acts
  /// on the foils' tabs instead (collector_coupling.hpp).
  const double* foil_negative = nullptr;
  const double* foil_positive = nullptr;
};

/// [mol/m^3]: the electrolyte transport functions are evaluated at
/// max(c_e, this), as PyBaMM's DFN does.
constexpr double kElectrolyteFloor = 10.0;

/// ln a - ln b on a face as PyBaMM discretises grad(c_e) / c_e: the difference
/// over the face value (a + b) / 2. Agrees with ln a - ln b to third order in
/// (a - b) / (a + b) and stays finite when one side depletes (c_e -> 0), where
/// the logarithm does not. Our guard for depleted cells: values a hair below
/// zero count as zero, and the face value is at least 1e-3 mol/m^3.
VOLTAIC_HD inline double log_difference(double a, double b) {
  a = fp::max(a, 0.0);
  b = fp::max(b, 0.0);
  return (a - b) / fp::max(0.5 * (a + b), 1e-3);
}

/// G of a Dirichlet face: area 2 sigma / dz (the half-cell conductance) [S].
VOLTAIC_HD inline double half_cell_conductance(double area, double sigma, double dz) { return area * 2.0 * sigma / dz; }

/// Electrolyte transport coefficients per cell: eps^b D_e, kappa_eff = eps^b
/// kappa and the diffusion-potential coefficient kappa_eff 2 (1 - t+) TDF R T / F.
/// A null output is not computed (the electrolyte step needs only the
/// diffusivity, the potential step only the others).
/// K: DfnConstants (by value, for kernels) or const DfnConstants& (the batch
/// cell program, whose constants stay where they are).
template <class K = DfnConstants>
struct ElectrolytePropertiesT {
  K k;
  const double *c_e, *T;
  double *diffusivity, *kappa, *kappa_d;
  const double* transport = nullptr;  ///< eps^b_e per cell (a changing porosity); null: the region's

  VOLTAIC_HD void operator()(std::size_t c) const {
    const RegionConstants& r = k.region[k.map.region(c)];
    const double factor = transport ? transport[c] : r.transport_factor;
    // PyBaMM's floor: the transport functions see at least 10 mol/m^3, so that
    // a nearly depleted cell (and an iterate just below zero) keeps finite,
    // positive coefficients.
    const double ce = fp::max(c_e[c], kElectrolyteFloor), t = T[c];
    if (diffusivity) diffusivity[c] = factor * material::electrolyte_diffusivity(k.electrolyte, ce, t);
    if (!kappa) return;
    const double kap = factor * material::electrolyte_conductivity(k.electrolyte, ce, t);
    kappa[c] = kap;
    kappa_d[c] = kap * 2.0 * (1.0 - k.electrolyte.transference_number) * k.electrolyte.thermodynamic_factor *
                 kGasConstant * t / kFaraday;
  }
};
using ElectrolyteProperties = ElectrolytePropertiesT<>;

/// The surface per volume a [1/m] at cell c of region r: the region's a0,
/// times the active material left there (loss of active material,
/// lam_point.hpp: f = eps_s / eps_s0), when `active` is set.
template <class K>
VOLTAIC_HD inline double surface_area(const K& k, int r, const double* active, std::size_t c) {
  const double a = k.region[r].surface_area;
  return active ? a * active[c] : a;
}

/// Cells 0..n-1 two at a time (f.pair(c, c + 1)), the last alone (f(c)) when
/// n is odd: the CPU's loop over functors whose pair runs two nodes' solves
/// side by side.
template <class F>
void each_pair(const F& f, std::size_t n) {
  std::size_t c = 0;
  for (; c + 1 < n; c += 2) f.pair(c, c + 1);
  if (c < n) f(c);
}

/// Volumetric reaction current a j [A/m^3] and a dj/d(phi_s - phi_e) per cell
/// (0 in the separator). With `slope` and `flux` set, the surface
/// concentration follows j through each particle's step response
/// (kinetics::SurfaceResponse) and `surface` receives c_surf(j); aj is also
/// the guess of that per-particle solve, and a particle without an admissible
/// root gets a j of NaN (the solve then fails and the step is cut).
/// K: DfnConstants (by value, for kernels) or const DfnConstants& (the batch
/// cell program, whose constants stay where they are).
template <class K = DfnConstants>
struct ReactionCurrentT {
  K k;
  const double *phi_s, *phi_e, *c_e, *T, *c_surf;
  const double *slope, *flux;      ///< null: c_surf is fixed
  double *aj, *adj, *surface;      ///< surface: null unless slope is set
  const double* active = nullptr;  ///< f = eps_s / eps_s0 per cell (surface_area); null: 1
  /// Per cell, the implicit solves' quadratic constant, read and learned
  /// (kinetics::ImplicitSolve; 0: unknown); null: none kept.
  double* quadratic = nullptr;

  VOLTAIC_HD void operator()(std::size_t c) const {
    const int r = k.map.region(c);
    if (k.map.in_separator(c)) {
      aj[c] = 0.0;
      adj[c] = 0.0;
      return;
    }
    if (slope) {
      kinetics::ImplicitSolve x = solve_at(c);
      kinetics::run_to_end(x);
      store(c, x);
      return;
    }
    const double a = surface_area(k, r, active, c);
    const std::size_t p = k.map.particle_of_cell(c);
    const kinetics::Reaction x = kinetics::butler_volmer(k.electrode_of(r), k.reference_temperature, phi_s[c], phi_e[c],
                                                         c_e[c], c_surf[p], T[c], k.electrolyte.initial_concentration);
    aj[c] = a * x.j;
    adj[c] = a * fp::max(x.dj, 0.0);
  }

  /// Cells c0 and c1 as operator() does them, their particles' solves side by
  /// side (kinetics::butler_volmer_implicit_pair) where both have one: the
  /// CPU's fallback in all().
  void pair(std::size_t c0, std::size_t c1) const {
    if (!slope || k.map.in_separator(c0) || k.map.in_separator(c1)) {
      (*this)(c0);
      (*this)(c1);
      return;
    }
    kinetics::ImplicitSolve x0 = solve_at(c0), x1 = solve_at(c1);
    kinetics::butler_volmer_implicit_pair(x0, x1);
    store(c0, x0);
    store(c1, x1);
  }

  /// Cells 0..n-1 as operator() does them, on the CPU: the particles' solves
  /// of up to kinetics::kLanesBatch neighbouring cells of one electrode run
  /// together, four evaluations at once (kinetics::run_lanes) where its OCP
  /// allows, else two side by side (pair). The CPU's loop (CellRun::each_then).
  void all(std::size_t n) const {
#if VOLTAIC_HAS_LANES4
    std::size_t c = 0;
    while (c < n) {
      const int r = k.map.region(c);
      if (!slope || k.map.in_separator(c) || !material::has_lanes_ocp(k.electrode_of(r))) {
        const bool two = c + 1 < n && k.map.region(c + 1) == r;
        two ? pair(c, c + 1) : (*this)(c);
        c += two ? 2 : 1;
        continue;
      }
      kinetics::ImplicitSolve x[kinetics::kLanesBatch];
      std::size_t m = 0;
      for (; m < kinetics::kLanesBatch && c + m < n && k.map.region(c + m) == r; ++m) x[m] = solve_at(c + m);
      kinetics::run_lanes(x, m);
      for (std::size_t i = 0; i < m; ++i) store(c + i, x[i]);
      c += m;
    }
#else
    each_pair(*this, n);
#endif
  }

 private:
  /// The solve of electrode cell c's particle, from the last j (aj / a).
  VOLTAIC_HD kinetics::ImplicitSolve solve_at(std::size_t c) const {
    const int r = k.map.region(c);
    const std::size_t p = k.map.particle_of_cell(c);
    const kinetics::SurfaceResponse s{c_surf[p], slope[p], flux[p]};
    return kinetics::ImplicitSolve(k.electrode_of(r), k.reference_temperature, phi_s[c], phi_e[c], c_e[c], s, T[c],
                                   k.electrolyte.initial_concentration, aj[c] / surface_area(k, r, active, c),
                                   quadratic ? quadratic[c] : 0.0);
  }

  VOLTAIC_HD void store(std::size_t c, const kinetics::ImplicitSolve& x) const {
    store(c, x.result());
    if (quadratic) quadratic[c] = x.quadratic();
  }

  VOLTAIC_HD void store(std::size_t c, const kinetics::ImplicitReaction& x) const {
    const double a = surface_area(k, k.map.region(c), active, c);
    aj[c] = x.ok ? a * x.j : NAN;
    // dj/d(phi_s - phi_e) > 0 but where j0 changes sign with an iterate of
    // c_e just below zero; the Jacobian keeps it >= 0 (SPD), the residual exact.
    adj[c] = a * fp::max(x.dj, 0.0);
    surface[k.map.particle_of_cell(c)] = x.c_surf;
  }
};
using ReactionCurrent = ReactionCurrentT<>;

/// The reaction after a Newton update that ends the solve, to first order in
/// the update: a j += a dj (d phi_s - d phi_e) with the Jacobian's own a dj,
/// so the charge balances hold as the linear system does (exactly for a
/// direct solve), and the surface c_surf(j) follows (it is linear in j).
/// Spares the evaluation at the final iterate, whose change is second order
/// in an update the convergence test has found small.
/// K: DfnConstants (by value, for kernels) or const DfnConstants& (the batch
/// cell program, whose constants stay where they are).
template <class K = DfnConstants>
struct LinearisedReactionT {
  K k;
  const double *update, *adj;          ///< update: 2 cells values (phi_s, then phi_e)
  const double *value, *slope, *flux;  ///< the ParticleSurface; slope null: the surface is fixed
  double *aj, *surface;
  const double* active = nullptr;  ///< as ReactionCurrentT's

  VOLTAIC_HD void operator()(std::size_t c) const {
    if (k.map.in_separator(c)) return;
    aj[c] += adj[c] * (update[c] - update[k.map.cells + c]);
    if (!slope) return;
    const std::size_t p = k.map.particle_of_cell(c);
    const double a = surface_area(k, k.map.region(c), active, c);
    surface[p] = value[p] + slope[p] * (aj[c] / (a * kFaraday) - flux[p]);
  }
};
using LinearisedReaction = LinearisedReactionT<>;

/// Newton residual and Jacobian of the charge balances, per cell c:
///
///   F_s = (A_s phi_s)_c + V a j + (positive collector face term)
///   F_e = (A_k phi_e)_c - (A_kd ln c_e)_c - V a j
///
/// A_s, A_k, A_kd the stencils of sigma_eff, kappa_eff and the diffusion
/// potential (their products already in s_phi, e_phi, d_logc); separator rows
/// of phi_s are phi_s = 0 (diagonal 1). Jacobian: per-volume diagonals a dj
/// (1 for the separator's phi_s) and couplings -V a dj.
/// K: DfnConstants (by value, for kernels) or const DfnConstants& (the batch
/// cell program, whose constants stay where they are).
template <class K = DfnConstants>
struct NewtonSystemT {
  K k;
  Drive drive;
  const double *s_phi, *e_phi, *d_logc, *aj, *adj;
  double *residual, *d_s, *d_e, *c01, *c10;

  VOLTAIC_HD void operator()(std::size_t c) const {
    const std::size_t n = k.map.cells;
    const double v = k.map.volume[c];
    double f_s = s_phi[c] + v * aj[c];
    const std::size_t layer = k.map.layer;
    if (c >= n - layer) {
      // The positive collector face: outward current, or the Dirichlet value's
      // share of G (phi_c - V) (the operator's diagonal holds G phi_c).
      const double g =
          half_cell_conductance(k.map.face_area, k.of(CellRegion::positive).solid_conductivity, k.last_layer_dz);
      if (drive.foil_positive)
        f_s -= g * drive.foil_positive[c - (n - layer)];
      else
        f_s += drive.voltage_control ? -g * drive.voltage : k.map.face_area * drive.current_density;
    }
    if (c < layer && drive.foil_negative) {  // the negative face, at the foil's potential (else 0)
      f_s -= half_cell_conductance(k.map.face_area, k.of(CellRegion::negative).solid_conductivity, k.first_layer_dz) *
             drive.foil_negative[c];
    }
    residual[c] = f_s;
    residual[n + c] = e_phi[c] - d_logc[c] - v * aj[c];
    d_s[c] = k.map.in_separator(c) ? 1.0 : adj[c];
    d_e[c] = adj[c];
    c01[c] = -v * adj[c];
    c10[c] = -v * adj[c];
  }
};
using NewtonSystem = NewtonSystemT<>;

/// The electrolyte step's reaction sink taken proportional to c_e (a
/// Patankar-type linearisation, s = sigma c_e with sigma = s_k / c_k, s_k the
/// sink of the pass's reaction at its c_e iterate c_k): with it the implicit
/// step cannot drive c_e below zero however long, and at convergence of the
/// passes (c_e = c_k) it is the sink itself. Folded into the backward-Euler
/// form C (u - u0) / dt = L u + source of DiffusionStep:
///   C = eps - dt sigma,  source = s_k - sigma c_k + sigma u0  (u0 in c_e).
/// Sources (s_k >= 0) are unchanged (sigma = 0), and so is everything when
/// `linearised` is false (the plain sink). So are sinks that take less than
/// kLinearisedSinkShare of the cell's electrolyte lithium in the step: they
/// cannot empty it, and where no cell is linearised the step needs no last
/// pass with the plain sink.
constexpr double kLinearisedSinkShare = 0.05;

struct ElectrolyteSink {
  const double *porosity, *iterate, *c_e;
  double dt;
  bool linearised;
  double *source, *sigma, *capacity;
  VOLTAIC_HD void operator()(std::size_t c) const {
    const double s_k = source[c];
    const bool deep = -s_k * dt > kLinearisedSinkShare * porosity[c] * fp::max(iterate[c], 0.0);
    const double g = linearised && s_k < 0.0 && deep ? s_k / fp::max(iterate[c], 1e-12) : 0.0;
    sigma[c] = g;
    capacity[c] = porosity[c] - dt * g;
    source[c] = s_k + g * (c_e[c] - iterate[c]);
  }
};

/// The particles' flux for the sink the electrolyte step applied: j / F
/// changed by sigma (u - c_k) / ((1 - t+) a), so that particles and
/// electrolyte exchange the same lithium (conserved to rounding).
/// K: DfnConstants (by value, for kernels) or const DfnConstants& (the batch
/// cell program, whose constants stay where they are).
template <class K = DfnConstants>
struct SinkFluxT {
  K k;
  const double *sigma, *c_e, *iterate;
  double* flux;
  const double* active = nullptr;  ///< as ReactionCurrentT's
  VOLTAIC_HD void operator()(std::size_t c) const {
    const int r = k.map.region(c);
    if (k.map.in_separator(c) || sigma[c] == 0.0) return;
    flux[k.map.particle_of_cell(c)] +=
        sigma[c] * (c_e[c] - iterate[c]) / ((1.0 - k.electrolyte.transference_number) * surface_area(k, r, active, c));
  }
};
using SinkFlux = SinkFluxT<>;

/// Neighbour couplings of one stencil (StencilCoefficients' tx, ty, tz).
struct Couplings {
  const double *tx, *ty, *tz;
};

/// The diffusion-potential term of the electrolyte charge balance per cell,
/// sum over faces of t_kd (ln c_c - ln c_nb) with the face form
/// log_difference (t_kd the couplings of the kappa_D stencil).
struct DiffusionPotential {
  std::size_t cells, layer;
  int nx, ny;
  Couplings kd;
  const double* c_e;
  double* out;

  VOLTAIC_HD void operator()(std::size_t c) const {
    const std::size_t i = c % static_cast<std::size_t>(nx), j = (c / nx) % static_cast<std::size_t>(ny);
    const double u = c_e[c];
    double sum = 0.0;
    if (i + 1 < static_cast<std::size_t>(nx)) sum += kd.tx[c] * log_difference(u, c_e[c + 1]);
    if (i > 0) sum += kd.tx[c - 1] * log_difference(u, c_e[c - 1]);
    if (j + 1 < static_cast<std::size_t>(ny)) sum += kd.ty[c] * log_difference(u, c_e[c + nx]);
    if (j > 0) sum += kd.ty[c - nx] * log_difference(u, c_e[c - nx]);
    if (c + layer < cells) sum += kd.tz[c] * log_difference(u, c_e[c + layer]);
    if (c >= layer) sum += kd.tz[c - layer] * log_difference(u, c_e[c - layer]);
    out[c] = sum;
  }
};

/// The intercalation's a j at cell c: aj less the side reactions' (each null when off).
VOLTAIC_HD inline double intercalation(const double* aj, const double* aj_side, const double* aj_plating,
                                       std::size_t c) {
  double main = aj_side ? aj[c] - aj_side[c] : aj[c];
  if (aj_plating) main = main - aj_plating[c];
  return main;
}

/// The sub-step inputs that follow from a j: the electrolyte source (1 - t+)
/// a j / F per cell, and per particle the molar flux out of it j / F and D_s(T).
/// With side reactions (aj_side: a j_sei, aj_plating: a j_pl; side_reaction.hpp)
/// a j is their sum with the intercalation's, and only the intercalation's
/// leaves the particle.
/// K: DfnConstants (by value, for kernels) or const DfnConstants& (the batch
/// cell program, whose constants stay where they are).
template <class K = DfnConstants>
struct ConcentrationInputsT {
  K k;
  const double *aj, *T;
  double *source, *flux, *diffusivity;
  const double* aj_side = nullptr;
  const double* aj_plating = nullptr;
  const double* active = nullptr;  ///< as ReactionCurrentT's

  VOLTAIC_HD void operator()(std::size_t c) const {
    const int r = k.map.region(c);
    source[c] = (1.0 - k.electrolyte.transference_number) * aj[c] / kFaraday;
    if (k.map.in_separator(c)) return;
    const std::size_t p = k.map.particle_of_cell(c);
    flux[p] = intercalation(aj, aj_side, aj_plating, c) / (surface_area(k, r, active, c) * kFaraday);
    diffusivity[p] = material::particle_diffusivity(k.electrode_of(r), 0.0, T[c]);
  }
};
using ConcentrationInputs = ConcentrationInputsT<>;

/// Heat generated per unit volume [W/m^3], per cell: ohmic heat in the solid
/// and the electrolyte as the discrete dissipation of each face (the face
/// current times the potential drop across it, half to each neighbour, so the
/// sum over cells is exactly the discrete energy balance), irreversible
/// reaction heat a j eta and reversible heat a j T dU/dT.
/// K: DfnConstants (by value, for kernels) or const DfnConstants& (the batch
/// cell program, whose constants stay where they are).
template <class K = DfnConstants>
struct HeatSourceT {
  K k;
  Drive drive;
  int nx, ny;
  Couplings sigma, kappa, kappa_d;
  const double *phi_s, *phi_e, *c_e, *aj, *c_surf, *T;
  double* q;
  /// With side reactions (side_reaction.hpp), PyBaMM's reaction heat: the
  /// intercalation's a j (aj less aj_side and aj_plating) times its
  /// overpotential, which the film's drop (film_drop [V]) lowers; the film's,
  /// the SEI's and the plating's heat are not counted.
  const double *aj_side = nullptr, *film_drop = nullptr, *aj_plating = nullptr;

  /// Half the dissipation of the face between c and nb with couplings t_s, t_k, t_kd [W].
  VOLTAIC_HD double face(std::size_t c, std::size_t nb, double t_s, double t_k, double t_kd) const {
    const double ds = phi_s[c] - phi_s[nb], de = phi_e[c] - phi_e[nb], dl = log_difference(c_e[c], c_e[nb]);
    return 0.5 * (t_s * ds * ds + (t_k * de - t_kd * dl) * de);
  }

  VOLTAIC_HD void operator()(std::size_t c) const { at(c, k.map.in_separator(c) ? 0.0 : ocp_of(c)); }

  /// U at the particle surface of electrode node c.
  VOLTAIC_HD double ocp_of(std::size_t c) const {
    const ElectrodeParameters& e = k.electrode_of(k.map.region(c));
    const double sto = c_surf[k.map.particle_of_cell(c)] / e.maximum_concentration;
    return material::guarded_open_circuit_potential(e, sto, T[c], k.reference_temperature);
  }

  /// Nodes 0..n-1 as operator() does them, on the CPU: the OCPs of four
  /// nodes of one electrode at once where it allows (material::has_lanes_ocp),
  /// each lane the scalar's bits.
  void all(std::size_t n) const {
    std::size_t c = 0;
#if VOLTAIC_HAS_LANES4
    while (c + 4 <= n) {
      const int r = k.map.region(c);  // regions follow c: c + 3's is c's for all four
      if (k.map.in_separator(c) || k.map.region(c + 3) != r || !material::has_lanes_ocp(k.electrode_of(r))) {
        (*this)(c++);
        continue;
      }
      const ElectrodeParameters& e = k.electrode_of(r);
      lanes::D4 sto, t;
      for (std::size_t i = 0; i < 4; ++i) {
        sto[i] = c_surf[k.map.particle_of_cell(c + i)] / e.maximum_concentration;
        t[i] = T[c + i];
      }
      const lanes::D4 u = material::guarded_open_circuit_potential_slope(e, sto, t, k.reference_temperature).value;
      for (std::size_t i = 0; i < 4; ++i) at(c + i, u[i]);
      c += 4;
    }
#endif
    for (; c < n; ++c) (*this)(c);
  }

  /// q at node c, `ocp` the U at its particle surface (unused in the separator).
  VOLTAIC_HD void at(std::size_t c, double ocp) const {
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
    if (kz == 0) {  // the negative collector face, phi_s = 0 (or the foil's potential)
      const double g = half_cell_conductance(area, k.of(CellRegion::negative).solid_conductivity, k.first_layer_dz);
      const double drop = phi_s[c] - (drive.foil_negative ? drive.foil_negative[c] : 0.0);
      w += g * drop * drop;
    }
    if (c >= n - layer) {  // the positive collector face
      const double sig = k.of(CellRegion::positive).solid_conductivity;
      const double g = half_cell_conductance(area, sig, k.last_layer_dz);
      const double drop = drive.foil_positive     ? phi_s[c] - drive.foil_positive[c - (n - layer)]
                          : drive.voltage_control ? phi_s[c] - drive.voltage
                                                  : drive.current_density * area / g;
      w += g * drop * drop;
    }
    const int r = k.map.region(c);
    double reaction = 0.0;
    if (!k.map.in_separator(c)) {
      const ElectrodeParameters& e = k.electrode_of(r);
      const double sto = c_surf[k.map.particle_of_cell(c)] / e.maximum_concentration;
      const double eta = phi_s[c] - phi_e[c] - ocp - (film_drop ? film_drop[c] : 0.0);
      const double main = intercalation(aj, aj_side, aj_plating, c);
      reaction = main * (eta + T[c] * material::entropic_change(e, fp::min(fp::max(sto, 1e-10), 1.0 - 1e-10)));
    }
    q[c] = w / k.map.volume[c] + reaction;
  }
};
using HeatSource = HeatSourceT<>;

}  // namespace voltaic::dfn

namespace voltaic::dfn {

/// The weighted local error of one state array: out = factor (y - P) /
/// (rtol |y| + atol), P = l0 y0 + l1 y1 + l2 y2 the predictor (bdf2.hpp);
/// the error norm is the root mean square of out.
struct LocalError {
  const double *y, *y0, *y1, *y2;
  bdf::Estimate e;
  double rtol, atol;
  double* out;
  VOLTAIC_HD void operator()(std::size_t i) const {
    out[i] = bdf::weighted_deviation(e, y[i], y0[i], y1[i], y2[i], rtol, atol);
  }
};

/// out = 0 where x > floor, 1 elsewhere (NaN included): max_abs(out) == 0 says x is above the floor.
struct NotAbove {
  const double* x;
  double floor;
  double* out;
  VOLTAIC_HD void operator()(std::size_t i) const { out[i] = x[i] > floor ? 0.0 : 1.0; }
};

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
    cell[c] = map.in_separator(c) ? NAN : particle[map.particle_of_cell(c)];
  }
};

/// The current collectors of one in-plane column col (L = nx ny of them),
/// for PotentialStep::collector_fields: out[col] the negative foil's
/// potential, out[L + col] the positive foil's, out[2L + col] the current
/// density through the column's positive collector face, outward (> 0 on
/// discharge) [A/m^2]: the Neumann face's under current control, the
/// Dirichlet face's G (phi_s - V) / area under voltage control, as
/// NewtonSystemT treats the face. Uniform foils: the negative at 0 V, the
/// positive at the terminal voltage; the potential-pair foils: their own
/// potentials, and the face's G (phi_s - phi_foil) / area.
struct CollectorFields {
  DfnConstants k;
  Drive drive;
  double terminal_voltage;  ///< [V]
  const double* phi_s;      ///< per cell
  double* out;              ///< 3 L values
  VOLTAIC_HD void operator()(std::size_t col) const {
    const std::size_t layer = k.map.layer;
    const double area = k.map.face_area;
    const double g = half_cell_conductance(area, k.of(CellRegion::positive).solid_conductivity, k.last_layer_dz);
    const double face = phi_s[k.map.cells - layer + col];
    if (drive.foil_positive) {  // the potential-pair foils: the face is held at the foil's potential
      out[col] = drive.foil_negative[col];
      out[layer + col] = drive.foil_positive[col];
      out[2 * layer + col] = g * (face - drive.foil_positive[col]) / area;
      return;
    }
    out[col] = 0.0;
    out[layer + col] = terminal_voltage;
    out[2 * layer + col] = drive.voltage_control ? g * (face - drive.voltage) / area : drive.current_density;
  }
};

/// The mean lithium stoichiometry of the negative electrode's particles in
/// one in-plane column col: their lithium over their volume times c_max
/// (the column's state of charge), from each particle's lithium [mol] and
/// the particles it stands for (CellLayout::particle_counts()). The negative
/// electrode's particles are those of its cells c = col + layer k < negative_end.
struct ColumnStoichiometry {
  DfnConstants k;
  const double *lithium, *count;  ///< per particle
  double* out;                    ///< per column
  VOLTAIC_HD void operator()(std::size_t col) const {
    double amount = 0.0, volume = 0.0;
    for (std::size_t c = col; c < k.map.negative_end; c += k.map.layer) {
      amount += count[c] * lithium[c];  // negative electrode cell c holds particle c
      volume += k.map.volume[c];
    }
    const RegionConstants& r = k.of(CellRegion::negative);
    out[col] = amount / (r.active_fraction * volume * k.electrode[0].maximum_concentration);
  }
};

/// The volume-weighted (thickness-weighted: every cell of a column has the
/// same face area) mean of a per-cell x over each in-plane column col.
struct ColumnMean {
  CellMap map;
  const double* x;  ///< per cell
  double* out;      ///< per column
  VOLTAIC_HD void operator()(std::size_t col) const {
    double sum = 0.0, volume = 0.0;
    for (std::size_t c = col; c < map.cells; c += map.layer) {
      sum += map.volume[c] * x[c];
      volume += map.volume[c];
    }
    out[col] = sum / volume;
  }
};

}  // namespace voltaic::dfn
