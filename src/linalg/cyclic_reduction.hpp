#pragma once
// Parallel cyclic reduction (PCR) of one tridiagonal column, scalar or with
// 2x2 blocks, shared out over the lanes of a team (a CUDA warp; one lane on
// the CPU gives the same bits: no step sums over lanes). The column solves of
// the batch cell program run on it on the GPU, where Thomas' 60 dependent
// rows leave 31 of 32 lanes idle: PCR takes ceil(log2 n) rounds in which
// every row is eliminated at once.
//
// The systems are those of preconditioner_ops.hpp (scalar) and
// block_zline_ops.hpp (blocks): row k is
//   -T_{k-1} x_{k-1} + D_k x_k - T_k x_{k+1} = r_k,
// T diagonal (tz), D a scalar or a 2x2 block. A round of stride s replaces
// row k by itself plus alpha_k row (k - s) plus gamma_k row (k + s), with
// alpha_k = -A_k D_{k-s}^{-1} and gamma_k = -C_k D_{k+s}^{-1} (A_k, C_k the
// couplings to rows k - s and k + s; a missing neighbour counts as zero), so
// that the new couplings reach k - 2s and k + 2s. Once 2s >= n every row is
// alone: x_k = D_k^{-1} r_k. Each round is a Schur complement of the one
// before, so the diagonals stay positive for the M-matrices the cells make;
// a diagonal (or a block's determinant) that is not finite and positive
// fails the solve, as the Thomas factorisations do.
//
// Team: lane(), lanes(), sync() (after a loop over rows), all(bool).

#include <cstddef>

#include "voltaic/core/macros.hpp"

