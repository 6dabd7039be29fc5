// CutPlaneMultigrid: the plane V-cycle on the ranks' windows of each large
// level (the loops of src/cpu/plane_multigrid.cpp or the launches of
// kernels/plane_multigrid.cu over owned cells, in the executor's memory),
// the small levels gathered and run whole by a PlaneMultigrid of them.
#include "voltaic/linalg/cut_plane_multigrid.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "core/backend_dispatch.hpp"
#include "plane_kernels.hpp"
#include "plane_support.hpp"
#include "solver_support.hpp"
#include "voltaic/core/box_copy.hpp"
#include "voltaic/linalg/blas1.hpp"

namespace voltaic {

namespace {

constexpr const char* kWhere = "CutPlaneMultigrid";
constexpr long long kNone = std::numeric_limits<long long>::max();

/// The cells of `b` on the next coarser level: coarse cell C holds fine 2C.
PlaneBlock coarser(const PlaneBlock& b, bool x, bool y) {
  auto half = [](int a) { return (a + 1) / 2; };
  return {x ? half(b.i_begin) : b.i_begin, x ? half(b.i_end) : b.i_end, y ? half(b.j_begin) : b.j_begin,
          y ? half(b.j_end) : b.j_end};
}

/// Index of global cell (i, j) in a window.
std::size_t at(const PlaneBlock& w, int i, int j) {
  return static_cast<std::size_t>(i - w.i_begin) + static_cast<std::size_t>(w.nx()) * (j - w.j_begin);
}

}  // namespace

/// One cut level (or the tail's first, which holds only r, z and blocks
/// as the transfers from the last cut level see them) on this rank, in the
/// executor's memory.
template <class T>
struct CutPlaneMultigrid<T>::Level {
  PlaneLevelLayout layout;
  std::unique_ptr<PlaneLevelLink> link;
  plane::CellRange own;  ///< this rank's cells in window coordinates
  bool coarsen_x = false, coarsen_y = false;
  Array<T> geometry, dirichlet, blocks, inverse;
  mutable Array<T> r, z, residual;
  Array<int> transfer_index;  ///< from the finer level's window to this one's
  Array<T> transfer_weight;

