// PlanePartition: blocks of whole tiles, and the canonical, partition-free
// order of a sum over the grid.
#include "voltaic/core/plane_partition.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "voltaic/core/error.hpp"

namespace voltaic {

namespace {

void require_positive(int v, const char* name) {
  if (v < 1)
    throw InvalidArgument(name, "PlanePartition", std::string(name) + " = " + std::to_string(v) + " must be >= 1");
}

/// n tiles dealt to p ranks: p + 1 cuts, the first n mod p ranks one tile more.
std::vector<int> cuts(int n, int p) {
  std::vector<int> c(static_cast<std::size_t>(p) + 1, 0);
  for (int r = 0; r < p; ++r) c[r + 1] = c[r] + n / p + (r < n % p ? 1 : 0);
  return c;
}

int index_of(const std::vector<int>& cut, int tile) {
  int r = 0;
  while (cut[r + 1] <= tile) ++r;
  return r;
}

double pairwise(const double* x, std::size_t lo, std::size_t hi) {
  if (hi - lo == 1) return x[lo];
  const std::size_t mid = lo + (hi - lo) / 2;
  return pairwise(x, lo, mid) + pairwise(x, mid, hi);
}

}  // namespace

PlanePartition::PlanePartition(int nx, int ny, int px, int py, int tile)
    : nx_(nx), ny_(ny), px_(px), py_(py), tile_(tile) {
  require_positive(nx, "nx");
  require_positive(ny, "ny");
  require_positive(px, "px");
  require_positive(py, "py");
  require_positive(tile, "tile");
  tx_ = (nx + tile - 1) / tile;
  ty_ = (ny + tile - 1) / tile;
  if (px > tx_ || py > ty_) {
    throw InvalidArgument("px x py", "PlanePartition",
                          std::to_string(px) + " x " + std::to_string(py) + " ranks for " + std::to_string(tx_) +
                              " x " + std::to_string(ty_) + " tiles of " + std::to_string(tile) +
                              " columns: every rank must own a tile; use fewer ranks or a smaller tile");
  }
  x_cut_ = cuts(tx_, px);
  y_cut_ = cuts(ty_, py);
}

PlaneBlock PlanePartition::block(int rank) const {
  if (rank < 0 || rank >= ranks())
    throw InvalidArgument("rank", "PlanePartition::block",
                          std::to_string(rank) + " is not in [0, " + std::to_string(ranks()) + ")");
  const int a = rank % px_, b = rank / px_;
  return {x_cut_[a] * tile_, std::min(x_cut_[a + 1] * tile_, nx_), y_cut_[b] * tile_,
          std::min(y_cut_[b + 1] * tile_, ny_)};
}

int PlanePartition::owner(int i, int j) const {
  return index_of(x_cut_, i / tile_) + px_ * index_of(y_cut_, j / tile_);
}

std::vector<int> PlanePartition::neighbours(int rank) const {
  const int a = rank % px_, b = rank / px_;
  return {a > 0 ? rank - 1 : -1, a + 1 < px_ ? rank + 1 : -1, b > 0 ? rank - px_ : -1, b + 1 < py_ ? rank + px_ : -1};
}

std::vector<std::size_t> PlanePartition::tiles_of(int rank) const {
  const PlaneBlock b = block(rank);
  std::vector<std::size_t> t;
  for (int y = b.j_begin / tile_; y * tile_ < b.j_end; ++y)
    for (int x = b.i_begin / tile_; x * tile_ < b.i_end; ++x) t.push_back(static_cast<std::size_t>(x) + tx_ * y);
  return t;
}

PlaneBlock PlanePartition::tile_columns(std::size_t t) const {
  const int x = static_cast<int>(t % tx_), y = static_cast<int>(t / tx_);
  return {x * tile_, std::min((x + 1) * tile_, nx_), y * tile_, std::min((y + 1) * tile_, ny_)};
}

PlanePartition PlanePartition::for_ranks(int nx, int ny, int ranks, int tile) {
  require_positive(ranks, "ranks");
  require_positive(tile, "tile");
  const int tx = (nx + tile - 1) / tile, ty = (ny + tile - 1) / tile;
  int best_px = 0;
  double best = std::numeric_limits<double>::infinity();
  for (int px = 1; px <= ranks; ++px) {
    if (ranks % px != 0 || px > tx || ranks / px > ty) continue;
    const double aspect = (double(nx) / px) / (double(ny) / (ranks / px));  // of one block
    const double badness = std::fabs(std::log(aspect));
    if (badness < best) {
      best = badness;
      best_px = px;
    }
  }
  if (best_px == 0) {
    throw InvalidArgument("ranks", "PlanePartition::for_ranks",
                          std::to_string(ranks) + " ranks cannot each own a tile of the " + std::to_string(tx) + " x " +
                              std::to_string(ty) + " tiles of " + std::to_string(tile) + " columns");
  }
  return PlanePartition(nx, ny, best_px, ranks / best_px, tile);
}

double sum_of_partials(const double* partials, std::size_t count) {
  return count == 0 ? 0.0 : pairwise(partials, 0, count);
}

double sum_of_partials(const std::vector<double>& partials) {
  return sum_of_partials(partials.data(), partials.size());
}

double canonical_sum(const PlanePartition& p, int nz, const std::vector<double>& field) {
  const std::size_t layer = static_cast<std::size_t>(p.nx()) * static_cast<std::size_t>(p.ny());
  if (field.size() != layer * static_cast<std::size_t>(nz))
    throw SizeMismatch("field", "canonical_sum",
                       "field has " + std::to_string(field.size()) + " values, the grid " + std::to_string(layer * nz));
  std::vector<double> partials(p.num_tiles());
  for (std::size_t t = 0; t < partials.size(); ++t)
    partials[t] = tile_partial(p.tile_columns(t), nz, [&](int i, int j, int k) {
      return field[static_cast<std::size_t>(i) +
                   p.nx() * (static_cast<std::size_t>(j) + p.ny() * static_cast<std::size_t>(k))];
    });
  return sum_of_partials(partials);
}

}  // namespace voltaic
