#pragma once
// GMRES's Arnoldi column, written once (internal). The host loop (gmres.cpp)
// and the device-decided loop (kernels/gmres_loop.cu) both turn an
// iteration's Gram-Schmidt scalars into the next Hessenberg column, rotate
// it, update the residual estimate and decide whether the restart cycle goes
// on, with this code: so both take the same iterations and give the same
// bits, on a CPU and on a GPU (every operation here is correctly rounded on
// both sides: no contraction, no library hypot).

#include "voltaic/core/macros.hpp"
#include "voltaic/linalg/rounding.hpp"

namespace voltaic::gmres {

/// Why a restart cycle stopped (or kGoOn: it may take another column).
enum Stop : int {
  kGoOn = 0,
  kSmall,      ///< the residual estimate is below the tolerance, or the next direction is rounding noise
  kNonFinite,  ///< a Hessenberg entry or the new norm is NaN or infinite
  kBreakdown,  ///< the least-squares problem is singular (rho == 0)
};

/// A restart cycle's scalars: where the host loop keeps them, or in device
/// memory while a CUDA graph runs the cycle's iterations. Its Hessenberg
/// matrix, rotations and right-hand side g are arrays beside it (Columns).
struct Cycle {
  int j;               ///< the column the next iteration fills
  int k;               ///< columns of the least-squares problem so far
  int m;               ///< the restart length
  int iterations;      ///< of the whole solve
  int max_iterations;  ///< of the whole solve
  int stop;            ///< a Stop, once the cycle has ended
  int proceed;         ///< 1 while the device takes another iteration
  int pad;
  double tol;      ///< the solve's absolute tolerance
  double inverse;  ///< 1 / h(j + 1, j): the scale of the new basis vector
  double epsilon;  ///< the basis's precision (T's machine epsilon)
};

/// The cycle's arrays: H ((m + 1) x m, column-major, rotated in place), the
/// rotations' cosines and sines (m each) and g (m + 1).
struct Columns {
  double* h;
  double* cosines;
  double* sines;
  double* g;
};

VOLTAIC_HD inline bool finite(double x) { return fp::sub(x, x) == 0.0; }

/// sqrt(a^2 + b^2) for finite a, b without overflow, in correctly rounded
/// steps (a library hypot rounds differently on a CPU and a GPU).
VOLTAIC_HD inline double rotation_norm(double a, double b) {
  const double x = a < 0.0 ? -a : a, y = b < 0.0 ? -b : b;
  const double big = x > y ? x : y, small = x > y ? y : x;
  if (big == 0.0) return 0.0;
  const double r = fp::div(small, big);
  return fp::mul(big, fp::sqrt(fp::add(1.0, fp::mul(r, r))));
}

/// Column j of the cycle from the iteration's Gram-Schmidt scalars: pass1
/// holds v_i . w for i <= j and w . w last; pass2 the same of the once
/// orthogonalised w1 (CGS2, gmres.cpp). Fills H's column, applies the
/// earlier rotations and the new one, updates g, counts the iteration, and
/// returns whether the cycle stops here (the host loop's tests, in its
/// order). On kGoOn, c.inverse is the new basis vector's scale.
template <class T>
VOLTAIC_HD inline int column(Cycle& c, Columns a, const T* pass1, const T* pass2) {
  const int j = c.j, ld = c.m + 1;
  double* h = a.h + j * ld;
  // Infinite where w . w overflows T: the invariant-subspace test below then does not fire.
  const double w_norm = fp::sqrt(static_cast<double>(pass1[j + 1]));
  double c_squared = 0.0;
  for (int i = 0; i <= j; ++i) {
    h[i] = fp::add(static_cast<double>(pass1[i]), static_cast<double>(pass2[i]));
    c_squared = fp::add(c_squared, fp::mul(static_cast<double>(pass2[i]), static_cast<double>(pass2[i])));
  }
  // The new norm by Pythagoras, ||w1 - V c||^2 = w1 . w1 - c . c; zero where
  // rounding leaves nothing of w1 (then the invariant-subspace test fires); NaN stays NaN.
  const double left = fp::sub(static_cast<double>(pass2[j + 1]), c_squared);
  const double h_next = left > 0.0 ? fp::sqrt(left) : (left <= 0.0 ? 0.0 : left);
  ++c.iterations;
  bool all_finite = finite(h_next);
  for (int i = 0; i <= j; ++i) all_finite = all_finite && finite(h[i]);
  if (!all_finite) return kNonFinite;
  // Earlier rotations, then the one that zeroes h(j+1, j).
  for (int i = 0; i < j; ++i) {
    const double t = fp::add(fp::mul(a.cosines[i], h[i]), fp::mul(a.sines[i], h[i + 1]));
    h[i + 1] = fp::add(fp::mul(-a.sines[i], h[i]), fp::mul(a.cosines[i], h[i + 1]));
    h[i] = t;
  }
  const double rho = rotation_norm(h[j], h_next);
  if (rho == 0.0) return kBreakdown;  // A M^{-1} is singular on the Krylov space
  a.cosines[j] = fp::div(h[j], rho);
  a.sines[j] = fp::div(h_next, rho);
  h[j] = rho;
  h[j + 1] = 0.0;
  a.g[j + 1] = fp::mul(-a.sines[j], a.g[j]);
  a.g[j] = fp::mul(a.cosines[j], a.g[j]);
  c.k = j + 1;
  // Converged estimate, or an invariant subspace (the next direction is rounding noise).
  const double estimate = a.g[j + 1] < 0.0 ? -a.g[j + 1] : a.g[j + 1];
  if (estimate <= c.tol || (finite(w_norm) && h_next <= fp::mul(c.epsilon, w_norm))) return kSmall;
  c.inverse = fp::div(1.0, h_next);
  return kGoOn;
}

/// The device loop's decision after column(): another iteration where the
/// cycle goes on and neither its length nor the solve's count is reached
/// (the host loop's `for` condition); j moves on to the next column then.
VOLTAIC_HD inline void decide(Cycle& c, int stop) {
  c.stop = stop;
  c.proceed = stop == kGoOn && c.j + 1 < c.m && c.iterations < c.max_iterations ? 1 : 0;
  if (c.proceed) ++c.j;
}

}  // namespace voltaic::gmres
