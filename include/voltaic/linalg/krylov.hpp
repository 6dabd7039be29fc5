#pragma once
/// @file krylov.hpp
/// @brief CG, restarted GMRES(m) and mixed-precision GMRES-IR.

#include <functional>
#include <memory>
#include <vector>

#include "voltaic/core/array.hpp"
#include "voltaic/linalg/linear_operator.hpp"
#include "voltaic/linalg/preconditioner.hpp"
#include "voltaic/linalg/solver.hpp"

namespace voltaic {

class GmresIrSolver;

/// Preconditioned conjugate gradients, for symmetric positive definite A and M.
/// Stops on the true residual: when the recurrence says converged, b - A x is
/// recomputed, and CG restarts from it if it is not (residual replacement);
/// a restart that has not halved the true residual since the last one stops
/// the solve (StopReason::stagnation: the precision's floor).
/// Per iteration: one apply of A and of M, 2 dot products and 1 norm, 3
/// axpy-type updates: reads 11n and writes 3n values beyond A and M, and waits
/// for the device once (||r||, r.z and p.Ap read back together; alpha is
/// taken on the device). With SolverOptions::device_loop on a CUDA executor
/// and stream-ordered A and M, the iterations after the first of each
/// (re)start run as one device-decided CUDA graph: one wait per run of them.
/// A solve starts with one wait: ||b||, ||b - A x|| and, where the last solve
/// iterated, r . M^{-1} r come back together.
/// Workspace: 4n values.
template <class T>
class CgSolver final : public Solver<T> {
 public:
  CgSolver(std::shared_ptr<const LinearOperator<T>> a, std::shared_ptr<const Preconditioner<T>> m,
           SolverOptions options);
  ~CgSolver() override;
  SolveReport solve(View<const T> b, View<T> x) override;
  /// Runs of device-decided iterations in the last solve (0: the host loop
  /// alone); each costs one host wait however many iterations it holds.
  int device_runs() const { return device_runs_; }

 private:
  struct DeviceLoop;  // cg.cpp: the device-decided iterations (SolverOptions::device_loop)
  /// Whether the iterations can run as a CUDA graph now (SolverOptions::device_loop).
  bool device_loop_ready() const;
  /// What a solve starts from, read back in one wait.
  struct Start {
    double b_norm;  ///< ||b||
    double r_norm;  ///< ||b - A x||
    double rz;      ///< r . z, z = M^{-1} r in z_, where z_ready
    bool z_ready;
  };
  /// r = b - A x, with ||b|| and ||r|| (and M^{-1} r with r.z where the last
  /// solve iterated, so this one likely will) queued and read back together.
  Start begin(View<const T> b, View<const T> x);

  std::shared_ptr<const LinearOperator<T>> a_;
  std::shared_ptr<const Preconditioner<T>> m_;
  SolverOptions options_;
  Array<T> r_, z_, p_, q_;
  Array<T> scalars_;                         ///< ||r||, r.z, p.Ap and ||b||, written on the device
  Array<T> host_scalars_;                    ///< their pinned host copy
  std::unique_ptr<DeviceLoop> device_loop_;  ///< null where the device cannot decide (CPU, a cut plane)
  int device_runs_ = 0;
  bool prefetch_z_ = true;  ///< the last solve iterated: begin() applies M too
};

/// Right-preconditioned restarted GMRES(m): classical Gram-Schmidt with one
/// re-orthogonalisation pass (CGS2), Givens rotations on the host-side
/// Hessenberg matrix (in double). The residual it monitors is that of A x = b
/// itself; the true residual b - A x is recomputed at every restart and at
/// exit, and a restart cycle that does not reduce it stops the solve
/// (StopReason::stagnation: the precision's floor).
///
/// Per iteration j (j = 0 .. m-1): one apply of A and of M; two Gram-Schmidt
/// passes of j + 2 dot products (block_dot) and j + 1 axpy updates each
/// (the new norm by Pythagoras), 1 scale; the host loop reads the products
/// back once an iteration. With SolverOptions::gmres_device_loop on a CUDA executor,
/// stream-ordered A and M and the executor's own reductions (one GPU), a
/// restart cycle's iterations run as one device-decided CUDA graph instead
/// (the same kernels, the Hessenberg column and its tests in a one-thread
/// kernel: the same iterations and bits) and the host waits once a cycle.
/// Per restart cycle of k iterations: k axpy (the update V y), one apply of M
/// and of A, the true residual: reads about (2k + 6)n, writes (k + 4)n.
/// Workspace: (m + 3)n values (basis vectors padded to 256 bytes).
template <class T>
class GmresSolver final : public Solver<T> {
 public:
  /// @throws InvalidArgument when options.restart < 1
  GmresSolver(std::shared_ptr<const LinearOperator<T>> a, std::shared_ptr<const Preconditioner<T>> m,
              SolverOptions options);
  ~GmresSolver() override;
  SolveReport solve(View<const T> b, View<T> x) override;
  /// solve() from x = 0, whatever x holds: the first residual is b itself, so
  /// the solve saves an apply of A, an update and a norm (the same iterates).
  SolveReport solve_from_zero(View<const T> b, View<T> x);
  /// Restart cycles of the last solve whose iterations the device decided.
  int device_runs() const { return device_runs_; }

