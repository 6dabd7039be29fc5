// CutPlaneMultigrid: the plane V-cycle on the ranks' windows of each large
// level (the CPU loops of src/cpu/plane_multigrid.cpp over owned cells),
// the small levels gathered and run whole by a PlaneMultigrid of them.
#include "voltaic/linalg/cut_plane_multigrid.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "core/backend_dispatch.hpp"
#include "plane_support.hpp"
#include "solver_support.hpp"

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
/// as the transfers from the last cut level see them) on this rank.
template <class T>
struct CutPlaneMultigrid<T>::Level {
  PlaneLevelLayout layout;
  std::unique_ptr<PlaneLevelLink> link;
  plane::CellRange own;  ///< this rank's cells in window coordinates
  bool coarsen_x = false, coarsen_y = false;
  std::vector<T> geometry, dirichlet, blocks, inverse;
  mutable std::vector<T> r, z, residual;
  std::vector<int> transfer_index;  ///< from the finer level's window to this one's
  std::vector<T> transfer_weight;

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
  if (system.executor()->backend() != Backend::cpu || cut_->memory_space() != MemorySpace::host()) {
    throw InvalidArgument("system", where,
                          "the cut V-cycle runs on the CPU backend (host memory); on a GPU the plane is gathered "
                          "and run whole by PlaneMultigrid");
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
    slice_level(h[l], w, v.geometry, v.dirichlet);
    if (l > 0) slice_transfer(h[l], h[l - 1].nx, h[l - 1].ny, windows[l - 1], w, v.transfer_index, v.transfer_weight);
    const std::size_t n = w.columns();
    v.blocks.assign(4 * n, T(0));
    v.r.assign(2 * n, T(0));
    v.z.assign(2 * n, T(0));
    if (l < tail) {
      v.inverse.assign(4 * n, T(0));
      if (options_.restriction == PlaneRestriction::bilinear_transpose) v.residual.assign(2 * n, T(0));
    }
    levels_.push_back(std::move(level));
  }
  tail_r_.assign(2 * h[tail].cells(), T(0));
  tail_z_.assign(2 * h[tail].cells(), T(0));
  tail_blocks_.assign(4 * h[tail].cells(), T(0));
  h.erase(h.begin(), h.begin() + static_cast<std::ptrdiff_t>(tail));
  tail_.reset(new PlaneMultigrid<T>(system.executor(), k_, std::move(h), options_));
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
void CutPlaneMultigrid<T>::copy_owned_in(const T* ghosted, int layers, std::vector<T>& window) const {
  const PlaneBlock& o = cut_->blocks()[cut_->rank()];
  const PlaneBlock& w = levels_[0]->window();
  const std::size_t gx = static_cast<std::size_t>(cut_->ghosted_nx()), gn = ghosted_cells(), wn = w.columns();
  for (int k = 0; k < layers; ++k)
    for (int j = o.j_begin; j < o.j_end; ++j)
      for (int i = o.i_begin; i < o.i_end; ++i)
        window[k * wn + at(w, i, j)] = ghosted[k * gn + (i - cut_->first_i()) + gx * (j - cut_->first_j())];
}

template <class T>
void CutPlaneMultigrid<T>::copy_out(const std::vector<T>& window, int layers, T* ghosted) const {
  const PlaneBlock& w = levels_[0]->window();
  const int gx = cut_->ghosted_nx(), gy = cut_->ghosted_ny();
  const std::size_t gn = ghosted_cells(), wn = w.columns();
  for (int k = 0; k < layers; ++k)
    for (int j = 0; j < gy; ++j)
      for (int i = 0; i < gx; ++i)
        ghosted[k * gn + i + static_cast<std::size_t>(gx) * j] =
            window[k * wn + at(w, cut_->first_i() + i, cut_->first_j() + j)];
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
  ready_ = false;
  Level& top = *levels_[0];
  const std::size_t wn = top.cells();
  long long bad = -1;
  for (int m = 0; m < 4; ++m) {
    detail::require_vector(*tail_->executor(), b[m], ghosted_cells(), where, names[m]);
    std::vector<T> part(wn, T(0));
    copy_owned_in(b[m].data(), 1, part);
    std::copy(part.begin(), part.end(), top.blocks.begin() + static_cast<std::ptrdiff_t>(m * wn));
    for (int j = top.own.j0; j < top.own.j1 && bad < 0; ++j)
      for (int i = top.own.i0; i < top.own.i1 && bad < 0; ++i)
        if (!plane::finite(part[i + static_cast<std::size_t>(top.window().nx()) * j]))
          bad = i + static_cast<long long>(top.window().nx()) * j;
  }
  agree(0, bad, "a block value");
  const std::size_t tail = levels_.size() - 1;
  if (tail > 0) top.link->exchange(top.blocks.data(), 4);
  for (std::size_t l = 1; l <= tail; ++l) {
    const Level& f = *levels_[l - 1];
    Level& c = *levels_[l];
    cpu::plane_sum_blocks(f.kernel(k_), c.transfer(), c.window().nx(), c.window().ny(), c.blocks.data(), c.own);
    if (l < tail) c.link->exchange(c.blocks.data(), 4);
  }
  for (std::size_t l = 0; l < tail; ++l) {
    Level& v = *levels_[l];
    unsigned long long first = plane::kNoneBad;
    cpu::plane_invert_blocks(v.kernel(k_), v.inverse.data(), &first, v.own);
    agree(l, first == plane::kNoneBad ? -1 : static_cast<long long>(first), "the 2x2 diagonal block");
  }
  const Level& t = *levels_[tail];
  t.link->gather(t.blocks.data(), 4, tail_blocks_.data());
  const std::size_t n = tail_blocks_.size() / 4;
  auto part = [&](int m) { return View<const T>(tail_blocks_.data() + m * n, n, MemorySpace::host()); };
  try {
    tail_->update(part(0), part(1), part(2), part(3));
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(
        "blocks", where,
        "the levels from level " + std::to_string(tail) + " on (run whole on every rank): " + e.what());
  }
  ready_ = true;
}

template <class T>
void CutPlaneMultigrid<T>::smooth(const Level& l, const std::vector<T>& r, std::vector<T>& z, int sweeps,
                                  bool down) const {
  const plane::Level<T> v = l.kernel(k_);
  for (int s = 0; s < sweeps; ++s) {
    for (int half = 0; half < 2; ++half) {
      const int colour = down ? half : 1 - half;
      cpu::plane_smooth(v, l.inverse.data(), r.data(), z.data(), colour, down && s == 0 && half == 0, l.own);
      l.link->exchange(z.data(), 2);
    }
  }
}

template <class T>
void CutPlaneMultigrid<T>::restrict_to(std::size_t l) const {
  const Level& f = *levels_[l - 1];
  const Level& c = *levels_[l];
  const plane::Level<T> v = f.kernel(k_);
  if (options_.restriction == PlaneRestriction::cell_sum) {
    cpu::plane_restrict_residual(v, c.transfer(), f.r.data(), f.z.data(), c.window().nx(), c.window().ny(), c.r.data(),
                                 c.own);
    c.link->exchange(c.r.data(), 2);  // the next restriction reads r at the cells beside its own
  } else {
    cpu::plane_residual(v, f.r.data(), f.z.data(), f.residual.data(), f.own);
    f.link->exchange(f.residual.data(), 2);
    cpu::plane_restrict_transpose(c.transfer(), v.nx, v.ny, f.residual.data(), c.window().nx(), c.window().ny(),
                                  c.r.data(), c.own);
  }
}

template <class T>
void CutPlaneMultigrid<T>::prolong_from(std::size_t l) const {
  const Level& f = *levels_[l - 1];
  const Level& c = *levels_[l];
  cpu::plane_prolong_add(c.transfer(), f.window().nx(), f.window().ny(), c.z.data(), c.window().nx(), c.window().ny(),
                         f.z.data(), f.own);
  f.link->exchange(f.z.data(), 2);
}

template <class T>
void CutPlaneMultigrid<T>::apply(View<const T> r, View<T> z) const {
  const std::string where = "CutPlaneMultigrid::apply";
  detail::require_vector(*tail_->executor(), r, 2 * ghosted_cells(), where, "r");
  detail::require_vector(*tail_->executor(), z, 2 * ghosted_cells(), where, "z");
  if (r.data() == z.data()) {
    throw InvalidArgument(where, where,
                          "r and z are the same array; the preconditioner needs separate input and output");
  }
  if (!ready_) {
    throw InvalidArgument(where, where, "no blocks: apply() needs a successful update() first");
  }
  const std::size_t tail = levels_.size() - 1;
  const Level& top = *levels_[0];
  copy_owned_in(r.data(), 2, top.r);
  if (options_.restriction == PlaneRestriction::cell_sum && tail > 0) top.link->exchange(top.r.data(), 2);
  for (std::size_t l = 0; l < tail; ++l) {
    const Level& v = *levels_[l];
    if (options_.pre_smoothing == 0) {
      std::fill(v.z.begin(), v.z.end(), T(0));
    } else {
      smooth(v, v.r, v.z, options_.pre_smoothing, true);
    }
    restrict_to(l + 1);
  }
  const Level& t = *levels_[tail];
  t.link->gather(t.r.data(), 2, tail_r_.data());
  const std::size_t n = tail_r_.size();
  tail_->apply(View<const T>(tail_r_.data(), n, MemorySpace::host()), View<T>(tail_z_.data(), n, MemorySpace::host()));
  const PlaneBlock& w = t.window();
  for (int f = 0; f < 2; ++f)
    for (int j = w.j_begin; j < w.j_end; ++j)
      for (int i = w.i_begin; i < w.i_end; ++i)
        t.z[f * w.columns() + at(w, i, j)] = tail_z_[f * (n / 2) + i + static_cast<std::size_t>(t.layout.nx) * j];
  for (std::size_t l = tail; l-- > 0;) {
    prolong_from(l + 1);
    const Level& v = *levels_[l];
    smooth(v, v.r, v.z, options_.post_smoothing, false);
  }
  copy_out(top.z, 2, z.data());
}

template class CutPlaneMultigrid<float>;
template class CutPlaneMultigrid<double>;

}  // namespace voltaic
