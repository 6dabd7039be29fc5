#pragma once
/// @file bench_problem.hpp
/// @brief The operator the stencil, spmv and solve subcommands share: an n^3
/// cell of three z-regions (negative electrode, separator, positive electrode).

#include <memory>
#include <random>
#include <vector>

#include "voltaic/core/array.hpp"
#include "voltaic/core/grid.hpp"
#include "voltaic/linalg/stencil_operator.hpp"

namespace voltaic_bench {

template <class T>
std::vector<T> uniform(std::size_t n, std::mt19937_64& rng, T lo, T hi) {
  std::uniform_real_distribution<T> dist(lo, hi);
  std::vector<T> v(n);
  for (T& e : v) e = dist(rng);
  return v;
}

/// n x n in-plane cells of 1 mm, n layers through 172 um of electrodes and separator:
/// dz / dx is about 1e-3, the anisotropy of a real cell.
inline std::shared_ptr<const voltaic::Grid3D> cell_cube(int n) {
  const int sep = n / 4, neg = (n - sep) / 2, pos = n - sep - neg;
  return std::make_shared<voltaic::Grid3D>(
      n, n, 1e-3, 1e-3,
      std::vector<voltaic::ZRegionSpec>{{"negative", neg, 85e-6}, {"separator", sep, 12e-6}, {"positive", pos, 75e-6}});
}

/// k random in each region around a per-region level (contrast `contrast`
/// between the electrodes and the separator), d random in [0, d_max]; Dirichlet
/// at the bottom, Robin on one side, the rest insulated.
template <class T>
voltaic::StencilOperator<T> cell_operator(const std::shared_ptr<const voltaic::Grid3D>& grid,
                                          const std::shared_ptr<const voltaic::Executor>& exec, std::mt19937_64& rng,
                                          double contrast = 1.0, double d_max = 1e3) {
  const std::size_t cells = grid->num_cells();
  std::vector<T> k = uniform<T>(cells, rng, T(0.5), T(2));
  for (std::size_t c = 0; c < cells; ++c) {
    if (grid->region_of_layer()[c / grid->cells_per_layer()] == 1) k[c] = static_cast<T>(k[c] / contrast);
  }
  voltaic::BoundaryConditions bc{};
  bc[int(voltaic::Face::z_lo)] = voltaic::BoundaryCondition::dirichlet(0.0);
  bc[int(voltaic::Face::x_hi)] = voltaic::BoundaryCondition::robin(10.0, 298.0);
  const auto ka = voltaic::Array<T>::from_host(exec, k);
  const auto da = voltaic::Array<T>::from_host(exec, uniform<T>(cells, rng, T(0), static_cast<T>(d_max)));
  return voltaic::StencilOperator<T>(grid, exec, ka.view(), da.view(), bc);
}

}  // namespace voltaic_bench
