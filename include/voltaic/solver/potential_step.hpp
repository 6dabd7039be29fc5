#pragma once
/// @file potential_step.hpp
/// @brief The potential sub-step: Newton on the solid and electrolyte charge
/// balances with Butler-Volmer kinetics, each Newton step solved by GMRES-IR
/// with the 2x2-block z-line preconditioner.

#include <memory>
#include <string>

#include "voltaic/core/array.hpp"
#include "voltaic/linalg/solver.hpp"
#include "voltaic/linalg/stencil_operator.hpp"
#include "voltaic/solver/cell_layout.hpp"

namespace voltaic {

/// How the positive collector is driven: a current (PyBaMM's sign: > 0
/// discharges) or a terminal voltage.
struct CellDrive {
  enum class Mode { current, voltage };
  Mode mode = Mode::current;
  double value = 0.0;  ///< [A] or [V]

  static CellDrive current(double amperes) { return {Mode::current, amperes}; }
  static CellDrive voltage(double volts) { return {Mode::voltage, volts}; }
};

struct PotentialOptions {
  /// [V]: converged when the error left after a Newton update, estimated as
  /// the largest update times the iterates' contraction rate, is at most this
  double tolerance = 1e-9;
  int max_iterations = 25;  ///< Newton iterations
  double max_update = 0.2;  ///< [V]: a larger Newton update is scaled down to this (damping)
  /// Face rule of the electrolyte conductivity terms. Arithmetic is PyBaMM's,
  /// so that a run agrees with PyBaMM's at the same mesh; at 20 cells per
  /// domain it is as close to the converged curve as harmonic (Chen2020
  /// against 160 cells: 0.27 and 0.22 mV RMS at 1C, 0.24 and 1.15 mV at 2C).
  /// Harmonic is exact for piecewise-constant k at the porosity jumps.
  FaceMean electrolyte_face_mean = FaceMean::arithmetic;
  SolverOptions linear = default_linear();  ///< GMRES-IR per Newton step

  /// An inexact Newton: each linear solve reduces the Newton residual by
  /// 1e-4 (each FP32 inner solve by 1e-2). The Newton test, on the update
  /// times the iterates' contraction rate, still decides when phi is within
  /// `tolerance`; a tighter solve changes no result digit (the 3D 1C discharge
  /// ends at the same capacity to 1e-9 relative with 1e-10 / 1e-4) and costs
  /// 2.3x the time of this step. 1e-6 -> 1e-5 (H200, 1M cells): the stack
  /// 0.95 of the time, the pouch 0.97. 1e-5 -> 1e-4: the stack 22 % fewer
  /// Krylov and 4 % more Newton iterations, 0.93 of the time, the pouch 10 %
  /// fewer Krylov, 0.96; the same steps, capacities within 1.1e-9 relative.
  /// 3e-4 moved the pouch's capacity by 3e-8 relative and 1e-3 cost Newton
  /// iterations (docs/performance.md, "Twentieth session").
  static SolverOptions default_linear() {
    SolverOptions o;
    o.relative_tolerance = 1e-4;
    o.inner_tolerance = 1e-2;
    o.max_iterations = 2000;
    o.restart = 40;
    o.throw_on_failure = false;
    return o;
  }
};

/// The particles' surface concentrations as the potential step sees them.
/// With `slope` and `flux` (num_particles values each) the surface follows
/// the reaction through each particle's backward-Euler step,
/// c_surf(N) = value + slope (N - flux), N = j / F (kinetics::SurfaceResponse):
/// the particle step is then implicit in the potential step. Without them
/// `value` is held fixed.
struct ParticleSurface {
  View<const double> value;
  View<const double> slope;
  View<const double> flux;
  /// a j per cell to start each particle's solve from (with slope; empty: the
  /// last solve's). Given, the result depends on the inputs alone (restarts
  /// continue bit for bit).
  View<const double> reaction;
};

/// What one solve did. A solve that is not converged leaves phi at its last
/// iterate; the integrator cuts the step and retries.
struct PotentialReport {
  bool converged = false;
  int iterations = 0;         ///< Newton iterations
  int linear_iterations = 0;  ///< GMRES-IR inner iterations, summed
  double last_update = 0.0;   ///< largest |update| of the last Newton iteration [V]
  bool switched_to_fp64 = false;
  std::string reason;  ///< why it failed (empty when converged)
};

/// Unknowns phi = [phi_s (all cells), phi_e (all cells)] on the cell grid.
/// Per cell, integrated over the cell (finite volumes, harmonic-mean face
/// coefficients):
///
///   solid:        -div(sigma_eff grad phi_s) + a j = 0        (electrodes)
///   electrolyte:  -div(kappa_eff grad phi_e) + div(kappa_D grad ln c_e) - a j = 0
///
/// kappa_D = kappa_eff 2 (1 - t+) TDF R T / F, j Butler-Volmer at the particle
/// surface concentration. phi_s = 0 on the negative collector face; the
/// positive face carries the applied current density I / A outward, or is
/// held at the terminal voltage. No flux of ionic current through either
/// collector. The separator has no solid phase (its phi_s rows are phi_s = 0).
/// The Jacobian (stencils plus each cell's 2x2 block of d(a j)/d phi) is
/// symmetric positive definite.
///
/// Workspace is allocated at construction, per drive mode on its first use.
/// Host waits per Newton iteration: the largest update (one scalar), the
/// coefficient checks of the Jacobian's stencils, and GMRES-IR's own.
class CollectorSystem;

class PotentialStep {
 public:
  explicit PotentialStep(std::shared_ptr<const CellLayout> layout, PotentialOptions options = {});
  ~PotentialStep();
  PotentialStep(const PotentialStep&) = delete;
  PotentialStep& operator=(const PotentialStep&) = delete;

