#pragma once
// Argument checks and backend dispatch shared by the sparse front ends
// (csr_matrix.cpp, ell_matrix.cpp, assemble_csr.cpp), worded like blas1.cpp's.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include "core/backend_dispatch.hpp"
#include "voltaic/config.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/core/view.hpp"

namespace voltaic::sparse {

/// Rows and non-zeros must index with 32-bit signed integers.
constexpr std::size_t kMaxIndex = static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max());

/// Throws ExecutorMismatch unless `space` (of argument `arg`) is exec's memory space.
inline void require_space(const Executor& exec, MemorySpace space, const char* where, const std::string& arg) {
  if (space != exec.memory_space()) {
    throw ExecutorMismatch(arg, where,
                           "'" + arg + "' is in " + to_string(space) + " memory but the executor " + exec.name() +
                               " works in " + to_string(exec.memory_space()) + " memory; clone it there first");
  }
}

/// Throws SizeMismatch unless `arg` holds `expected` elements.
inline void require_size(std::size_t size, std::size_t expected, const char* where, const std::string& arg,
                         const std::string& because) {
  if (size != expected) {
    throw SizeMismatch(arg, where,
                       "'" + arg + "' has " + std::to_string(size) + " elements but " + std::to_string(expected) +
                           " are needed: " + because);
  }
}

/// The checks of every LinearOperator::apply: sizes, memory spaces, no overlap.
template <class T>
void check_apply(const Executor& exec, std::size_t rows, View<const T> x, View<T> y, const char* where) {
  const std::string because = "the matrix has " + std::to_string(rows) + " rows";
  require_size(x.size(), rows, where, "x", because);
  require_size(y.size(), rows, where, "y", because);
  require_space(exec, x.space(), where, "x");
  require_space(exec, y.space(), where, "y");
  // Compared as integers: relational comparison of unrelated pointers is unspecified.
  const auto xb = reinterpret_cast<std::uintptr_t>(x.data()), yb = reinterpret_cast<std::uintptr_t>(y.data());
  const std::size_t bytes = rows * sizeof(T);
  if (rows > 0 && xb < yb + bytes && yb < xb + bytes) {
    throw InvalidArgument("y", where, "'x' and 'y' overlap; y = A x needs separate input and output");
  }
}

using detail::as_cuda;
using detail::on_cpu;

}  // namespace voltaic::sparse