namespace voltaic::precond {

/// Work values a scalar reduction of n rows needs.
VOLTAIC_HD constexpr std::size_t pcr_work(std::size_t n) { return 9 * n; }
/// Work values a 2x2-block reduction of n rows needs.
VOLTAIC_HD constexpr std::size_t block_pcr_work(std::size_t n) { return 32 * n; }

namespace pcr_detail {

VOLTAIC_HD inline bool positive_finite(double x) { return x > 0.0 && x - x == 0.0; }

/// A 2x2 matrix, row-major.
struct M2 {
  double a00, a01, a10, a11;
};
VOLTAIC_HD inline M2 mul(const M2& x, const M2& y) {
  return {x.a00 * y.a00 + x.a01 * y.a10, x.a00 * y.a01 + x.a01 * y.a11, x.a10 * y.a00 + x.a11 * y.a10,
          x.a10 * y.a01 + x.a11 * y.a11};
}
VOLTAIC_HD inline M2 add(const M2& x, const M2& y) {
  return {x.a00 + y.a00, x.a01 + y.a01, x.a10 + y.a10, x.a11 + y.a11};
}
VOLTAIC_HD inline M2 negate(const M2& x) { return {-x.a00, -x.a01, -x.a10, -x.a11}; }

/// n rows of 2x2 blocks (component-outer: m * n + k) and two-value right sides.
struct BlockRows {
  double* v;
  std::size_t n;
  VOLTAIC_HD M2 get(int m, std::size_t k) const {
    const double* b = v + static_cast<std::size_t>(4 * m) * n + k;
    return {b[0], b[n], b[2 * n], b[3 * n]};
  }
  VOLTAIC_HD void put(int m, std::size_t k, const M2& x) const {
    double* b = v + static_cast<std::size_t>(4 * m) * n + k;
    b[0] = x.a00;
    b[n] = x.a01;
    b[2 * n] = x.a10;
    b[3 * n] = x.a11;
  }
  // m: 0 A (to k - s), 1 D, 2 C (to k + s); the right side after them.
  VOLTAIC_HD double& r(int i, std::size_t k) const { return v[(12 + static_cast<std::size_t>(i)) * n + k]; }
};

}  // namespace pcr_detail

/// z = M^{-1} r for one column of the scalar system (diag, tz as
/// factor_column reads them); `work`: pcr_work(n) values. False (on every
/// lane) when a diagonal is not finite and positive.
template <class Team>
VOLTAIC_HD bool pcr_solve(const Team& team, const double* diag, const double* tz, const double* r, double* z,
                          std::size_t n, double* work) {
  using pcr_detail::positive_finite;
  double *a = work, *d = work + n, *c = work + 2 * n, *y = work + 3 * n;
  double *a2 = work + 4 * n, *d2 = work + 5 * n, *c2 = work + 6 * n, *y2 = work + 7 * n, *inv = work + 8 * n;
  const std::size_t lane = team.lane(), lanes = team.lanes();
  bool ok = true;
  for (std::size_t k = lane; k < n; k += lanes) {
    a[k] = k > 0 ? -tz[k - 1] : 0.0;
    d[k] = diag[k];
    c[k] = k + 1 < n ? -tz[k] : 0.0;
    y[k] = r[k];
  }
  team.sync();
  for (std::size_t s = 1; s < n; s *= 2) {
    for (std::size_t k = lane; k < n; k += lanes) {
      ok = ok && positive_finite(d[k]);
      inv[k] = 1.0 / d[k];
    }
    team.sync();
    for (std::size_t k = lane; k < n; k += lanes) {
      double dk = d[k], yk = y[k], ak = 0.0, ck = 0.0;
      if (k >= s) {
        const double alpha = -a[k] * inv[k - s];
        dk += alpha * c[k - s];
        yk += alpha * y[k - s];
        ak = alpha * a[k - s];
      }
      if (k + s < n) {
        const double gamma = -c[k] * inv[k + s];
        dk += gamma * a[k + s];
        yk += gamma * y[k + s];
        ck = gamma * c[k + s];
      }
      a2[k] = ak;
      d2[k] = dk;
      c2[k] = ck;
      y2[k] = yk;
    }
    team.sync();
    double* t;
    t = a, a = a2, a2 = t;
    t = d, d = d2, d2 = t;
    t = c, c = c2, c2 = t;
    t = y, y = y2, y2 = t;
  }
  for (std::size_t k = lane; k < n; k += lanes) {
    ok = ok && positive_finite(d[k]);
    z[k] = y[k] / d[k];
  }
  team.sync();
  return team.all(ok);
}

/// z = M^{-1} r for one column of the 2x2-block system (r and z field-major,
/// 2 n values each); `work`: block_pcr_work(n) values. False (on every lane)
/// when a diagonal block's diagonal or determinant is not finite and positive.
template <class Team, class Inputs>
VOLTAIC_HD bool block_pcr_solve(const Team& team, const Inputs& in, const double* r, double* z, std::size_t n,
                                double* work) {
  using pcr_detail::BlockRows;
  using pcr_detail::M2;
  using pcr_detail::positive_finite;
  BlockRows cur{work, n}, next{work + 14 * n, n};
  double* inv = work + 28 * n;  // D_k^{-1}, component-outer
  const std::size_t lane = team.lane(), lanes = team.lanes();
  bool ok = true;
  for (std::size_t k = lane; k < n; k += lanes) {
    cur.put(0, k, k > 0 ? M2{-in.tz0[k - 1], 0.0, 0.0, -in.tz1[k - 1]} : M2{0.0, 0.0, 0.0, 0.0});
    cur.put(1, k, M2{in.diag0[k], in.c01[k], in.c10[k], in.diag1[k]});
    cur.put(2, k, k + 1 < n ? M2{-in.tz0[k], 0.0, 0.0, -in.tz1[k]} : M2{0.0, 0.0, 0.0, 0.0});
    cur.r(0, k) = r[k];
    cur.r(1, k) = r[n + k];
  }
  team.sync();
  const auto invert = [&](std::size_t k) {
    const M2 d = cur.get(1, k);
    const double det = d.a00 * d.a11 - d.a01 * d.a10;
    ok = ok && positive_finite(d.a00) && positive_finite(d.a11) && positive_finite(det);
    const double f = 1.0 / det;
    inv[k] = d.a11 * f;
    inv[n + k] = -d.a01 * f;
    inv[2 * n + k] = -d.a10 * f;
    inv[3 * n + k] = d.a00 * f;
  };
  const auto inverse = [&](std::size_t k) { return M2{inv[k], inv[n + k], inv[2 * n + k], inv[3 * n + k]}; };
  for (std::size_t s = 1; s < n; s *= 2) {
    for (std::size_t k = lane; k < n; k += lanes) invert(k);
    team.sync();
    for (std::size_t k = lane; k < n; k += lanes) {
      M2 d = cur.get(1, k), a{0.0, 0.0, 0.0, 0.0}, c{0.0, 0.0, 0.0, 0.0};
      double y0 = cur.r(0, k), y1 = cur.r(1, k);
      if (k >= s) {
        const M2 alpha = pcr_detail::negate(pcr_detail::mul(cur.get(0, k), inverse(k - s)));
        d = pcr_detail::add(d, pcr_detail::mul(alpha, cur.get(2, k - s)));
        a = pcr_detail::mul(alpha, cur.get(0, k - s));
        const double u0 = cur.r(0, k - s), u1 = cur.r(1, k - s);
        y0 += alpha.a00 * u0 + alpha.a01 * u1;
        y1 += alpha.a10 * u0 + alpha.a11 * u1;
      }
      if (k + s < n) {
        const M2 gamma = pcr_detail::negate(pcr_detail::mul(cur.get(2, k), inverse(k + s)));
        d = pcr_detail::add(d, pcr_detail::mul(gamma, cur.get(0, k + s)));
        c = pcr_detail::mul(gamma, cur.get(2, k + s));
        const double u0 = cur.r(0, k + s), u1 = cur.r(1, k + s);
        y0 += gamma.a00 * u0 + gamma.a01 * u1;
        y1 += gamma.a10 * u0 + gamma.a11 * u1;
      }
      next.put(0, k, a);
      next.put(1, k, d);
      next.put(2, k, c);
      next.r(0, k) = y0;
      next.r(1, k) = y1;
    }
    team.sync();
    const BlockRows t = cur;
    cur = next;
    next = t;
  }
  for (std::size_t k = lane; k < n; k += lanes) {
    invert(k);
    const M2 q = inverse(k);
    const double y0 = cur.r(0, k), y1 = cur.r(1, k);
    z[k] = q.a00 * y0 + q.a01 * y1;
    z[n + k] = q.a10 * y0 + q.a11 * y1;
  }
  team.sync();
  return team.all(ok);
}

}  // namespace voltaic::precond
