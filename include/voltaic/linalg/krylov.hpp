#pragma once
/// @file krylov.hpp
/// @brief CG, restarted GMRES(m) and mixed-precision GMRES-IR.

#include <memory>

#include "voltaic/core/array.hpp"
#include "voltaic/linalg/linear_operator.hpp"
#include "voltaic/linalg/preconditioner.hpp"
#include "voltaic/linalg/solver.hpp"

namespace voltaic {

/// Preconditioned conjugate gradients, for symmetric positive definite A and M.
/// Per iteration: one apply of A and of M, 2 dot products, 3 axpy-type updates:
/// reads about 10n and writes 4n values beyond A and M.
template <class T>
class CgSolver final : public Solver<T> {
 public:
  CgSolver(std::shared_ptr<const LinearOperator<T>> a, std::shared_ptr<const Preconditioner<T>> m,
           SolverOptions options);
  SolveReport solve(View<const T> b, View<T> x) override;

 private:
  std::shared_ptr<const LinearOperator<T>> a_;
  std::shared_ptr<const Preconditioner<T>> m_;
  SolverOptions options_;
  Array<T> r_, z_, p_, q_;
};

/// Right-preconditioned restarted GMRES(m): classical Gram-Schmidt with one
/// re-orthogonalisation pass (CGS2), Givens rotations on the host-side
/// Hessenberg matrix. The residual it monitors is that of A x = b itself.
/// Per iteration j: one apply of A and of M, 2(j+1) dot products and 2(j+1)
/// axpy updates of length n for the two Gram-Schmidt passes.
template <class T>
class GmresSolver final : public Solver<T> {
 public:
  /// @throws InvalidArgument when options.restart < 1
  GmresSolver(std::shared_ptr<const LinearOperator<T>> a, std::shared_ptr<const Preconditioner<T>> m,
              SolverOptions options);
  SolveReport solve(View<const T> b, View<T> x) override;

 private:
  std::shared_ptr<const LinearOperator<T>> a_;
  std::shared_ptr<const Preconditioner<T>> m_;
  SolverOptions options_;
  Array<T> basis_;  ///< (restart + 1) vectors of n
  Array<T> w_, z_, r_;
  Array<T> scalars_;  ///< device-side dot products of one Gram-Schmidt pass
};

/// GMRES with iterative refinement in mixed precision: x and r = b - A x in
/// FP64; each correction solves A d = r with FP32 GMRES on FP32 copies of A and
/// M to options.inner_tolerance; x += d; repeated until the FP64 tolerance.
/// When an outer step stops reducing the FP64 residual (stagnation: FP32 cannot
/// resolve the problem), the inner solves switch to FP64 GMRES on a64/m64 and
/// the report says so.
class GmresIrSolver final : public Solver<double> {
 public:
  GmresIrSolver(std::shared_ptr<const LinearOperator<double>> a64, std::shared_ptr<const Preconditioner<double>> m64,
                std::shared_ptr<const LinearOperator<float>> a32, std::shared_ptr<const Preconditioner<float>> m32,
                SolverOptions options);
  SolveReport solve(View<const double> b, View<double> x) override;

 private:
  std::shared_ptr<const LinearOperator<double>> a64_;
  std::shared_ptr<const Preconditioner<double>> m64_;
  std::shared_ptr<const LinearOperator<float>> a32_;
  std::shared_ptr<const Preconditioner<float>> m32_;
  SolverOptions options_;
  Array<double> r_, d_;
  Array<float> r32_, d32_;
  std::unique_ptr<GmresSolver<float>> inner32_;
  std::unique_ptr<GmresSolver<double>> inner64_;
};

}  // namespace voltaic
