#pragma once
/// @file diffusion_step.hpp
/// @brief One implicit step of C du/dt = div(k grad u) + s through the
/// linear-algebra layer: the electrolyte-diffusion sub-step (u = c_e, C = eps,
/// k = eps^b D_e, no flux through any face) and 3D heat conduction (u = T,
/// C = rho c_p, k = lambda, convective Robin faces).

#include <memory>

#include "voltaic/core/array.hpp"
#include "voltaic/core/grid.hpp"
#include "voltaic/linalg/krylov.hpp"
#include "voltaic/linalg/preconditioner.hpp"
#include "voltaic/linalg/stencil_operator.hpp"

namespace voltaic {

/// What a step does about the balance CG's tolerance leaves open.
enum class StepBalance {
  /// u as CG returns it: sum_c (A u - rhs)_c, the step's balance defect (with
  /// insulated faces the change of sum_c V_c C_c u less dt sum_c V_c s_c), is
  /// of the order of the tolerance.
  as_solved,
  /// u shifted by one constant after CG so that sum_c (A u - rhs)_c = 0 to
  /// rounding: the conserved total is exact whatever the tolerance, so the
  /// tolerance need only serve the step's accuracy. Costs two operator
  /// applies and two dot products a step.
  exact,
};

/// Backward Euler on the cell-centred finite volumes of StencilOperator: per cell c,
///
///   V_c C_c (u_new - u_old) / dt = sum_f G_f (u_nb - u_c) + (boundary faces) + V_c s_c,
///
/// G_f from k by the harmonic mean, boundary faces as the BoundaryConditions
/// say. Solved by CG with the z-line preconditioner, from u_old as the initial
/// guess. With insulated faces sum_c V_c C_c u changes by dt sum_c V_c s_c,
/// up to the solver tolerance (StepBalance::as_solved) or to rounding
/// (StepBalance::exact). Workspace (the operator, preconditioner, CG vectors
/// and four arrays of num_cells values, five with StepBalance::exact) is
/// allocated once at construction.
template <class T>
class DiffusionStep {
 public:
  /// @param bc the outer faces' conditions (default: all insulated)
  /// @param options CG options (tolerance, iterations); throw_on_failure decides
  ///        whether a failed step throws NotConverged or returns its report
  DiffusionStep(std::shared_ptr<const Grid3D> grid, std::shared_ptr<const Executor> exec,
                const BoundaryConditions& bc = {}, SolverOptions options = {},
                StepBalance balance = StepBalance::as_solved);

  /// Advances u (num_cells values, updated in place) by dt.
  /// @param capacity C per cell, > 0 (porosity; rho c_p)
  /// @param k coefficient per cell, >= 0 (eps^b D_e(c, T) [m^2/s]; lambda [W/m/K])
  /// @param source per cell, per unit volume ((1 - t+) a j / F [mol/m^3/s]; q [W/m^3])
  /// @throws InvalidArgument for dt <= 0 or bad coefficients (named), SizeMismatch,
  ///         ExecutorMismatch; NotConverged when CG fails and options say throw
  SolveReport step(View<T> u, View<const T> capacity, View<const T> k, View<const T> source, T dt);

  /// As step(), with CG starting from `guess` (num_cells values; ghosts
  /// current where decomposed) instead of from u's old values: a previous
  /// iterate of the same step (an operator split's later passes) is far
  /// closer to the answer, and the answer is the same to CG's tolerance.
  SolveReport step(View<T> u, View<const T> capacity, View<const T> k, View<const T> source, T dt, View<const T> guess);

  /// Makes the grid a rank's ghosted block of a cut plane
  /// (StencilOperator::decompose()); step() then ends with u's ghosts
  /// holding the neighbours' new values. k's ghosts must hold theirs.
  void decompose(std::shared_ptr<const PlaneDecomposition> decomposition);

  /// Cell volumes [m^3] (the weights of conservation sums).
  const Array<T>& volumes() const { return volume_; }

 private:
  SolveReport advance(View<T> u, View<const T> capacity, View<const T> k, View<const T> source, T dt,
                      const View<const T>* guess);
  /// StepBalance::exact: u += d with d = sum(rhs - A u) / sum(A 1).
  void restore_balance(View<T> u);

  std::shared_ptr<const Grid3D> grid_;
  std::shared_ptr<const Executor> exec_;
  Array<T> volume_, mass_, rhs_, work_;
  Array<T> ones_;     ///< StepBalance::exact only
  Array<T> balance_;  ///< sum(A 1) and the defect, on the device (StepBalance::exact only)
  std::shared_ptr<StencilOperator<T>> op_;
  std::shared_ptr<ZLinePreconditioner<T>> m_;
  std::unique_ptr<CgSolver<T>> cg_;
  std::shared_ptr<const PlaneDecomposition> decomposition_;
};

}  // namespace voltaic