 private:
  SolveReport run(View<const T> b, View<T> x, bool from_zero);
  struct DeviceLoop;  // gmres.cpp: a restart cycle's iterations decided on the device (SolverOptions::device_loop)
  /// Whether a cycle's iterations can run as a CUDA graph now (SolverOptions::device_loop).
  bool device_loop_ready() const;

  std::shared_ptr<const LinearOperator<T>> a_;
  std::shared_ptr<const Preconditioner<T>> m_;
  SolverOptions options_;
  friend class GmresIrSolver;  // sets options_.max_iterations to its remaining budget per inner solve

  View<T> basis(int i) { return basis_.view().subview(static_cast<std::size_t>(i) * stride_, a_->size()); }
  /// Reads the first `count` device scalars into host_scalars_ (one wait).
  void read_scalars(int count);

  std::size_t stride_ = 0;          ///< distance between basis vectors, n rounded up to 256 bytes
  Array<T> basis_;                  ///< (restart + 1) vectors of n
  Array<T> w_, z_;                  ///< the update V y, and M^{-1} of a basis vector or of V y
  Array<T> scalars_;                ///< device-side dot products of both Gram-Schmidt passes and the norms
  Array<T> host_scalars_;           ///< their pinned host copy
  std::vector<double> hessenberg_;  ///< (m + 1) x m, column-major, rotated in place
  std::vector<double> cosines_, sines_, g_, y_;
  std::unique_ptr<DeviceLoop> device_loop_;  ///< null where the device cannot decide (CPU, a cut plane)
  int device_runs_ = 0;
};

/// GMRES with iterative refinement in mixed precision: x and r = b - A x in
/// FP64; each correction solves A d = r with FP32 GMRES on FP32 copies of A and
/// M to options.inner_tolerance; x += d; repeated until the FP64 tolerance.
/// When an outer step stops reducing the FP64 residual (stagnation: FP32 cannot
/// resolve the problem), the inner solves switch to FP64 GMRES on a64/m64 and
/// the report says so. An FP64 step that stagnates too ends the solve
/// (StopReason::stagnation).
///
/// The FP32 right-hand side is r / ||r||, so it neither underflows nor
/// overflows in FP32 however small the residual gets. Per outer step, beyond
/// the inner solve (whose FP32 iterations move half the bytes of FP64 ones):
/// the FP64 residual (one apply of A64, reads 3n writes n), the scaled FP32
/// copy of r (reads n FP64, writes n FP32) and x += ||r|| d32 (reads n FP32
/// and n FP64, writes n FP64), each one pass.
/// Workspace: 2n FP64 + 2n FP32 values, plus both inner solvers' (FP32 and FP64).
class GmresIrSolver final : public Solver<double> {
 public:
  GmresIrSolver(std::shared_ptr<const LinearOperator<double>> a64, std::shared_ptr<const Preconditioner<double>> m64,
                std::shared_ptr<const LinearOperator<float>> a32, std::shared_ptr<const Preconditioner<float>> m32,
                SolverOptions options);
  SolveReport solve(View<const double> b, View<double> x) override;
  /// solve() from x = 0, whatever x holds (GmresSolver::solve_from_zero).
  SolveReport solve_from_zero(View<const double> b, View<double> x);
  /// Called once in a solve, before its first FP64 correction: a caller whose
  /// m64 is left unfactored until FP32 stops helping factors it here.
  void set_fp64_preparation(std::function<void()> prepare) { prepare_fp64_ = std::move(prepare); }

 private:
  SolveReport refine(View<const double> b, View<double> x, bool from_zero);

  std::function<void()> prepare_fp64_;
  std::shared_ptr<const LinearOperator<double>> a64_;
  std::shared_ptr<const Preconditioner<double>> m64_;
  std::shared_ptr<const LinearOperator<float>> a32_;
  std::shared_ptr<const Preconditioner<float>> m32_;
  SolverOptions options_;
  Array<double> r_, d_;
  Array<float> r32_, d32_;
  SolverOptions inner_options_;  ///< options of the inner solves (rtol = inner_tolerance, no throw)
  std::unique_ptr<GmresSolver<float>> inner32_;
  std::unique_ptr<GmresSolver<double>> inner64_;
};

}  // namespace voltaic
