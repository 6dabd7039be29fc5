#pragma once
// Shared by the sparse tests: random stencil coefficients on a grid, the matrix
// they stand for built independently with Eigen from the formula of
// stencil_coefficients.hpp, random general CSR matrices, and an executor whose
// memory no other executor may use (so ExecutorMismatch is testable without a GPU).

#include <Eigen/SparseCore>
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "voltaic/linalg/csr_matrix.hpp"
#include "voltaic/linalg/stencil_coefficients.hpp"

namespace voltaic::test {

template <class T>
using EigenCsr = Eigen::SparseMatrix<T, Eigen::RowMajor, std::int32_t>;

/// nx x ny x nz cells in two z-regions of different spacing (one when nz == 1).
inline std::shared_ptr<const Grid3D> make_grid(int nx, int ny, int nz) {
  std::vector<ZRegionSpec> regions;
  if (nz == 1) {
    regions = {{"separator", 1, 2e-5}};
  } else {
    regions = {{"anode", nz / 2, 6e-5}, {"cathode", nz - nz / 2, 5e-5}};
  }
  return std::make_shared<const Grid3D>(nx, ny, 1e-3, 2e-3, regions);
}

/// Stencil coefficients held on the host.
template <class T>
struct HostStencil {
  std::shared_ptr<const Grid3D> grid;
  std::vector<T> diag, tx, ty, tz;

  /// Couplings random in [0.1, 1), about one in eight exactly 0 (the entry must
  /// exist all the same), 0 through the last layer's outer face as
  /// stencil_coefficients.hpp requires; diagonal random in [1, 7).
  static HostStencil random(std::shared_ptr<const Grid3D> g, std::mt19937_64& rng) {
    const std::size_t n = g->num_cells();
    HostStencil s{g, random_vector<T>(n, rng, T(1), T(7)), {}, {}, {}};
    std::uniform_real_distribution<T> coupling(T(0.1), T(1));
    std::bernoulli_distribution zero(0.125);
    for (auto* t : {&s.tx, &s.ty, &s.tz}) {
      t->resize(n);
      for (T& v : *t) v = zero(rng) ? T(0) : coupling(rng);
    }
    for (int k = 0; k < g->nz(); ++k) {
      for (int j = 0; j < g->ny(); ++j) {
        for (int i = 0; i < g->nx(); ++i) {
          const std::size_t c = g->index(i, j, k);
          if (i == g->nx() - 1) s.tx[c] = T(0);
          if (j == g->ny() - 1) s.ty[c] = T(0);
          if (k == g->nz() - 1) s.tz[c] = T(0);
        }
      }
    }
    return s;
  }

  /// The coefficients as arrays on `exec`.
  StencilCoefficients<T> on(const std::shared_ptr<const Executor>& exec) const {
    return {grid, Array<T>::from_host(exec, diag), Array<T>::from_host(exec, tx), Array<T>::from_host(exec, ty),
            Array<T>::from_host(exec, tz)};
  }
};

/// The stencil's matrix, cell by cell from (A x)_c = diag_c x_c - tx_c x_{c+x}
/// - tx_{c-x} x_{c-x} - ...: an entry for every neighbour in the grid.
template <class T>
EigenCsr<T> reference_matrix(const HostStencil<T>& s) {
  const Grid3D& g = *s.grid;
  std::vector<Eigen::Triplet<T, std::int32_t>> t;
  auto add = [&](std::size_t r, std::size_t c, T v) {
    t.emplace_back(static_cast<std::int32_t>(r), static_cast<std::int32_t>(c), v);
  };
  for (int k = 0; k < g.nz(); ++k) {
    for (int j = 0; j < g.ny(); ++j) {
      for (int i = 0; i < g.nx(); ++i) {
        const std::size_t c = g.index(i, j, k);
        add(c, c, s.diag[c]);
        if (i + 1 < g.nx()) add(c, g.index(i + 1, j, k), -s.tx[c]);
        if (i > 0) add(c, g.index(i - 1, j, k), -s.tx[g.index(i - 1, j, k)]);
        if (j + 1 < g.ny()) add(c, g.index(i, j + 1, k), -s.ty[c]);
        if (j > 0) add(c, g.index(i, j - 1, k), -s.ty[g.index(i, j - 1, k)]);
        if (k + 1 < g.nz()) add(c, g.index(i, j, k + 1), -s.tz[c]);
        if (k > 0) add(c, g.index(i, j, k - 1), -s.tz[g.index(i, j, k - 1)]);
      }
    }
  }
  const auto n = static_cast<Eigen::Index>(g.num_cells());
  EigenCsr<T> m(n, n);
  m.setFromTriplets(t.begin(), t.end());  // keeps explicit zeros
  m.makeCompressed();
  return m;
}

/// A CSR matrix held on the host.
template <class T>
struct HostCsr {
  std::size_t rows = 0;
  std::vector<std::int32_t> row_ptr, col;
  std::vector<T> values;

