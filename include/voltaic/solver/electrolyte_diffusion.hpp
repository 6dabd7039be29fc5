#pragma once
/// @file electrolyte_diffusion.hpp
/// @brief The electrolyte-diffusion sub-step: one implicit step of
/// eps dc/dt = div(D_eff grad c) + s, through the linear-algebra layer.

#include <memory>

#include "voltaic/core/array.hpp"
#include "voltaic/core/grid.hpp"
#include "voltaic/linalg/krylov.hpp"
#include "voltaic/linalg/preconditioner.hpp"
#include "voltaic/linalg/stencil_operator.hpp"

namespace voltaic {

/// Backward Euler on the cell-centred finite volumes of StencilOperator, with
/// no flux of lithium through any outer face (the collectors and the cell's
/// edges): per cell c,
///
///   V_c eps_c (c_new - c_old) / dt = sum_f G_f (c_nb - c_c) + V_c s_c,
///
/// G_f from D_eff by the harmonic mean. Solved by CG with the z-line
/// preconditioner, from c_old as the initial guess. So sum_c V_c eps_c c is
/// conserved up to the solver tolerance plus dt sum_c V_c s_c.
/// Workspace (the operator, preconditioner, CG vectors and four arrays of
/// num_cells values) is allocated once at construction.
template <class T>
class ElectrolyteDiffusion {
 public:
  /// @param options CG options (tolerance, iterations); throw_on_failure decides
  ///        whether a failed step throws NotConverged or returns its report
  ElectrolyteDiffusion(std::shared_ptr<const Grid3D> grid, std::shared_ptr<const Executor> exec,
                       SolverOptions options = {});

  /// Advances c (num_cells values, updated in place) by dt.
  /// @param eps porosity per cell, in (0, 1]
  /// @param d_eff effective diffusivity per cell (eps^b D_e(c, T)), >= 0 [m^2/s]
  /// @param source per cell [mol/m^3/s] ((1 - t+) a j / F in the electrodes)
  /// @throws InvalidArgument for dt <= 0 or bad coefficients (named), SizeMismatch,
  ///         ExecutorMismatch; NotConverged when CG fails and options say throw
  SolveReport step(View<T> c, View<const T> eps, View<const T> d_eff, View<const T> source, T dt);

  /// Cell volumes [m^3] (the weights of conservation sums).
  const Array<T>& volumes() const { return volume_; }

 private:
  std::shared_ptr<const Grid3D> grid_;
  std::shared_ptr<const Executor> exec_;
  Array<T> volume_, mass_, rhs_, work_;
  std::shared_ptr<StencilOperator<T>> op_;
  std::shared_ptr<ZLinePreconditioner<T>> m_;
  std::unique_ptr<CgSolver<T>> cg_;
};

}  // namespace voltaic
