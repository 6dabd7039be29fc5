// Front end of PlaneMultigrid: builds the level hierarchy on the host (once,
// in double), refreshes the blocks, inverse blocks and coarsest LU on the
// executor (update), and runs the V-cycle as a sequence of backend calls.
#include "voltaic/linalg/plane_multigrid.hpp"

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "core/backend_dispatch.hpp"
#if VOLTAIC_HAS_CUDA
#include "core/graph_cache.hpp"
#endif
#include "plane_support.hpp"
#include "solver_support.hpp"
#include "voltaic/linalg/blas1.hpp"

namespace voltaic {

namespace {

constexpr std::size_t kMaxLevels = 64;  ///< the size of refresh()'s host buffer

void check_options(const PlaneMultigridOptions& o, const std::string& where) {
  if (o.pre_smoothing < 0) {
    throw InvalidArgument("options.pre_smoothing", where,
                          "pre_smoothing = " + std::to_string(o.pre_smoothing) + " must be >= 0");
  }
  if (o.restriction != PlaneRestriction::bilinear_transpose && o.restriction != PlaneRestriction::cell_sum) {
    throw InvalidArgument(
        "options.restriction", where,
        "restriction = " + std::to_string(static_cast<int>(o.restriction)) + " is not a PlaneRestriction");
  }
  if (o.post_smoothing < 0) {
    throw InvalidArgument("options.post_smoothing", where,
                          "post_smoothing = " + std::to_string(o.post_smoothing) + " must be >= 0");
  }
}

// Dispatch of one backend step.

template <class T>
void smooth(const Executor& exec, const plane::Level<T>& l, const T* inverse, const T* r, T* z, int colour,
            bool from_zero) {
  if (detail::on_cpu(exec, "PlaneMultigrid")) return cpu::plane_smooth(l, inverse, r, z, colour, from_zero);
  VOLTAIC_ON_CUDA(cuda::plane_smooth(detail::as_cuda(exec), l, inverse, r, z, colour, from_zero));
}

template <class T>
void dense_solve(const Executor& exec, const T* lu, const int* pivot, int m, const T* r, T* z) {
  if (detail::on_cpu(exec, "PlaneMultigrid")) return cpu::plane_dense_solve(lu, pivot, m, r, z);
  VOLTAIC_ON_CUDA(cuda::plane_dense_solve(detail::as_cuda(exec), lu, pivot, m, r, z));
}

}  // namespace

template <class T>
PlaneMultigrid<T>::PlaneMultigrid(const PlaneOperator<T>& op, PlaneMultigridOptions options)
    : PlaneMultigrid(op.system(), options) {}

template <class T>
PlaneMultigrid<T>::PlaneMultigrid(const PlaneSystem<T>& system, PlaneMultigridOptions options)
    : grid_(system.grid()), exec_(system.executor()), options_(options), k_(system.k()) {
  const std::string where = "PlaneMultigrid::PlaneMultigrid";
  check_options(options_, where);
  build(system);
  copy(*exec_, system.blocks().view(), levels_[0].blocks.view());
  refresh(where);
}

template <class T>
PlaneMultigrid<T>::PlaneMultigrid(std::shared_ptr<const Executor> exec, std::array<double, 2> k,
                                  std::vector<plane::HostLevel<T>> levels, PlaneMultigridOptions options)
    : grid_(levels.front().nx, levels.front().ny, 1.0, 1.0), exec_(std::move(exec)), options_(options), k_(k) {
  check_options(options_, "PlaneMultigrid::PlaneMultigrid");
  load(levels);
}

template <class T>
void PlaneMultigrid<T>::build(const PlaneSystem<T>& system) {
  const plane::Axis x = plane::uniform_axis(grid_.nx(), grid_.dx(), grid_.first_i()),
                    y = plane::uniform_axis(grid_.ny(), grid_.dy(), grid_.first_j());
  load(plane::hierarchy<T>(x, y, {plane::faces_of(system, 0, x, y), plane::faces_of(system, 1, x, y)}, k_));
}

template <class T>
void PlaneMultigrid<T>::load(const std::vector<plane::HostLevel<T>>& hierarchy) {
  if (hierarchy.size() > kMaxLevels) {  // PlaneGrid allows 1e9 cells: at most about 30 levels
    throw InvalidArgument("grid", "PlaneMultigrid::PlaneMultigrid", "more than 64 levels");
  }
  for (std::size_t i = 0; i < hierarchy.size(); ++i) {
    const plane::HostLevel<T>& h = hierarchy[i];
    Level l;
    l.nx = h.nx;
    l.ny = h.ny;
    l.coarsen_x = h.coarsen_x;
    l.coarsen_y = h.coarsen_y;
    const std::size_t n = l.cells();
    l.geometry = Array<T>::from_host(exec_, h.geometry);
    l.dirichlet = Array<T>::from_host(exec_, h.dirichlet);
    l.blocks = Array<T>(exec_, 4 * n);
    if (i > 0) {
      l.r = Array<T>(exec_, 2 * n);
      l.z = Array<T>(exec_, 2 * n);
      l.transfer_index = Array<int>::from_host(exec_, h.transfer_index);
      l.transfer_weight = Array<T>::from_host(exec_, h.transfer_weight);
    }
    const bool last = i + 1 == hierarchy.size();
    if (!last) l.inverse = Array<T>(exec_, 4 * n);
    if (!last && options_.restriction == PlaneRestriction::bilinear_transpose) l.residual = Array<T>(exec_, 2 * n);
    levels_.push_back(std::move(l));
  }
  fused_from_ = fused_tail();
#if VOLTAIC_HAS_CUDA
  if (options_.cuda_graphs && exec_->backend() == Backend::cuda) graphs_ = std::make_shared<cuda::GraphCache>();
#endif
  const std::size_t m = 2 * levels_.back().cells();
  dense_ = Array<T>(exec_, m * m);
  pivot_ = Array<int>(exec_, m);
  status_ = Array<unsigned long long>(exec_, levels_.size());
  status_reset_.assign(levels_.size(), plane::kNoneBad);
}

template <class T>
std::size_t PlaneMultigrid<T>::fused_tail() const {
  static_assert(kPlaneFusedLevels == plane::kMaxFusedLevels);
  const std::size_t last = levels_.size() - 1;
  if (!options_.fuse_coarse_levels || last == 0) return levels_.size();
  std::size_t first = last;
  while (first > 0 && levels_[first - 1].cells() <= kPlaneFusedCells && last - first + 2 <= kPlaneFusedLevels) --first;
  return first < last ? first : levels_.size();
}

template <class T>
plane::FusedCycle<T> PlaneMultigrid<T>::fused_cycle(View<const T> r, View<T> z) const {
  plane::FusedCycle<T> cycle;
  cycle.count = static_cast<int>(levels_.size() - fused_from_);
  for (std::size_t l = fused_from_; l < levels_.size(); ++l) {
    const Level& v = levels_[l];
    plane::FusedLevel<T>& f = cycle.levels[l - fused_from_];
    f.level = kernel_level(l);
    if (l > fused_from_) f.transfer = kernel_transfer(l);
    f.inverse = v.inverse.data();
    f.r = l == 0 ? r.data() : v.r.data();
    f.r_write = l == fused_from_ ? nullptr : v.r.data();
    f.z = l == 0 ? z.data() : v.z.data();
    f.residual = v.residual.data();
  }
  cycle.pre_smoothing = options_.pre_smoothing;
  cycle.post_smoothing = options_.post_smoothing;
  cycle.cell_sum = options_.restriction == PlaneRestriction::cell_sum ? 1 : 0;
  cycle.lu = dense_.data();
  cycle.pivot = pivot_.data();
  cycle.m = static_cast<int>(2 * levels_.back().cells());
  return cycle;
}

template <class T>
plane::Level<T> PlaneMultigrid<T>::kernel_level(std::size_t l) const {
  const Level& v = levels_[l];
  plane::Level<T> out;
  out.nx = v.nx;
  out.ny = v.ny;
  out.k0 = static_cast<T>(k_[0]);
  out.k1 = static_cast<T>(k_[1]);
  out.geometry = v.geometry.data();
  out.dirichlet = v.dirichlet.data();
  out.blocks = v.blocks.data();
  return out;
}

template <class T>
plane::Transfer<T> PlaneMultigrid<T>::kernel_transfer(std::size_t l) const {
  const Level& v = levels_[l];
  plane::Transfer<T> out;
  out.coarsen_x = v.coarsen_x ? 1 : 0;
  out.coarsen_y = v.coarsen_y ? 1 : 0;
  out.index = v.transfer_index.data();
  out.weight = v.transfer_weight.data();
  return out;
}

template <class T>
void PlaneMultigrid<T>::refresh(const std::string& where) {
  const Executor& exec = *exec_;
  const std::size_t last = levels_.size() - 1;
  exec.copy(status_.data(), status_.space(), status_reset_.data(), MemorySpace::host(),
            status_reset_.size() * sizeof(unsigned long long));
  const bool cpu = detail::on_cpu(exec, where);
  for (std::size_t l = 1; l <= last; ++l) {
    const plane::Level<T> fine = kernel_level(l - 1);
    const plane::Transfer<T> t = kernel_transfer(l);
    T* out = levels_[l].blocks.data();
    if (cpu) {
      cpu::plane_sum_blocks(fine, t, levels_[l].nx, levels_[l].ny, out);
    } else {
      VOLTAIC_ON_CUDA(cuda::plane_sum_blocks(detail::as_cuda(exec), fine, t, levels_[l].nx, levels_[l].ny, out));
    }
  }
  for (std::size_t l = 0; l < last; ++l) {
    const plane::Level<T> v = kernel_level(l);
    if (cpu) {
      cpu::plane_invert_blocks(v, levels_[l].inverse.data(), status_.data() + l);
    } else {
      VOLTAIC_ON_CUDA(
          cuda::plane_invert_blocks(detail::as_cuda(exec), v, levels_[l].inverse.data(), status_.data() + l));
    }
  }
  if (cpu) {
    cpu::plane_dense_factor(kernel_level(last), dense_.data(), pivot_.data(), status_.data() + last);
  } else {
    VOLTAIC_ON_CUDA(cuda::plane_dense_factor(detail::as_cuda(exec), kernel_level(last), dense_.data(), pivot_.data(),
                                             status_.data() + last));
  }
  // One read of every level's word (a fixed-size host buffer: no allocation).
  std::array<unsigned long long, kMaxLevels> status{};
  exec.copy(status.data(), MemorySpace::host(), status_.data(), status_.space(),
            levels_.size() * sizeof(unsigned long long));
  for (std::size_t l = 0; l <= last; ++l) {
    if (status[l] == plane::kNoneBad) continue;
    const Level& v = levels_[l];
    const std::size_t n = v.cells();
    const std::string shape = std::to_string(v.nx) + " x " + std::to_string(v.ny);
    if (l == last) {
      throw InvalidArgument(
          "coarsest level", where,
          "the dense LU of level " + std::to_string(l) + " (" + shape + " cells, " + std::to_string(2 * n) +
              " unknowns) has a zero or non-finite pivot at step " + std::to_string(status[l]) +
              ": A is singular (a field held by neither a tab nor its block coupling?) or not finite");
    }
    const std::size_t c = status[l];
    auto read = [&](const Array<T>& a, std::size_t i) { return detail::show(detail::read_element(exec, a.view(), i)); };
    throw InvalidArgument(
        "diagonal block", where,
        "on level " + std::to_string(l) + " (" + shape + " cells) the 2x2 diagonal block of cell (i, j) = (" +
            std::to_string(c % v.nx) + ", " + std::to_string(c / v.nx) +
            ") has a diagonal or determinant that is not " + "finite and > 0 (blocks b00 " + read(v.blocks, c) +
            ", b01 " + read(v.blocks, n + c) + ", b10 " + read(v.blocks, 2 * n + c) + ", b11 " +
            read(v.blocks, 3 * n + c) + "; Dirichlet terms " + read(v.dirichlet, c) + ", " + read(v.dirichlet, n + c) +
            "): the smoother needs positive definite blocks; the preconditioner is unusable until an update succeeds");
  }
}

template <class T>
void PlaneMultigrid<T>::update(const PlaneOperator<T>& op) {
  update(op.system());
}

template <class T>
void PlaneMultigrid<T>::update(const PlaneSystem<T>& system) {
  const std::string where = "PlaneMultigrid::update";
  if (system.grid() != grid_) {
    throw SizeMismatch("system.grid", where,
                       "grid " + std::to_string(system.grid().nx()) + " x " + std::to_string(system.grid().ny()) +
                           " differs from the preconditioner's " + std::to_string(grid_.nx()) + " x " +
                           std::to_string(grid_.ny()) + " (or its spacing does)");
  }
  if (system.executor()->memory_space() != exec_->memory_space()) {
    throw ExecutorMismatch("system", where,
                           "the system lives in " + to_string(system.executor()->memory_space()) +
                               " memory, the preconditioner in " + to_string(exec_->memory_space()));
  }
  if (system.k() != k_) {
    throw InvalidArgument("system.k", where,
                          "k = (" + detail::show(system.k(0)) + ", " + detail::show(system.k(1)) +
                              ") differs from the (" + detail::show(k_[0]) + ", " + detail::show(k_[1]) +
                              ") the levels were built for: build a new PlaneMultigrid");
  }
  copy(*exec_, system.blocks().view(), levels_[0].blocks.view());
  refresh(where);
}

template <class T>
void PlaneMultigrid<T>::update(View<const T> b00, View<const T> b01, View<const T> b10, View<const T> b11) {
  const std::string where = "PlaneMultigrid::update";
  plane::check_blocks(*exec_, grid_, b00, b01, b10, b11, where);
  const std::size_t n = grid_.num_cells();
  const View<const T> b[4] = {b00, b01, b10, b11};
  for (int m = 0; m < 4; ++m) copy(*exec_, b[m], levels_[0].blocks.view().subview(m * n, n));
  refresh(where);
}

template <class T>
void PlaneMultigrid<T>::apply(View<const T> r, View<T> z) const {
  const std::string where = "PlaneMultigrid::apply";
  const Executor& exec = *exec_;
  detail::require_vector(exec, r, size(), where, "r");
  detail::require_vector(exec, z, size(), where, "z");
  if (r.data() == z.data()) {
    throw InvalidArgument(where, where,
                          "r and z are the same array; the preconditioner needs separate input and output");
  }
  const std::size_t last = levels_.size() - 1;
  const int m = static_cast<int>(2 * levels_[last].cells());
  if (last == 0) return dense_solve(exec, dense_.data(), pivot_.data(), m, r.data(), z.data());
#if VOLTAIC_HAS_CUDA
  if (graphs_) return graphs_->run(detail::as_cuda(exec), {r.data(), z.data()}, [&] { cycle(r, z); });
#endif
  cycle(r, z);
}

template <class T>
std::size_t PlaneMultigrid<T>::cuda_graphs() const {
#if VOLTAIC_HAS_CUDA
  if (graphs_) return graphs_->size();
#endif
  return 0;
}

template <class T>
void PlaneMultigrid<T>::cycle(View<const T> r, View<T> z) const {
  const Executor& exec = *exec_;
  const std::size_t last = levels_.size() - 1;
  const int m = static_cast<int>(2 * levels_[last].cells());
  const bool cpu = detail::on_cpu(exec, "PlaneMultigrid::apply");
  auto rhs = [&](std::size_t l) { return l == 0 ? r.data() : levels_[l].r.data(); };
  auto sol = [&](std::size_t l) { return l == 0 ? z.data() : levels_[l].z.data(); };
  // Levels from `stop` down run as one kernel on CUDA (the same bits).
  const std::size_t stop = cpu || fused_from_ >= last ? last : fused_from_;

  for (std::size_t l = 0; l < stop; ++l) {
    const plane::Level<T> v = kernel_level(l);
    const T* inverse = levels_[l].inverse.data();
    if (options_.pre_smoothing == 0) {
      fill(exec, View<T>(sol(l), 2 * levels_[l].cells(), exec.memory_space()), T(0));
    } else {
      for (int s = 0; s < options_.pre_smoothing; ++s) {
        smooth(exec, v, inverse, rhs(l), sol(l), 0, s == 0);
        smooth(exec, v, inverse, rhs(l), sol(l), 1, false);
      }
    }
    const Level& c = levels_[l + 1];
    T* coarse_r = c.r.data();
    const plane::Transfer<T> t = kernel_transfer(l + 1);
    if (options_.restriction == PlaneRestriction::cell_sum) {
      if (cpu) {
        cpu::plane_restrict_residual(v, t, rhs(l), sol(l), c.nx, c.ny, coarse_r);
      } else {
        VOLTAIC_ON_CUDA(
            cuda::plane_restrict_residual(detail::as_cuda(exec), v, t, rhs(l), sol(l), c.nx, c.ny, coarse_r));
      }
    } else {
      T* res = levels_[l].residual.data();
      if (cpu) {
        cpu::plane_residual(v, rhs(l), sol(l), res);
        cpu::plane_restrict_transpose(t, v.nx, v.ny, res, c.nx, c.ny, coarse_r);
      } else {
        VOLTAIC_ON_CUDA(cuda::plane_residual(detail::as_cuda(exec), v, rhs(l), sol(l), res));
        VOLTAIC_ON_CUDA(
            cuda::plane_restrict_transpose(detail::as_cuda(exec), t, v.nx, v.ny, res, c.nx, c.ny, coarse_r));
      }
    }
  }
  if (stop == last) {
    dense_solve(exec, dense_.data(), pivot_.data(), m, rhs(last), sol(last));
  } else {
    VOLTAIC_ON_CUDA(cuda::plane_fused_cycle(detail::as_cuda(exec), fused_cycle(r, z)));
  }
  for (std::size_t l = stop; l-- > 0;) {
    const Level& f = levels_[l];
    const Level& c = levels_[l + 1];
    if (cpu) {
      cpu::plane_prolong_add(kernel_transfer(l + 1), f.nx, f.ny, sol(l + 1), c.nx, c.ny, sol(l));
    } else {
      VOLTAIC_ON_CUDA(cuda::plane_prolong_add(detail::as_cuda(exec), kernel_transfer(l + 1), f.nx, f.ny, sol(l + 1),
                                              c.nx, c.ny, sol(l)));
    }
    const plane::Level<T> v = kernel_level(l);
    for (int s = 0; s < options_.post_smoothing; ++s) {
      smooth(exec, v, f.inverse.data(), rhs(l), sol(l), 1, false);
      smooth(exec, v, f.inverse.data(), rhs(l), sol(l), 0, false);
    }
  }
}

template class PlaneMultigrid<float>;
template class PlaneMultigrid<double>;

}  // namespace voltaic