  const PlaneBlock& window() const { return layout.window; }
  std::size_t cells() const { return window().columns(); }
  plane::Level<T> kernel(const std::array<double, 2>& k) const {
    plane::Level<T> v;
    v.nx = window().nx();
    v.ny = window().ny();
    v.k0 = static_cast<T>(k[0]);
    v.k1 = static_cast<T>(k[1]);
    v.geometry = geometry.data();
    v.dirichlet = dirichlet.data();
    v.blocks = blocks.data();
    return v;
  }
  plane::Transfer<T> transfer() const {
    return {coarsen_x ? 1 : 0, coarsen_y ? 1 : 0, transfer_index.data(), transfer_weight.data()};
  }
};

namespace {

// The ranged steps on the executor's backend (plane_kernels.hpp).

template <class T>
void sum_blocks(const Executor& e, const plane::Level<T>& fine, const plane::Transfer<T>& t, int nx, int ny, T* out,
                const plane::CellRange& coarse) {
  if (detail::on_cpu(e, kWhere)) return cpu::plane_sum_blocks(fine, t, nx, ny, out, coarse);
  VOLTAIC_ON_CUDA(cuda::plane_sum_blocks(detail::as_cuda(e), fine, t, nx, ny, out, coarse));
}

template <class T>
void invert_blocks(const Executor& e, const plane::Level<T>& l, T* inverse, unsigned long long* first_bad,
                   const plane::CellRange& cells) {
  if (detail::on_cpu(e, kWhere)) return cpu::plane_invert_blocks(l, inverse, first_bad, cells);
  VOLTAIC_ON_CUDA(cuda::plane_invert_blocks(detail::as_cuda(e), l, inverse, first_bad, cells));
}

template <class T>
void smooth_half(const Executor& e, const plane::Level<T>& l, const T* inverse, const T* r, T* z, int colour,
                 bool from_zero, const plane::CellRange& cells) {
  if (detail::on_cpu(e, kWhere)) return cpu::plane_smooth(l, inverse, r, z, colour, from_zero, cells);
  VOLTAIC_ON_CUDA(cuda::plane_smooth(detail::as_cuda(e), l, inverse, r, z, colour, from_zero, cells));
}

template <class T>
void restrict_residual(const Executor& e, const plane::Level<T>& fine, const plane::Transfer<T>& t, const T* r,
                       const T* z, int nx, int ny, T* out, const plane::CellRange& coarse) {
  if (detail::on_cpu(e, kWhere)) return cpu::plane_restrict_residual(fine, t, r, z, nx, ny, out, coarse);
  VOLTAIC_ON_CUDA(cuda::plane_restrict_residual(detail::as_cuda(e), fine, t, r, z, nx, ny, out, coarse));
}

template <class T>
void residual(const Executor& e, const plane::Level<T>& l, const T* r, const T* z, T* res,
              const plane::CellRange& cells) {
  if (detail::on_cpu(e, kWhere)) return cpu::plane_residual(l, r, z, res, cells);
  VOLTAIC_ON_CUDA(cuda::plane_residual(detail::as_cuda(e), l, r, z, res, cells));
}

template <class T>
void restrict_transpose(const Executor& e, const plane::Transfer<T>& t, int fine_nx, int fine_ny, const T* res, int nx,
                        int ny, T* out, const plane::CellRange& coarse) {
  if (detail::on_cpu(e, kWhere)) return cpu::plane_restrict_transpose(t, fine_nx, fine_ny, res, nx, ny, out, coarse);
  VOLTAIC_ON_CUDA(cuda::plane_restrict_transpose(detail::as_cuda(e), t, fine_nx, fine_ny, res, nx, ny, out, coarse));
}

template <class T>
void prolong_add(const Executor& e, const plane::Transfer<T>& t, int fine_nx, int fine_ny, const T* c, int nx, int ny,
                 T* z, const plane::CellRange& fine) {
  if (detail::on_cpu(e, kWhere)) return cpu::plane_prolong_add(t, fine_nx, fine_ny, c, nx, ny, z, fine);
  VOLTAIC_ON_CUDA(cuda::plane_prolong_add(detail::as_cuda(e), t, fine_nx, fine_ny, c, nx, ny, z, fine));
}

/// The smallest m n + c whose value b_m[c] is not finite, or -1.
template <class T>
long long first_bad_block(const Executor& e, const T* b00, const T* b01, const T* b10, const T* b11, std::size_t n) {
  if (detail::on_cpu(e, kWhere)) return cpu::plane_first_bad_block(b00, b01, b10, b11, n);
#if VOLTAIC_HAS_CUDA
  return cuda::plane_first_bad_block(detail::as_cuda(e), b00, b01, b10, b11, n);
#else
  return -1;
#endif
}

}  // namespace

namespace {

/// The window's part of a whole level's host values.
template <class T>
void slice_level(const plane::HostLevel<T>& h, const PlaneBlock& w, std::vector<T>& geometry,
                 std::vector<T>& dirichlet) {
  const int nx = h.nx, ny = h.ny;
  geometry.clear();
  for (int part = 0; part < 2; ++part)
    for (int i = w.i_begin; i < w.i_end; ++i) geometry.push_back(h.geometry[part * nx + i]);
  for (int part = 0; part < 2; ++part)
    for (int j = w.j_begin; j < w.j_end; ++j) geometry.push_back(h.geometry[2 * nx + part * ny + j]);
  dirichlet.assign(2 * w.columns(), T(0));
  for (int f = 0; f < 2; ++f)
    for (int j = w.j_begin; j < w.j_end; ++j)
      for (int i = w.i_begin; i < w.i_end; ++i)
        dirichlet[f * w.columns() + at(w, i, j)] = h.dirichlet[f * h.cells() + i + static_cast<std::size_t>(nx) * j];
}

/// The transfer of coarse level h (from its finer level) between windows:
/// the fine window's cells, their coarse indices made the coarse window's
/// (clamped into it: only cells that no owned cell reads fall outside).
template <class T>
void slice_transfer(const plane::HostLevel<T>& h, int fine_nx, int fine_ny, const PlaneBlock& fine,
                    const PlaneBlock& coarse, std::vector<int>& index, std::vector<T>& weight) {
  auto local = [](int c, int first, int n) { return std::clamp(c - first, 0, n - 1); };
  index.clear();
  weight.clear();
  for (int part = 0; part < 2; ++part)
    for (int i = fine.i_begin; i < fine.i_end; ++i)
      index.push_back(local(h.transfer_index[part * fine_nx + i], coarse.i_begin, coarse.nx()));
  for (int part = 0; part < 2; ++part)
    for (int j = fine.j_begin; j < fine.j_end; ++j)
      index.push_back(local(h.transfer_index[2 * fine_nx + part * fine_ny + j], coarse.j_begin, coarse.ny()));
  for (int i = fine.i_begin; i < fine.i_end; ++i) weight.push_back(h.transfer_weight[i]);
  for (int j = fine.j_begin; j < fine.j_end; ++j) weight.push_back(h.transfer_weight[fine_nx + j]);
}

}  // namespace

template <class T>
CutPlaneMultigrid<T>::CutPlaneMultigrid(const PlaneSystem<T>& system, std::shared_ptr<const PlaneDecomposition> cut,
                                        PlaneMultigridOptions options)
    : cut_(std::move(cut)), options_(options), k_(system.k()) {
  const std::string where = "CutPlaneMultigrid::CutPlaneMultigrid";
  if (!cut_) throw InvalidArgument("cut", where, "the decomposition is null");
  if (system.executor()->memory_space() != cut_->memory_space()) {
    throw InvalidArgument("system", where,
                          "the system's executor (" + system.executor()->name() +
                              ") does not hold the decomposition's arrays: both must be on the same backend");
  }
  const PlaneGrid& g = system.grid();
  if (g.nx() != cut_->plane_nx() || g.ny() != cut_->plane_ny() || g.first_i() != 0 || g.first_j() != 0) {
    throw InvalidArgument("system.grid", where,
                          "the system's plane (" + std::to_string(g.nx()) + " x " + std::to_string(g.ny()) +
                              ") is not the decomposition's whole plane (" + std::to_string(cut_->plane_nx()) + " x " +
                              std::to_string(cut_->plane_ny()) + ")");
  }
  if (options_.pre_smoothing < 0 || options_.post_smoothing < 0) {
    throw InvalidArgument("options", where, "pre_smoothing and post_smoothing must be >= 0");
  }
  const plane::Axis x = plane::uniform_axis(g.nx(), g.dx()), y = plane::uniform_axis(g.ny(), g.dy());
  std::vector<plane::HostLevel<T>> h =
      plane::hierarchy<T>(x, y, {plane::faces_of(system, 0, x, y), plane::faces_of(system, 1, x, y)}, k_);
  num_levels_ = static_cast<int>(h.size());
  std::size_t tail = 0;  // the first level small enough to run whole
  while (tail + 1 < h.size() && h[tail].cells() > kPlaneFusedCells) ++tail;

  // Every rank's cells on each level, then the windows from the tail up: a
  // finer window starts at twice the coarser one's first cell, so the
  // transfers' index arithmetic (fine 2C from coarse C) holds in windows.
  std::vector<std::vector<PlaneBlock>> owned(tail + 1);
  owned[0] = cut_->blocks();
  for (std::size_t l = 1; l <= tail; ++l)
    for (const PlaneBlock& b : owned[l - 1]) owned[l].push_back(coarser(b, h[l].coarsen_x, h[l].coarsen_y));
  const int me = cut_->rank();
  const std::shared_ptr<const Executor>& exec = system.executor();
  const auto zeros = [&](std::size_t n) { return Array<T>::from_host(exec, std::vector<T>(n, T(0))); };
  std::vector<PlaneBlock> windows(tail + 1);
  for (std::size_t l = tail + 1; l-- > 0;) {
    const PlaneBlock& o = owned[l][me];
    PlaneBlock w{std::max(0, o.i_begin - kBand), std::min(h[l].nx, o.i_end + kBand), std::max(0, o.j_begin - kBand),
                 std::min(h[l].ny, o.j_end + kBand)};
    if (l < tail) {
      const PlaneBlock& c = windows[l + 1];
      w.i_begin = h[l + 1].coarsen_x ? 2 * c.i_begin : c.i_begin;
      w.j_begin = h[l + 1].coarsen_y ? 2 * c.j_begin : c.j_begin;
    }
    windows[l] = w;
  }
  for (std::size_t l = 0; l <= tail; ++l) {
    auto level = std::make_unique<Level>();
    Level& v = *level;
    const PlaneBlock& w = windows[l];
    const PlaneBlock& o = owned[l][me];
    v.layout = {h[l].nx, h[l].ny, owned[l], w, kBand};
    v.link = cut_->level_link(v.layout);
    v.own = {std::min(o.i_begin - w.i_begin, w.nx()), std::min(o.i_end - w.i_begin, w.nx()),
             std::min(o.j_begin - w.j_begin, w.ny()), std::min(o.j_end - w.j_begin, w.ny()),
             (w.i_begin + w.j_begin) & 1};
    v.coarsen_x = h[l].coarsen_x;
    v.coarsen_y = h[l].coarsen_y;
    std::vector<T> geometry, dirichlet, weight;
    std::vector<int> index;
    slice_level(h[l], w, geometry, dirichlet);
    v.geometry = Array<T>::from_host(exec, geometry);
    v.dirichlet = Array<T>::from_host(exec, dirichlet);
    if (l > 0) {
      slice_transfer(h[l], h[l - 1].nx, h[l - 1].ny, windows[l - 1], w, index, weight);
      v.transfer_index = Array<int>::from_host(exec, index);
      v.transfer_weight = Array<T>::from_host(exec, weight);
    }
    const std::size_t n = w.columns();
    v.blocks = zeros(4 * n);
    v.r = zeros(2 * n);
    v.z = zeros(2 * n);
    if (l < tail) {
      v.inverse = zeros(4 * n);
      if (options_.restriction == PlaneRestriction::bilinear_transpose) v.residual = zeros(2 * n);
    }
    levels_.push_back(std::move(level));
  }
  tail_r_ = zeros(2 * h[tail].cells());
  tail_z_ = zeros(2 * h[tail].cells());
  tail_blocks_ = zeros(4 * h[tail].cells());
  first_bad_ = Array<unsigned long long>(exec, 1);
  h.erase(h.begin(), h.begin() + static_cast<std::ptrdiff_t>(tail));
  tail_.reset(new PlaneMultigrid<T>(exec, k_, std::move(h), options_));
}

template <class T>
CutPlaneMultigrid<T>::~CutPlaneMultigrid() = default;

template <class T>
std::size_t CutPlaneMultigrid<T>::ghosted_cells() const {
  return static_cast<std::size_t>(cut_->ghosted_nx()) * static_cast<std::size_t>(cut_->ghosted_ny());
}

template <class T>
int CutPlaneMultigrid<T>::num_levels() const {
  return num_levels_;
}

template <class T>
int CutPlaneMultigrid<T>::cut_levels() const {
  return static_cast<int>(levels_.size()) - 1;
}

template <class T>
void CutPlaneMultigrid<T>::copy_owned_in(const T* ghosted, int layers, T* window) const {
  const PlaneBlock& o = cut_->blocks()[cut_->rank()];
  const PlaneBlock& w = levels_[0]->window();
  const MemorySpace space = cut_->memory_space();
  copy_box<T>(*tail_->executor(), {o.nx(), o.ny(), layers},
              {ghosted, space, cut_->ghosted_nx(), cut_->ghosted_ny(), o.i_begin - cut_->first_i(),
               o.j_begin - cut_->first_j()},
              {window, space, w.nx(), w.ny(), o.i_begin - w.i_begin, o.j_begin - w.j_begin});
}

template <class T>
void CutPlaneMultigrid<T>::copy_out(const T* window, int layers, T* ghosted) const {
  const PlaneBlock& w = levels_[0]->window();
  const int gx = cut_->ghosted_nx(), gy = cut_->ghosted_ny();
  const MemorySpace space = cut_->memory_space();
  copy_box<T>(*tail_->executor(), {gx, gy, layers},
              {window, space, w.nx(), w.ny(), cut_->first_i() - w.i_begin, cut_->first_j() - w.j_begin},
              {ghosted, space, gx, gy, 0, 0});
}

template <class T>
void CutPlaneMultigrid<T>::agree(std::size_t l, long long bad, const char* what) const {
  const Level& v = *levels_[l];
  const long long global = bad < 0
                               ? kNone
                               : static_cast<long long>(v.window().i_begin + bad % v.window().nx()) +
                                     static_cast<long long>(v.layout.nx) * (v.window().j_begin + bad / v.window().nx());
  const long long first = v.link->min(global);
  if (first == kNone) return;
  throw InvalidArgument(
      what, "CutPlaneMultigrid::update",
      std::string(what) + " on level " + std::to_string(l) + " (" + std::to_string(v.layout.nx) + " x " +
          std::to_string(v.layout.ny) + " cells) at cell (i, j) = (" + std::to_string(first % v.layout.nx) + ", " +
          std::to_string(first / v.layout.nx) +
          ") is not finite and > 0: the smoother needs positive definite blocks; the preconditioner is unusable "
          "until an update succeeds");
}

template <class T>
void CutPlaneMultigrid<T>::update(View<const T> b00, View<const T> b01, View<const T> b10, View<const T> b11) {
  const std::string where = "CutPlaneMultigrid::update";
  const View<const T> b[4] = {b00, b01, b10, b11};
  const char* names[4] = {"b00", "b01", "b10", "b11"};
  const Executor& e = *tail_->executor();
  ready_ = false;
  Level& top = *levels_[0];
  const std::size_t wn = top.cells();
  fill(e, top.blocks.view(), T(0));  // the band's cells stay finite until the exchange fills them
  for (int m = 0; m < 4; ++m) {
    detail::require_vector(e, b[m], ghosted_cells(), where, names[m]);
    copy_owned_in(b[m].data(), 1, top.blocks.data() + m * wn);
  }
  const T* blocks = top.blocks.data();
  const long long bad = first_bad_block(e, blocks, blocks + wn, blocks + 2 * wn, blocks + 3 * wn, wn);
  agree(0, bad < 0 ? -1 : bad % static_cast<long long>(wn), "a block value");
  const std::size_t tail = levels_.size() - 1;
  if (tail > 0) top.link->exchange(top.blocks.data(), 4);
  for (std::size_t l = 1; l <= tail; ++l) {
    const Level& f = *levels_[l - 1];
    Level& c = *levels_[l];
    sum_blocks(e, f.kernel(k_), c.transfer(), c.window().nx(), c.window().ny(), c.blocks.data(), c.own);
    if (l < tail) c.link->exchange(c.blocks.data(), 4);
  }
  for (std::size_t l = 0; l < tail; ++l) {
    Level& v = *levels_[l];
    unsigned long long first = plane::kNoneBad;
    e.copy(first_bad_.data(), first_bad_.space(), &first, MemorySpace::host(), sizeof(first));
    invert_blocks(e, v.kernel(k_), v.inverse.data(), first_bad_.data(), v.own);
    e.copy(&first, MemorySpace::host(), first_bad_.data(), first_bad_.space(), sizeof(first));
    agree(l, first == plane::kNoneBad ? -1 : static_cast<long long>(first), "the 2x2 diagonal block");
  }
  const Level& t = *levels_[tail];
  t.link->gather(t.blocks.data(), 4, tail_blocks_.data());
  const std::size_t n = tail_blocks_.size() / 4;
  const View<const T> all = tail_blocks_.const_view();
  try {
    tail_->update(all.subview(0, n), all.subview(n, n), all.subview(2 * n, n), all.subview(3 * n, n));
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(
        "blocks", where,
        "the levels from level " + std::to_string(tail) + " on (run whole on every rank): " + e.what());
  }
  ready_ = true;
}

template <class T>
void CutPlaneMultigrid<T>::smooth(const Level& l, int sweeps, bool down) const {
  const plane::Level<T> v = l.kernel(k_);
  for (int s = 0; s < sweeps; ++s) {
    for (int half = 0; half < 2; ++half) {
      const int colour = down ? half : 1 - half;
      smooth_half(*tail_->executor(), v, l.inverse.data(), l.r.data(), l.z.data(), colour, down && s == 0 && half == 0,
                  l.own);
      l.link->exchange(l.z.data(), 2);
    }
  }
}

template <class T>
void CutPlaneMultigrid<T>::restrict_to(std::size_t l) const {
  const Executor& e = *tail_->executor();
  const Level& f = *levels_[l - 1];
  const Level& c = *levels_[l];
  const plane::Level<T> v = f.kernel(k_);
  if (options_.restriction == PlaneRestriction::cell_sum) {
    restrict_residual(e, v, c.transfer(), f.r.data(), f.z.data(), c.window().nx(), c.window().ny(), c.r.data(), c.own);
    c.link->exchange(c.r.data(), 2);  // the next restriction reads r at the cells beside its own
  } else {
    residual(e, v, f.r.data(), f.z.data(), f.residual.data(), f.own);
    f.link->exchange(f.residual.data(), 2);
    restrict_transpose(e, c.transfer(), v.nx, v.ny, f.residual.data(), c.window().nx(), c.window().ny(), c.r.data(),
                       c.own);
  }
}

template <class T>
void CutPlaneMultigrid<T>::prolong_from(std::size_t l) const {
  const Level& f = *levels_[l - 1];
  const Level& c = *levels_[l];
  prolong_add(*tail_->executor(), c.transfer(), f.window().nx(), f.window().ny(), c.z.data(), c.window().nx(),
              c.window().ny(), f.z.data(), f.own);
  f.link->exchange(f.z.data(), 2);
}

template <class T>
void CutPlaneMultigrid<T>::apply(View<const T> r, View<T> z) const {
  const std::string where = "CutPlaneMultigrid::apply";
  const Executor& e = *tail_->executor();
  detail::require_vector(e, r, 2 * ghosted_cells(), where, "r");
  detail::require_vector(e, z, 2 * ghosted_cells(), where, "z");
  if (r.data() == z.data()) {
    throw InvalidArgument(where, where,
                          "r and z are the same array; the preconditioner needs separate input and output");
  }
  if (!ready_) {
    throw InvalidArgument(where, where, "no blocks: apply() needs a successful update() first");
  }
  const std::size_t tail = levels_.size() - 1;
  const Level& top = *levels_[0];
  copy_owned_in(r.data(), 2, top.r.data());
  if (options_.restriction == PlaneRestriction::cell_sum && tail > 0) top.link->exchange(top.r.data(), 2);
  for (std::size_t l = 0; l < tail; ++l) {
    const Level& v = *levels_[l];
    if (options_.pre_smoothing == 0) {
      fill(e, v.z.view(), T(0));
    } else {
      smooth(v, options_.pre_smoothing, true);
    }
    restrict_to(l + 1);
  }
  const Level& t = *levels_[tail];
  t.link->gather(t.r.data(), 2, tail_r_.data());
  tail_->apply(tail_r_.const_view(), tail_z_.view());
  const PlaneBlock& w = t.window();  // the window's part of the tail's first level
  copy_box<T>(e, {w.nx(), w.ny(), 2}, {tail_z_.data(), tail_z_.space(), t.layout.nx, t.layout.ny, w.i_begin, w.j_begin},
              {t.z.data(), t.z.space(), w.nx(), w.ny(), 0, 0});
  for (std::size_t l = tail; l-- > 0;) {
    prolong_from(l + 1);
    smooth(*levels_[l], options_.post_smoothing, false);
  }
  copy_out(top.z.data(), 2, z.data());
}

template class CutPlaneMultigrid<float>;
template class CutPlaneMultigrid<double>;

}  // namespace voltaic
