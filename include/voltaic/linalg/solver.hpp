#pragma once
/// @file solver.hpp
/// @brief What every Krylov solver takes (options) and returns (a report), and
/// the error it throws when it does not converge.

#include <string>

#include "voltaic/core/error.hpp"
#include "voltaic/core/view.hpp"

namespace voltaic {

struct SolverOptions {
  double relative_tolerance = 1e-10;  ///< stop when ||b - A x|| <= rtol ||b|| (or <= atol)
  double absolute_tolerance = 0.0;
  int max_iterations = 1000;      ///< Krylov iterations in all (GMRES-IR: inner, summed)
  int restart = 30;               ///< GMRES(m) restart length m, >= 1
  double inner_tolerance = 1e-4;  ///< GMRES-IR: relative tolerance of each FP32 inner solve
  int max_refinements = 50;       ///< GMRES-IR: outer (FP64 residual) steps
  /// GMRES-IR: an outer step that reduces the FP64 residual by less than this
  /// factor counts as stagnation and switches the inner solves to FP64.
  double stagnation_factor = 0.5;
  bool throw_on_failure = true;  ///< throw NotConverged (else return the report)
  /// CG on a CUDA executor, with an operator and preconditioner that are
  /// stream_ordered(): the device decides the iterations between the host's
  /// tests (a CUDA graph with a WHILE node; one host wait per run of them
  /// instead of one per iteration), with the host loop's iterations and bits.
  bool device_loop = true;
  /// GMRES likewise, with device_loop: each restart cycle's iterations as one
  /// device-decided CUDA graph (one host wait a cycle, not one an iteration;
  /// the same iterations and bits), on the executor's own reductions (one
  /// GPU). On one H200: 8-11 fewer host waits and about 100-150 fewer
  /// launches an accepted 3D step, time 0.97-1.02 of the host loop's
  /// (docs/performance.md, "Twenty-fourth session"). Off: the host loop.
  bool gmres_device_loop = true;
};

enum class StopReason { converged, max_iterations, stagnation, breakdown, non_finite };

std::string to_string(StopReason reason);

struct SolveReport {
  bool converged = false;
  StopReason reason = StopReason::max_iterations;
  int iterations = 0;              ///< Krylov iterations (GMRES-IR: outer steps)
  int inner_iterations = 0;        ///< GMRES-IR: Krylov iterations of all inner solves
  double initial_residual = 0.0;   ///< ||b - A x0||
  double final_residual = 0.0;     ///< true ||b - A x|| at exit, recomputed
  double relative_residual = 0.0;  ///< final_residual / ||b|| (or / 1 when b = 0)
  bool switched_to_fp64 = false;   ///< GMRES-IR: stagnation moved the inner solves to FP64
  std::string summary() const;     ///< one line for logs and errors
};

/// A solve that did not reach its tolerance. The caller can catch it, cut the
/// time step and retry; report() says how far it got.
class NotConverged : public Error {
 public:
  NotConverged(std::string where, SolveReport report);
  const SolveReport& report() const noexcept { return report_; }

 private:
  SolveReport report_;
};

/// Solves A x = b; x holds the initial guess on entry. Workspace is allocated
/// when the solver is built; solve() allocates nothing.
template <class T>
class Solver {
 public:
  virtual ~Solver() = default;
  /// @throws InvalidArgument when b holds NaN or Inf or sizes/executors disagree;
  ///         NotConverged when options.throw_on_failure and the tolerance is not met
  virtual SolveReport solve(View<const T> b, View<T> x) = 0;
};

}  // namespace voltaic
