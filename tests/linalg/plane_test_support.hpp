#pragma once
// Shared by the plane (two-foil) tests: random and realistic problems held on
// the host, the operator built from them on any executor, and the matrix A
// assembled independently with Eigen from the formula of plane_system.hpp.

#include <Eigen/SparseCore>
#include <algorithm>
#include <array>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "voltaic/linalg/plane_multigrid.hpp"
#include "voltaic/linalg/plane_system.hpp"

namespace voltaic::test {

/// A two-foil problem on the host: coverage per field and edge (x_lo, x_hi by
/// row; y_lo, y_hi by column), blocks b00, b01, b10, b11 per cell.
struct PlaneProblem {
  PlaneGrid grid{1, 1, 1.0, 1.0};
  std::array<double, 2> k{1.0, 1.0};
  std::array<std::array<std::vector<double>, 4>, 2> coverage;
  std::array<std::vector<double>, 4> blocks;
};

/// Random k in [500, 2000], random symmetric positive semi-definite blocks
/// g [[1, -1], [-1, 1]] + diag(d0, d1) (g in [1e-3, 10], d small and >= 0),
/// field 0 covered on random faces (each edge half zero, half random in
/// [0, 1], some exactly 1), field 1 without a tab unless `both_tabs`.
inline PlaneProblem random_plane_problem(int nx, int ny, std::mt19937_64& rng, bool both_tabs = false) {
  PlaneProblem p;
  p.grid = PlaneGrid(nx, ny, 1e-3 * (1 + rng() % 3), 1e-3 * (1 + rng() % 3));
  std::uniform_real_distribution<double> u(0.0, 1.0);
  p.k = {500 + 1500 * u(rng), 500 + 1500 * u(rng)};
  for (int f = 0; f < 2; ++f) {
    for (int e = 0; e < 4; ++e) {
      const int count = e < 2 ? ny : nx;
      std::vector<double> c(count, 0.0);
      if (f == 0 || both_tabs) {
        for (double& v : c) {
          const double pick = u(rng);
          v = pick < 0.5 ? 0.0 : pick < 0.7 ? 1.0 : u(rng);
        }
      }
      p.coverage[f][e] = c;
    }
  }
  const std::size_t n = p.grid.num_cells();
  for (auto& b : p.blocks) b.assign(n, 0.0);
  for (std::size_t c = 0; c < n; ++c) {
    const double g = std::pow(10.0, -3 + 4 * u(rng));
    p.blocks[0][c] = g + 1e-3 * u(rng);
    p.blocks[1][c] = -g;
    p.blocks[2][c] = -g;
    p.blocks[3][c] = g + 1e-3 * u(rng);
  }
  return p;
}

/// The measured case: a W x H pouch (dx = W / nx, dy = H / ny), k0 = 1490 S,
/// k1 = 887 S, g = 0.05 S per cell, field 0's tab covering 20 % of the y_hi
/// edge around x = 0.25 W (faces partly covered get the covered fraction),
/// field 1 without a tab.
inline PlaneProblem pouch_problem(int nx, int ny, double width = 0.1, double height = 0.1, double g = 0.05) {
  PlaneProblem p;
  p.grid = PlaneGrid(nx, ny, width / nx, height / ny);
  p.k = {1490.0, 887.0};
  for (int f = 0; f < 2; ++f) {
    for (int e = 0; e < 4; ++e) p.coverage[f][e].assign(e < 2 ? ny : nx, 0.0);
  }
  const double lo = 0.15 * width, hi = 0.35 * width, dx = p.grid.dx();
  for (int i = 0; i < nx; ++i) {
    const double a = std::max(lo, i * dx), b = std::min(hi, (i + 1) * dx);
    p.coverage[0][3][i] = b > a ? std::min(1.0, (b - a) / dx) : 0.0;
  }
  const std::size_t n = p.grid.num_cells();
  p.blocks = {std::vector<double>(n, g), std::vector<double>(n, -g), std::vector<double>(n, -g),
              std::vector<double>(n, g)};
  return p;
}

/// Arrays on one executor holding a problem's values in T, and the views the
/// constructors take.
template <class T>
struct PlaneArrays {
  std::array<std::array<Array<T>, 4>, 2> coverage;
  std::array<Array<T>, 4> blocks;

  PlaneArrays(const PlaneProblem& p, const std::shared_ptr<const Executor>& e) {
    for (int f = 0; f < 2; ++f) {
      for (int w = 0; w < 4; ++w) coverage[f][w] = Array<T>::from_host(e, cast(p.coverage[f][w]));
    }
    for (int m = 0; m < 4; ++m) blocks[m] = Array<T>::from_host(e, cast(p.blocks[m]));
  }
  PlaneEdges<T> edges(int f) const {
    return {coverage[f][0].view(), coverage[f][1].view(), coverage[f][2].view(), coverage[f][3].view()};
  }
  PlaneBlocks<T> block_views() const {
    return {blocks[0].view(), blocks[1].view(), blocks[2].view(), blocks[3].view()};
  }
  static std::vector<T> cast(const std::vector<double>& v) { return std::vector<T>(v.begin(), v.end()); }
};

template <class T>
PlaneOperator<T> make_plane_operator(const PlaneProblem& p, const std::shared_ptr<const Executor>& e) {
  const PlaneArrays<T> a(p, e);
  return PlaneOperator<T>(p.grid, e, p.k, a.edges(0), a.edges(1), a.block_views());
}

/// A as plane_system.hpp defines it, in double, assembled face by face.
inline Eigen::SparseMatrix<double> plane_matrix(const PlaneProblem& p) {
  const int nx = p.grid.nx(), ny = p.grid.ny();
  const double dx = p.grid.dx(), dy = p.grid.dy();
  const int n = nx * ny;
  std::vector<Eigen::Triplet<double>> t;
  for (int f = 0; f < 2; ++f) {
    const double k = p.k[f], gx = k * dy / dx, gy = k * dx / dy;
    auto row = [&](int i, int j) { return f * n + i + nx * j; };
    for (int j = 0; j < ny; ++j) {
      for (int i = 0; i < nx; ++i) {
        const int r = row(i, j);
        if (i + 1 < nx) {  // the face between (i, j) and (i + 1, j)
          t.emplace_back(r, r, gx);
          t.emplace_back(row(i + 1, j), row(i + 1, j), gx);
          t.emplace_back(r, row(i + 1, j), -gx);
          t.emplace_back(row(i + 1, j), r, -gx);
        }
        if (j + 1 < ny) {
          t.emplace_back(r, r, gy);
          t.emplace_back(row(i, j + 1), row(i, j + 1), gy);
          t.emplace_back(r, row(i, j + 1), -gy);
          t.emplace_back(row(i, j + 1), r, -gy);
        }
        if (i == 0) t.emplace_back(r, r, 2 * k * p.coverage[f][0][j] * dy / dx);
        if (i == nx - 1) t.emplace_back(r, r, 2 * k * p.coverage[f][1][j] * dy / dx);
        if (j == 0) t.emplace_back(r, r, 2 * k * p.coverage[f][2][i] * dx / dy);
        if (j == ny - 1) t.emplace_back(r, r, 2 * k * p.coverage[f][3][i] * dx / dy);
        const int c = i + nx * j;
        t.emplace_back(r, c, p.blocks[2 * f][c]);
        t.emplace_back(r, n + c, p.blocks[2 * f + 1][c]);
      }
    }
  }
  Eigen::SparseMatrix<double> a(2 * n, 2 * n);
  a.setFromTriplets(t.begin(), t.end());
  return a;
}

}  // namespace voltaic::test