  /// Rows of 0 .. max_length distinct sorted random columns, and one row of
  /// long_row entries (so that ELL pads most rows).
  static HostCsr random(std::size_t rows, int max_length, int long_row, std::mt19937_64& rng) {
    HostCsr m{rows, {0}, {}, {}};
    std::uniform_int_distribution<int> length(0, max_length);
    std::uniform_int_distribution<std::size_t> column(0, rows - 1), which(0, rows - 1);
    std::uniform_real_distribution<T> value(T(-2), T(2));
    const std::size_t long_one = which(rng);
    for (std::size_t r = 0; r < rows; ++r) {
      const int want = std::min<std::size_t>(r == long_one ? long_row : length(rng), rows);
      std::vector<std::int32_t> cols;
      while (cols.size() < static_cast<std::size_t>(want)) {
        const auto c = static_cast<std::int32_t>(column(rng));
        if (std::find(cols.begin(), cols.end(), c) == cols.end()) cols.push_back(c);
      }
      std::sort(cols.begin(), cols.end());
      for (std::int32_t c : cols) {
        m.col.push_back(c);
        m.values.push_back(value(rng));
      }
      m.row_ptr.push_back(static_cast<std::int32_t>(m.col.size()));
    }
    return m;
  }

  CsrMatrix<T> on(const std::shared_ptr<const Executor>& exec) const {
    return CsrMatrix<T>(exec, rows, Array<std::int32_t>::from_host(exec, row_ptr),
                        Array<std::int32_t>::from_host(exec, col), Array<T>::from_host(exec, values));
  }
};

/// Host memory that claims to be memory of device 99: arrays that neither the
/// CPU executor nor any real CUDA executor may use.
class ForeignExecutor final : public Executor {
 public:
  static std::shared_ptr<const Executor> create() { return std::shared_ptr<const Executor>(new ForeignExecutor()); }
  Backend backend() const noexcept override { return Backend::cpu; }
  MemorySpace memory_space() const noexcept override { return MemorySpace::cuda(99); }
  std::string name() const override { return "foreign"; }
  void* allocate(std::size_t bytes) const override { return host_->allocate(bytes); }
  void deallocate(void* ptr) const noexcept override { host_->deallocate(ptr); }
  void* allocate_pinned(std::size_t bytes) const override { return host_->allocate(bytes); }
  void deallocate_pinned(void* ptr) const noexcept override { host_->deallocate(ptr); }
  void copy(void* dst, MemorySpace, const void* src, MemorySpace, std::size_t bytes) const override {
    if (bytes > 0) std::memmove(dst, src, bytes);
  }
  void synchronize() const override {}
  int num_streams() const noexcept override { return 1; }
  std::unique_ptr<Event> create_event() const override { return host_->create_event(); }
  void copy_async(void* dst, MemorySpace a, const void* src, MemorySpace b, std::size_t bytes, int) const override {
    copy(dst, a, src, b, bytes);
  }

 private:
  ForeignExecutor() = default;
  std::shared_ptr<const Executor> host_ = CpuExecutor::create();
};

/// Whether a call's exception message contains `text` (for EXPECT_THAT-free checks).
template <class E, class F>
bool throws_naming(F&& call, const std::string& text) {
  try {
    call();
  } catch (const E& e) {
    if (std::string(e.what()).find(text) != std::string::npos) return true;
    ADD_FAILURE() << "message does not name '" << text << "': " << e.what();
    return false;
  }
  ADD_FAILURE() << "expected an exception naming '" << text << "'";
  return false;
}

}  // namespace voltaic::test
