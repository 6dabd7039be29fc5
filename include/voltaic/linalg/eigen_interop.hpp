#pragma once
/// @file eigen_interop.hpp
/// @brief Conversions between CsrMatrix and Eigen::SparseMatrix, for tests and
/// for users who build matrices with Eigen. Header-only: include it only where
/// Eigen 3 is available.

#include <Eigen/SparseCore>
#include <cstdint>
#include <memory>
#include <vector>

#include "voltaic/linalg/csr_matrix.hpp"

namespace voltaic {

/// The matrix as an Eigen row-major sparse matrix (copied to the host first).
template <class T>
Eigen::SparseMatrix<T, Eigen::RowMajor, std::int32_t> to_eigen(const CsrMatrix<T>& a) {
  const auto rp = a.row_ptr().to_host();
  const auto ci = a.col().to_host();
  const auto v = a.values().to_host();
  const auto n = static_cast<Eigen::Index>(a.size());
  std::vector<Eigen::Triplet<T, std::int32_t>> t;
  t.reserve(v.size());
  for (Eigen::Index r = 0; r < n; ++r) {
    for (std::int32_t e = rp[r]; e < rp[r + 1]; ++e) t.emplace_back(static_cast<std::int32_t>(r), ci[e], v[e]);
  }
  Eigen::SparseMatrix<T, Eigen::RowMajor, std::int32_t> m(n, n);
  m.setFromTriplets(t.begin(), t.end());
  return m;
}

/// A CSR matrix on `exec` holding an Eigen sparse matrix (any storage order).
template <class T, int Options, class Index>
CsrMatrix<T> from_eigen(std::shared_ptr<const Executor> exec, const Eigen::SparseMatrix<T, Options, Index>& m) {
  Eigen::SparseMatrix<T, Eigen::RowMajor, std::int32_t> r = m;
  r.makeCompressed();
  const auto rows = static_cast<std::size_t>(r.rows());
  std::vector<std::int32_t> rp(r.outerIndexPtr(), r.outerIndexPtr() + rows + 1);
  std::vector<std::int32_t> ci(r.innerIndexPtr(), r.innerIndexPtr() + r.nonZeros());
  std::vector<T> v(r.valuePtr(), r.valuePtr() + r.nonZeros());
  return CsrMatrix<T>(exec, rows, Array<std::int32_t>::from_host(exec, rp), Array<std::int32_t>::from_host(exec, ci),
                      Array<T>::from_host(exec, v));
}

}  // namespace voltaic
