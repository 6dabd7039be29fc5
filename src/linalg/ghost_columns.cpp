// Front end of the ghost-column work: checks the block once, then
// dispatches to the CPU loops or the CUDA kernels.
#include "voltaic/linalg/ghost_columns.hpp"

#include <string>

#include "core/backend_dispatch.hpp"
#include "linalg/ghost_columns_kernels.hpp"
#include "voltaic/core/error.hpp"

namespace voltaic {

std::size_t GhostedBlock::edge_values(int layers) const {
  std::size_t n = 0;
  for (int s = 0; s < 4; ++s)
    if (ghost[s]) n += static_cast<std::size_t>(side_length(s));
  return n * static_cast<std::size_t>(layers);
}

namespace ghost_columns {

namespace {

constexpr const char* kWhere = "voltaic::ghost_columns";

void require_block(const GhostedBlock& b, int layers) {
  if (b.bx < 1 || b.by < 1 || layers < 1)
    throw InvalidArgument("block", kWhere,
                          "a block of " + std::to_string(b.bx) + " x " + std::to_string(b.by) + " columns and " +
                              std::to_string(layers) + " layers: each must be >= 1");
}

}  // namespace

template <class T>
void pack(const Executor& exec, const GhostedBlock& b, int layers, const T* field, T* edges, int stream) {
  require_block(b, layers);
  (void)stream;  // the CPU works at once
  if (detail::on_cpu(exec, kWhere)) return cpu::ghost_columns::pack(b, layers, field, edges);
  VOLTAIC_ON_CUDA(cuda::ghost_columns::pack(detail::as_cuda(exec), b, layers, field, edges, stream));
}

template <class T>
void unpack(const Executor& exec, const GhostedBlock& b, int layers, const T* edges, T* field, int stream) {
  require_block(b, layers);
  (void)stream;
  if (detail::on_cpu(exec, kWhere)) return cpu::ghost_columns::unpack(b, layers, edges, field);
  VOLTAIC_ON_CUDA(cuda::ghost_columns::unpack(detail::as_cuda(exec), b, layers, edges, field, stream));
}

template <class T>
void fill(const Executor& exec, const GhostedBlock& b, int layers, T* field, T value) {
  require_block(b, layers);
  if (!b.ghost[0] && !b.ghost[1] && !b.ghost[2] && !b.ghost[3]) return;  // one block: nothing to fill, no launch
  if (detail::on_cpu(exec, kWhere)) return cpu::ghost_columns::fill(b, layers, field, value);
  VOLTAIC_ON_CUDA(cuda::ghost_columns::fill(detail::as_cuda(exec), b, layers, field, value));
}

template <class T>
void tile_partials(const Executor& exec, const GhostedBlock& b, int layers, int tile, const T* x, const T* y,
                   double* partials, TileSlots slots) {
  tile_partials_of_rows(exec, b, layers, tile, &x, 1, y, partials, 0, slots);
}

template <class T>
void tile_partials_of_rows(const Executor& exec, const GhostedBlock& b, int layers, int tile, const T* const* xs,
                           int count, const T* y, double* partials, std::size_t stride, TileSlots slots) {
  require_block(b, layers);
  if (count < 0) throw InvalidArgument("count", kWhere, std::to_string(count) + " rows");
  if (count == 0) return;
  if (tile < 1) throw InvalidArgument("tile", kWhere, "tile = " + std::to_string(tile) + " must be >= 1");
  if (slots.row != 0 && slots.row < static_cast<std::size_t>((b.bx + tile - 1) / tile))
    throw InvalidArgument("slots.row", kWhere,
                          std::to_string(slots.row) + " slots a row for a block " +
                              std::to_string((b.bx + tile - 1) / tile) + " tiles across");
  if (detail::on_cpu(exec, kWhere))
    return cpu::ghost_columns::tile_partials(b, layers, tile, xs, count, y, partials, stride, slots);
  if (tile > 32)
    throw InvalidArgument("tile", kWhere,
                          "tile = " + std::to_string(tile) + ": a GPU block sums a tile, at most 32 x 32 columns");
  VOLTAIC_ON_CUDA(cuda::ghost_columns::tile_partials(detail::as_cuda(exec), b, layers, tile, xs, count, y, partials,
                                                     stride, slots));
}

template <class T>
void sum_partials(const Executor& exec, const double* partials, std::size_t count, int sums, int roots, T* out,
                  int stream) {
  if (count == 0) throw InvalidArgument("count", kWhere, "a canonical sum of no partials");
  if (sums < 0 || roots < 0 || roots > sums)
    throw InvalidArgument(
        "sums, roots", kWhere,
        std::to_string(sums) + " sums with " + std::to_string(roots) + " roots: need 0 <= roots <= sums");
  if (sums == 0) return;
  (void)stream;
  if (detail::on_cpu(exec, kWhere)) return cpu::ghost_columns::sum_partials(partials, count, sums, roots, out);
  if (count > kMostPartials)
    throw InvalidArgument("count", kWhere,
                          std::to_string(count) + " partials: a GPU sums at most " + std::to_string(kMostPartials) +
                              " (cut the plane into larger tiles)");
  VOLTAIC_ON_CUDA(cuda::ghost_columns::sum_partials(detail::as_cuda(exec), partials, count, sums, roots, out, stream));
}

double max_abs(const Executor& exec, const GhostedBlock& b, int layers, const double* x) {
  require_block(b, layers);
  if (detail::on_cpu(exec, kWhere)) return cpu::ghost_columns::max_abs(b, layers, x);
  double m = 0.0;
  VOLTAIC_ON_CUDA(m = cuda::ghost_columns::max_abs(detail::as_cuda(exec), b, layers, x));
  return m;
}

void slice(const Executor& exec, const GhostedBlock& b, int layers, int plane_nx, int plane_ny, int first_i,
           int first_j, const double* whole, double* field) {
  require_block(b, layers);
  if (first_i < 0 || first_j < 0 || first_i + b.gx() > plane_nx || first_j + b.gy() > plane_ny)
    throw InvalidArgument("first_i, first_j", kWhere,
                          "the " + std::to_string(b.gx()) + " x " + std::to_string(b.gy()) + " block at (" +
                              std::to_string(first_i) + ", " + std::to_string(first_j) + ") leaves the " +
                              std::to_string(plane_nx) + " x " + std::to_string(plane_ny) + " plane");
  if (detail::on_cpu(exec, kWhere))
    return cpu::ghost_columns::slice(b, layers, plane_nx, plane_ny, first_i, first_j, whole, field);
  VOLTAIC_ON_CUDA(
      cuda::ghost_columns::slice(detail::as_cuda(exec), b, layers, plane_nx, plane_ny, first_i, first_j, whole, field));
}

void owned(const Executor& exec, const GhostedBlock& b, int layers, const double* field, double* owned) {
  require_block(b, layers);
  if (detail::on_cpu(exec, kWhere)) return cpu::ghost_columns::owned(b, layers, field, owned);
  VOLTAIC_ON_CUDA(cuda::ghost_columns::owned(detail::as_cuda(exec), b, layers, field, owned));
}

void place(const Executor& exec, int bx, int by, int layers, int plane_nx, int plane_ny, int i0, int j0,
           const double* block, double* whole) {
  if (bx < 1 || by < 1 || layers < 1 || i0 < 0 || j0 < 0 || i0 + bx > plane_nx || j0 + by > plane_ny)
    throw InvalidArgument("block", kWhere,
                          "a " + std::to_string(bx) + " x " + std::to_string(by) + " x " + std::to_string(layers) +
                              " block at (" + std::to_string(i0) + ", " + std::to_string(j0) + ") of the " +
                              std::to_string(plane_nx) + " x " + std::to_string(plane_ny) + " plane");
  if (detail::on_cpu(exec, kWhere))
    return cpu::ghost_columns::place(bx, by, layers, plane_nx, plane_ny, i0, j0, block, whole);
  VOLTAIC_ON_CUDA(
      cuda::ghost_columns::place(detail::as_cuda(exec), bx, by, layers, plane_nx, plane_ny, i0, j0, block, whole));
}

template void pack<double>(const Executor&, const GhostedBlock&, int, const double*, double*, int);
template void pack<float>(const Executor&, const GhostedBlock&, int, const float*, float*, int);
template void unpack<double>(const Executor&, const GhostedBlock&, int, const double*, double*, int);
template void unpack<float>(const Executor&, const GhostedBlock&, int, const float*, float*, int);
template void fill<double>(const Executor&, const GhostedBlock&, int, double*, double);
template void fill<float>(const Executor&, const GhostedBlock&, int, float*, float);
template void tile_partials<double>(const Executor&, const GhostedBlock&, int, int, const double*, const double*,
                                    double*, TileSlots);
template void tile_partials<float>(const Executor&, const GhostedBlock&, int, int, const float*, const float*, double*,
                                   TileSlots);
template void tile_partials_of_rows<double>(const Executor&, const GhostedBlock&, int, int, const double* const*, int,
                                            const double*, double*, std::size_t, TileSlots);
template void tile_partials_of_rows<float>(const Executor&, const GhostedBlock&, int, int, const float* const*, int,
                                           const float*, double*, std::size_t, TileSlots);
template void sum_partials<double>(const Executor&, const double*, std::size_t, int, int, double*, int);
template void sum_partials<float>(const Executor&, const double*, std::size_t, int, int, float*, int);

}  // namespace ghost_columns

}  // namespace voltaic
