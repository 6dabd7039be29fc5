#pragma once
// Argument checks and backend dispatch shared by the preconditioner and
// Krylov front ends (internal): every message names the operation, the
// argument and the value, as the BLAS-1 front end does.

#include <cstddef>
#include <cstdio>
#include <string>

#include "core/backend_dispatch.hpp"
#include "voltaic/config.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/core/grid.hpp"
#include "voltaic/core/view.hpp"

namespace voltaic::detail {

/// A value for a message, with enough digits to tell it from its neighbours.
inline std::string show(double v) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.9g", v);
  return buffer;
}

/// "cell (i, j, k) = (3, 0, 7) [index 451]", or "index 451" without a grid.
inline std::string cell_name(const Grid3D* grid, std::size_t c) {
  if (!grid) return "index " + std::to_string(c);
  const std::size_t nx = static_cast<std::size_t>(grid->nx()), layer = grid->cells_per_layer();
  return "cell (i, j, k) = (" + std::to_string(c % nx) + ", " + std::to_string(c % layer / nx) + ", " +
         std::to_string(c / layer) + ") [index " + std::to_string(c) + "]";
}

template <class T>
void require_space(const Executor& exec, View<T> v, const std::string& where, const char* arg) {
  if (v.space() != exec.memory_space()) {
    throw ExecutorMismatch(arg, where,
                           std::string("'") + arg + "' is in " + to_string(v.space()) + " memory but the executor " +
                               exec.name() + " works in " + to_string(exec.memory_space()) + " memory");
  }
}

template <class T>
void require_size(View<T> v, std::size_t n, const std::string& where, const char* arg) {
  if (v.size() != n) {
    throw SizeMismatch(
        arg, where,
        std::string("'") + arg + "' has " + std::to_string(v.size()) + " elements; expected " + std::to_string(n));
  }
}

/// Both checks: `v` holds n elements in exec's memory.
template <class T>
void require_vector(const Executor& exec, View<T> v, std::size_t n, const std::string& where, const char* arg) {
  require_size(v, n, where, arg);
  require_space(exec, v, where, arg);
}

/// One element of a view in any memory space (one small copy and a wait):
/// error messages read the offending value, never the whole array.
template <class T>
T read_element(const Executor& exec, View<const T> v, std::size_t i) {
  T value{};
  exec.copy(&value, MemorySpace::host(), v.data() + i, v.space(), sizeof(T));
  return value;
}

}  // namespace voltaic::detail