  /// Unknowns of phi: [phi_s; phi_e] per cell (2 num_cells), and with the
  /// potential-pair collectors the two foils' potentials per column after
  /// them (2 nx ny more: negative foil, then positive foil).
  std::size_t unknowns() const;
  bool has_collectors() const;

  /// Solves for phi (unknowns() values: the initial guess in, the solution out).
  /// @param c_surf particle surface concentrations (num_particles values)
  /// @param c_e, T per cell
  PotentialReport solve(const CellDrive& drive, View<const double> c_surf, View<const double> c_e, View<const double> T,
                        View<double> phi);
  /// As above, the surface fixed or following j (ParticleSurface).
  PotentialReport solve(const CellDrive& drive, const ParticleSurface& surface, View<const double> c_e,
                        View<const double> T, View<double> phi);

  /// A consistent start for Newton: phi_s = 0 in the negative electrode,
  /// phi_e = -U_n, phi_s = U_p - U_n in the positive electrode, with U at the
  /// mean surface stoichiometry of each electrode (reads c_surf back); the
  /// foils (if any) at 0 and U_p - U_n.
  void initial_guess(View<const double> c_surf, View<const double> T, View<double> phi) const;

  /// Of the last solve (at its final phi, to second order in the last
  /// update): a j per cell [A/m^3].
  const Array<double>& reaction() const { return aj_; }
  /// Of the last solve: the surface concentration per particle [mol/m^3]
  /// (ParticleSurface::value itself when the surface was held fixed).
  const Array<double>& surface() const { return surface_; }
  /// Terminal voltage [V]: phi_s on the positive collector face, averaged
  /// in-plane; with the potential-pair collectors the positive foil's
  /// potential at its tab, averaged along the tab.
  double terminal_voltage(const CellDrive& drive, View<const double> phi) const;
  /// Cell current [A] (> 0 discharge) of the last solve: the reaction current of the negative electrode.
  double current() const;
  /// Heat generated per unit volume [W/m^3] at the last solve's state.
  void heat_source(const CellDrive& drive, View<const double> phi, View<const double> c_surf, View<const double> T,
                   View<double> q) const;

  /// Ohmic heat of the two collector foils at phi [W]: i^2 L / sigma per
  /// electrode area for uniform collectors (PyBaMM's lumped model's term),
  /// the foils' in-plane dissipation with the potential pair.
  double foil_heat(const CellDrive& drive, View<const double> phi) const;
  /// The same per unit volume of each foil, per in-plane column [W/m^3]:
  /// q[col] in the negative foil, q[L + col] in the positive (L = nx ny); 0
  /// in a foil of thickness 0. Uniform collectors: (I / A)^2 / sigma each.
  void foil_heat_density(const CellDrive& drive, View<const double> phi, View<double> q) const;

  const PotentialOptions& options() const { return options_; }

  /// Newton's quadratic constant as the solves measure it: the second update
  /// over the first squared [1/V], of the last solve that made two (0: none
  /// yet). A solve whose first update u is so small that four times this
  /// constant times u^2 is within the tolerance stops after it (newton_settled).
  /// It is state of the run: checkpoints keep it.
  double newton_constant() const { return newton_constant_; }
  void set_newton_constant(double c) { newton_constant_ = c; }

  /// The current collectors per in-plane column col = i + nx j (L = nx ny
  /// columns) at `phi` (the last solve's, in `drive`): out[col] the negative
  /// foil's potential [V], out[L + col] the positive foil's [V], out[2L + col]
  /// the current density through the column's positive collector face
  /// [A/m^2], > 0 on discharge (its sum times the face area is the cell
  /// current). Uniform foils: the negative at 0 V, the positive at the
  /// terminal voltage everywhere; the potential-pair foils: their potentials
  /// (phi's values after the cells'). phi: unknowns() values.
  /// Runs on stream 0 (reads the terminal voltage back under current control).
  /// @param out 3 nx ny values, in the executor's memory
  void collector_fields(const CellDrive& drive, View<const double> phi, View<double> out) const;

 private:
  struct System;
  System& system(CellDrive::Mode mode);
  void evaluate(System& s, const CellDrive& drive, const ParticleSurface& surface, View<const double> c_e,
                View<const double> T, View<const double> phi);
  /// Solves the Newton system into update_ (exact LU on one z-line, else GMRES-IR).
  void newton_update(System& s, bool direct, PotentialReport& report, std::string& summary);
  /// The reaction and surface at the final phi from the last evaluation and update.
  void finish_linearised(const ParticleSurface& surface);
  /// On a cut plane: v's ghosts (whole layers of cells or particles) take the neighbours' values.
  void share_ghosts(View<double> v) const;

  std::shared_ptr<const CellLayout> layout_;
  PotentialOptions options_;
  double newton_constant_ = 0.0;
  std::unique_ptr<System> systems_[2];
  Array<double> kappa_, kappa_d_, c_e_;  // electrolyte properties and c_e of the current solve
  Array<double> aj_, adj_, surface_;
  Array<double> s_phi_, e_phi_, d_logc_;
  Array<double> residual_, update_, d_s_, d_e_, c01_, c10_;
};

}  // namespace voltaic
