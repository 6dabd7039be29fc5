// CPU backend of the preconditioners: plain loops over the column (or cell)
// operations that the CUDA kernels run one thread at a time
// (preconditioner_ops.hpp, block_zline_ops.hpp), so both round identically.
#include "../linalg/preconditioner_kernels.hpp"

namespace voltaic::cpu {

namespace {
/// The smaller of two "first bad cell" results, -1 meaning none.
std::int64_t first_of(std::int64_t a, std::int64_t b) {
  if (a < 0) return b;
  if (b < 0) return a;
  return a < b ? a : b;
}
}  // namespace

template <class T>
std::int64_t invert_diagonal(const T* d, T* inverse, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    if (!precond::invert_diagonal(d[i], inverse[i])) return static_cast<std::int64_t>(i);
  }
  return -1;
}

// Every column is factored even after a bad one, so that the cell reported is
// the smallest bad index, as the CUDA kernel (which sees all columns) finds it.
template <class T>
std::int64_t zline_factor(const T* diag, const T* tz, T* lower, T* inverse_pivot, T* upper, std::size_t columns,
                          int nz) {
  std::int64_t bad = -1;
  for (std::size_t col = 0; col < columns; ++col) {
    bad = first_of(bad, precond::factor_column(diag, tz, lower, inverse_pivot, upper, col, columns, nz));
  }
  return bad;
}

template <class T>
void zline_solve(const T* lower, const T* inverse_pivot, const T* upper, const T* r, T* z, std::size_t columns,
                 int nz) {
  for (std::size_t col = 0; col < columns; ++col) {
    precond::solve_column(lower, inverse_pivot, upper, r, z, col, columns, nz);
  }
}

template <class T>
std::int64_t block_zline_factor(const precond::BlockZLineInputs<T>& in, T* factors, std::size_t columns, int nz) {
  std::int64_t bad = -1;
  for (std::size_t col = 0; col < columns; ++col) {
    bad = first_of(bad, precond::factor_block_column(in, factors, col, columns, nz));
  }
  return bad;
}

template <class T>
void block_zline_solve(const T* factors, const T* r, T* z, std::size_t columns, int nz) {
  for (std::size_t col = 0; col < columns; ++col) precond::solve_block_column(factors, r, z, col, columns, nz);
}

#define VOLTAIC_INSTANTIATE(T)                                                                            \
  template std::int64_t invert_diagonal<T>(const T*, T*, std::size_t);                                    \
  template std::int64_t zline_factor<T>(const T*, const T*, T*, T*, T*, std::size_t, int);                \
  template void zline_solve<T>(const T*, const T*, const T*, const T*, T*, std::size_t, int);             \
  template std::int64_t block_zline_factor<T>(const precond::BlockZLineInputs<T>&, T*, std::size_t, int); \
  template void block_zline_solve<T>(const T*, const T*, T*, std::size_t, int);
VOLTAIC_INSTANTIATE(float)
VOLTAIC_INSTANTIATE(double)
#undef VOLTAIC_INSTANTIATE

}  // namespace voltaic::cpu
