// The CPU loops of the ghost-column work (the oracle of kernels/ghost_columns.cu).
#include <algorithm>
#include <cmath>

#include "linalg/ghost_columns_kernels.hpp"
#include "voltaic/core/plane_partition.hpp"

namespace voltaic::cpu::ghost_columns {

namespace {

/// The owned edge column beside side s (ghost = false) or the ghost column
/// across it (ghost = true): (li, lj) of position p along it.
void side_cell(const GhostedBlock& b, int s, int p, bool ghost, int& li, int& lj) {
  if (s < 2) {
    li = s == 0 ? (ghost ? -1 : 0) : (ghost ? b.bx : b.bx - 1);
    lj = p;
  } else {
    li = p;
    lj = s == 2 ? (ghost ? -1 : 0) : (ghost ? b.by : b.by - 1);
  }
}

/// f(m, c) for value m of the edges (pack()'s order) and its cell c: the
/// owned column beside each side (ghost = false) or the ghost column across it.
template <class F>
void for_each_edge(const GhostedBlock& b, int layers, bool ghost, F&& f) {
  std::size_t m = 0;
  for (int s = 0; s < 4; ++s) {
    if (!b.ghost[s]) continue;
    for (int k = 0; k < layers; ++k)
      for (int p = 0; p < b.side_length(s); ++p) {
        int li, lj;
        side_cell(b, s, p, ghost, li, lj);
        f(m++, b.index(li, lj, k));
      }
  }
}

}  // namespace

template <class T>
void pack(const GhostedBlock& b, int layers, const T* field, T* edges) {
  for_each_edge(b, layers, false, [&](std::size_t m, std::size_t c) { edges[m] = field[c]; });
}

template <class T>
void unpack(const GhostedBlock& b, int layers, const T* edges, T* field) {
  for_each_edge(b, layers, true, [&](std::size_t m, std::size_t c) { field[c] = edges[m]; });
  for (int sx : {0, 1})
    for (int sy : {2, 3}) {
      if (!b.ghost[sx] || !b.ghost[sy]) continue;
      const int li = sx == 0 ? -1 : b.bx, lj = sy == 2 ? -1 : b.by;
      const int oi = sx == 0 ? 0 : b.bx - 1, oj = sy == 2 ? 0 : b.by - 1;
      for (int k = 0; k < layers; ++k) field[b.index(li, lj, k)] = field[b.index(oi, oj, k)];
    }
}

template <class T>
void fill(const GhostedBlock& b, int layers, T* field, T value) {
  const int gx = b.gx(), gy = b.gy();
  const std::size_t layer = b.layer();
  for (int k = 0; k < layers; ++k)
    for (int j = 0; j < gy; ++j)
      for (int i = 0; i < gx; ++i) {
        const bool owned_x = i >= b.x0() && i < b.x0() + b.bx, owned_y = j >= b.y0() && j < b.y0() + b.by;
        if (!(owned_x && owned_y)) field[std::size_t(i) + std::size_t(gx) * j + layer * k] = value;
      }
}

template <class T>
void tile_partials(const GhostedBlock& b, int layers, int tile, const T* const* xs, int count, const T* y,
                   double* partials, std::size_t stride, TileSlots slots) {
  const int ntx = (b.bx + tile - 1) / tile, nty = (b.by + tile - 1) / tile;
  const std::size_t row = slots.row != 0 ? slots.row : std::size_t(ntx);
  for (int r = 0; r < count; ++r)
    for (int tb = 0; tb < nty; ++tb)
      for (int ta = 0; ta < ntx; ++ta) {
        const T* x = xs[r];
        const PlaneBlock t{ta * tile, std::min(ta * tile + tile, b.bx), tb * tile, std::min(tb * tile + tile, b.by)};
        partials[r * stride + slots.first + ta + row * tb] = tile_partial(t, layers, [&](int i, int j, int k) {
          const std::size_t c = b.index(i, j, k);
          return y ? static_cast<double>(x[c]) * static_cast<double>(y[c]) : static_cast<double>(x[c]);
        });
      }
}

double max_abs(const GhostedBlock& b, int layers, const double* x) {
  double m = 0.0;
  for (int k = 0; k < layers; ++k)
    for (int lj = 0; lj < b.by; ++lj)
      for (int li = 0; li < b.bx; ++li) {
        const double v = x[b.index(li, lj, k)];
        if (std::isnan(v)) return NAN;
        m = std::max(m, std::fabs(v));
      }
  return m;
}

void slice(const GhostedBlock& b, int layers, int plane_nx, int plane_ny, int first_i, int first_j, const double* whole,
           double* field) {
  const std::size_t gx = std::size_t(b.gx()), gy = std::size_t(b.gy()), nx = std::size_t(plane_nx);
  const std::size_t plane = nx * std::size_t(plane_ny);
  for (std::size_t k = 0; k < std::size_t(layers); ++k)
    for (std::size_t j = 0; j < gy; ++j)
      for (std::size_t i = 0; i < gx; ++i)
        field[i + gx * (j + gy * k)] = whole[(first_i + i) + nx * (first_j + j) + plane * k];
}

void owned(const GhostedBlock& b, int layers, const double* field, double* owned) {
  for (int k = 0; k < layers; ++k)
    for (int lj = 0; lj < b.by; ++lj)
      for (int li = 0; li < b.bx; ++li) *owned++ = field[b.index(li, lj, k)];
}

void place(int bx, int by, int layers, int plane_nx, int plane_ny, int i0, int j0, const double* block, double* whole) {
  const std::size_t nx = std::size_t(plane_nx), plane = nx * std::size_t(plane_ny);
  for (int k = 0; k < layers; ++k)
    for (int j = j0; j < j0 + by; ++j)
      for (int i = i0; i < i0 + bx; ++i) whole[std::size_t(i) + nx * std::size_t(j) + plane * k] = *block++;
}

template void pack<double>(const GhostedBlock&, int, const double*, double*);
template void pack<float>(const GhostedBlock&, int, const float*, float*);
template void unpack<double>(const GhostedBlock&, int, const double*, double*);
template void unpack<float>(const GhostedBlock&, int, const float*, float*);
template void fill<double>(const GhostedBlock&, int, double*, double);
template void fill<float>(const GhostedBlock&, int, float*, float);
template <class T>
void sum_partials(const double* partials, std::size_t count, int sums, int roots, T* out) {
  for (int i = 0; i < sums; ++i) {
    const double s = sum_of_partials(partials + static_cast<std::size_t>(i) * count, count);
    out[i] = static_cast<T>(i < roots ? std::sqrt(s) : s);
  }
}

template void tile_partials<double>(const GhostedBlock&, int, int, const double* const*, int, const double*, double*,
                                    std::size_t, TileSlots);
template void tile_partials<float>(const GhostedBlock&, int, int, const float* const*, int, const float*, double*,
                                   std::size_t, TileSlots);
template void sum_partials<double>(const double*, std::size_t, int, int, double*);
template void sum_partials<float>(const double*, std::size_t, int, int, float*);

}  // namespace voltaic::cpu::ghost_columns
