// Front end of PlaneGrid, PlaneSystem and PlaneOperator: checks inputs once,
// computes the geometry and the Dirichlet diagonal on the host (once, at
// construction), keeps the blocks on the executor and dispatches applies.
#include "voltaic/linalg/plane_system.hpp"

#include <cmath>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/backend_dispatch.hpp"
#include "plane_support.hpp"
#include "solver_support.hpp"
#include "voltaic/linalg/blas1.hpp"

namespace voltaic {

PlaneGrid::PlaneGrid(int nx, int ny, double dx, double dy) : PlaneGrid(nx, ny, dx, dy, 0, 0) {}

PlaneGrid::PlaneGrid(int nx, int ny, double dx, double dy, int first_i, int first_j)
    : nx_(nx), ny_(ny), dx_(dx), dy_(dy), first_i_(first_i), first_j_(first_j) {
  const char* where = "PlaneGrid::PlaneGrid";
  if (nx < 1) throw InvalidArgument("nx", where, "nx = " + std::to_string(nx) + " must be >= 1");
  if (ny < 1) throw InvalidArgument("ny", where, "ny = " + std::to_string(ny) + " must be >= 1");
  if (!(std::isfinite(dx) && dx > 0))
    throw InvalidArgument("dx", where, "dx = " + detail::show(dx) + " [m] must be finite and > 0");
  if (!(std::isfinite(dy) && dy > 0))
    throw InvalidArgument("dy", where, "dy = " + detail::show(dy) + " [m] must be finite and > 0");
  if (static_cast<double>(nx) * static_cast<double>(ny) > 1e9) {
    throw InvalidArgument("nx * ny", where,
                          std::to_string(nx) + " x " + std::to_string(ny) + " cells: at most 1e9 cells are supported");
  }
}

namespace {

constexpr PlaneEdge kEdges[4] = {PlaneEdge::x_lo, PlaneEdge::x_hi, PlaneEdge::y_lo, PlaneEdge::y_hi};
constexpr const char* kEdgeNames[4] = {"x_lo", "x_hi", "y_lo", "y_hi"};

template <class T>
View<const T> edge_view(const PlaneEdges<T>& e, int which) {
  switch (which) {
    case 0: return e.x_lo;
    case 1: return e.x_hi;
    case 2: return e.y_lo;
    default: return e.y_hi;
  }
}

/// The view's values on the host (one copy; construction only).
template <class T>
std::vector<T> host_copy(const Executor& exec, View<const T> v) {
  std::vector<T> out(v.size());
  if (!out.empty()) exec.copy(out.data(), MemorySpace::host(), v.data(), v.space(), v.size() * sizeof(T));
  return out;
}

template <class To, class From>
Array<To> converted_array(const Array<From>& a) {
  Array<To> out(a.executor(), a.size());
  if constexpr (std::is_same_v<To, From>) {
    copy(*a.executor(), a.view(), out.view());
  } else {
    convert(*a.executor(), a.view(), out.view());
  }
  return out;
}

template <class T>
void copy_blocks_in(const Executor& exec, std::size_t n, View<const T> b00, View<const T> b01, View<const T> b10,
                    View<const T> b11, Array<T>& blocks) {
  const View<const T> b[4] = {b00, b01, b10, b11};
  for (int m = 0; m < 4; ++m) copy(exec, b[m], blocks.view().subview(m * n, n));
}

}  // namespace

template <class T>
PlaneSystem<T>::PlaneSystem(const PlaneGrid& grid, std::shared_ptr<const Executor> exec, std::array<double, 2> k)
    : grid_(grid), exec_(std::move(exec)), k_(k) {}

template <class T>
PlaneSystem<T>::PlaneSystem(const PlaneGrid& grid, std::shared_ptr<const Executor> exec, std::array<double, 2> k,
                            const PlaneEdges<T>& dirichlet0, const PlaneEdges<T>& dirichlet1,
                            const PlaneBlocks<T>& blocks)
    : grid_(grid), exec_(std::move(exec)), k_(k) {
  const std::string where = "PlaneSystem::PlaneSystem";
  if (!exec_) throw InvalidArgument("executor", where, "executor is null");
  for (int f = 0; f < 2; ++f) {
    if (!(std::isfinite(k_[f]) && k_[f] > 0)) {
      throw InvalidArgument("k[" + std::to_string(f) + "]", where,
                            "k[" + std::to_string(f) + "] = " + detail::show(k_[f]) +
                                " [S] (foil conductivity x thickness) must be finite and > 0");
    }
  }
  const int nx = grid_.nx(), ny = grid_.ny();
  const std::size_t n = grid_.num_cells();
  // Coverage: sizes and spaces, then values (on the host: 2 (nx + ny) values per field).
  std::vector<T> coverage;
  std::array<std::vector<double>, 8> edges;  // field-outer, x_lo x_hi y_lo y_hi
  for (int f = 0; f < 2; ++f) {
    const PlaneEdges<T>& e = f == 0 ? dirichlet0 : dirichlet1;
    for (int w = 0; w < 4; ++w) {
      const std::string name = "dirichlet" + std::to_string(f) + "." + kEdgeNames[w];
      const std::size_t expected = w < 2 ? static_cast<std::size_t>(ny) : static_cast<std::size_t>(nx);
      detail::require_vector(*exec_, edge_view(e, w), expected, where, name.c_str());
      const std::vector<T> values = host_copy(*exec_, edge_view(e, w));
      for (std::size_t q = 0; q < values.size(); ++q) {
        const double v = static_cast<double>(values[q]);
        if (!(std::isfinite(v) && v >= 0.0 && v <= 1.0)) {
          throw InvalidArgument(name, where,
                                "'" + name + "' at " + (w < 2 ? "row j = " : "column i = ") + std::to_string(q) +
                                    " is " + detail::show(v) +
                                    "; a tab covers a fraction of a boundary face, finite and in [0, 1]");
        }
      }
      coverage.insert(coverage.end(), values.begin(), values.end());
      edges[4 * f + w].assign(values.begin(), values.end());
    }
  }
  plane::check_blocks(*exec_, grid_, blocks.b00, blocks.b01, blocks.b10, blocks.b11, where);

  const plane::Axis x = plane::uniform_axis(nx, grid_.dx(), grid_.first_i()),
                    y = plane::uniform_axis(ny, grid_.dy(), grid_.first_j());
  const std::array<plane::BoundaryFaces, 2> faces = {
      plane::boundary_faces(x, y, k_[0], edges[0], edges[1], edges[2], edges[3]),
      plane::boundary_faces(x, y, k_[1], edges[4], edges[5], edges[6], edges[7])};
  coverage_ = Array<T>::from_host(exec_, coverage);
  geometry_ = Array<T>::from_host(exec_, plane::geometry_values<T>(x, y));
  dirichlet_ = Array<T>::from_host(exec_, plane::dirichlet_values<T>(x, y, faces));
  blocks_ = Array<T>(exec_, 4 * n);
  copy_blocks_in(*exec_, n, blocks.b00, blocks.b01, blocks.b10, blocks.b11, blocks_);
}

template <class T>
void PlaneSystem<T>::update_blocks(View<const T> b00, View<const T> b01, View<const T> b10, View<const T> b11) {
  plane::check_blocks(*exec_, grid_, b00, b01, b10, b11, "PlaneSystem::update_blocks");
  copy_blocks_in(*exec_, grid_.num_cells(), b00, b01, b10, b11, blocks_);
}

template <class T>
std::size_t PlaneSystem<T>::edge_offset(int field, PlaneEdge edge) const {
  const std::size_t nx = static_cast<std::size_t>(grid_.nx()), ny = static_cast<std::size_t>(grid_.ny());
  const std::size_t offsets[4] = {0, ny, 2 * ny, 2 * ny + nx};
  return (field == 0 ? 0 : 2 * (nx + ny)) + offsets[static_cast<int>(edge)];
}

template <class T>
View<const T> PlaneSystem<T>::coverage(int field, PlaneEdge edge) const {
  const std::size_t count = edge == PlaneEdge::x_lo || edge == PlaneEdge::x_hi ? grid_.ny() : grid_.nx();
  return coverage_.view().subview(edge_offset(field, edge), count);
}

template <class T>
View<const T> PlaneSystem<T>::dirichlet_diagonal(int field) const {
  const std::size_t n = grid_.num_cells();
  return dirichlet_.view().subview(field == 0 ? 0 : n, n);
}

template <class T>
template <class U>
PlaneSystem<U> PlaneSystem<T>::converted() const {
  PlaneSystem<U> out(grid_, exec_, k_);
  out.coverage_ = converted_array<U>(coverage_);
  out.geometry_ = converted_array<U>(geometry_);
  out.dirichlet_ = converted_array<U>(dirichlet_);
  out.blocks_ = converted_array<U>(blocks_);
  return out;
}

template <class T>
template <class U>
void PlaneSystem<T>::assign_converted_blocks(const PlaneSystem<U>& other) {
  if (other.grid() != grid_) {
    throw SizeMismatch("PlaneSystem", "PlaneSystem::assign_converted_blocks", "the two systems' grids differ");
  }
  if (other.executor()->memory_space() != exec_->memory_space()) {
    throw ExecutorMismatch("PlaneSystem", "PlaneSystem::assign_converted_blocks",
                           "the source lives in " + to_string(other.executor()->memory_space()) + " memory, this in " +
                               to_string(exec_->memory_space()));
  }
  if constexpr (std::is_same_v<T, U>) {
    copy(*exec_, other.blocks().view(), blocks_.view());
  } else {
    convert(*exec_, other.blocks().view(), blocks_.view());
  }
}

// ------------------------------------------------------------------ operator

template <class T>
PlaneOperator<T>::PlaneOperator(PlaneSystem<T> system) : system_(std::move(system)) {}

template <class T>
PlaneOperator<T>::PlaneOperator(const PlaneGrid& grid, std::shared_ptr<const Executor> exec, std::array<double, 2> k,
                                const PlaneEdges<T>& dirichlet0, const PlaneEdges<T>& dirichlet1,
                                const PlaneBlocks<T>& blocks)
    : system_(grid, std::move(exec), k, dirichlet0, dirichlet1, blocks) {}

template <class T>
void PlaneOperator<T>::apply(View<const T> x, View<T> y) const {
  const std::string where = "PlaneOperator::apply";
  const Executor& exec = *executor();
  detail::require_vector(exec, x, size(), where, "x");
  detail::require_vector(exec, y, size(), where, "y");
  if (x.data() == y.data()) {
    throw InvalidArgument(where, where, "x and y are the same array; the operator needs separate input and output");
  }
  if (decomposition_) decomposition_->exchange(const_cast<T*>(x.data()), 2);  // ghosts are scratch
  const plane::Level<T> l = plane::level_of(system_);
  if (detail::on_cpu(exec, where)) {
    cpu::plane_apply(l, x.data(), y.data());
  } else {
    VOLTAIC_ON_CUDA(cuda::plane_apply(detail::as_cuda(exec), l, x.data(), y.data()));
  }
  if (decomposition_) decomposition_->set_ghosts(y.data(), 2, T(0));
}

template <class T>
bool PlaneOperator<T>::stream_ordered() const {
  return !decomposition_ || decomposition_->stream_ordered();
}

template <class T>
void PlaneOperator<T>::decompose(std::shared_ptr<const PlaneDecomposition> decomposition) {
  const PlaneGrid& g = grid();
  if (decomposition && (decomposition->ghosted_nx() != g.nx() || decomposition->ghosted_ny() != g.ny()))
    throw SizeMismatch("decomposition", "PlaneOperator::decompose",
                       "its ghosted block has " + std::to_string(decomposition->ghosted_nx()) + " x " +
                           std::to_string(decomposition->ghosted_ny()) + " columns; the plane has " +
                           std::to_string(g.nx()) + " x " + std::to_string(g.ny()));
  decomposition_ = std::move(decomposition);
}

template <class T>
const VectorSpace<T>& PlaneOperator<T>::space() const {
  return decomposition_ ? decomposition_->space<T>(2) : VectorSpace<T>::local();
}

template <class T>
void PlaneOperator<T>::update_blocks(View<const T> b00, View<const T> b01, View<const T> b10, View<const T> b11) {
  system_.update_blocks(b00, b01, b10, b11);
}

template <class T>
template <class U>
PlaneOperator<U> PlaneOperator<T>::converted() const {
  return PlaneOperator<U>(system_.template converted<U>());
}

template <class T>
template <class U>
void PlaneOperator<T>::assign_converted(const PlaneOperator<U>& other) {
  system_.assign_converted_blocks(other.system());
}

template class PlaneSystem<float>;
template class PlaneSystem<double>;
template PlaneSystem<float> PlaneSystem<double>::converted<float>() const;
template PlaneSystem<double> PlaneSystem<float>::converted<double>() const;
template PlaneSystem<float> PlaneSystem<float>::converted<float>() const;
template PlaneSystem<double> PlaneSystem<double>::converted<double>() const;
template void PlaneSystem<float>::assign_converted_blocks(const PlaneSystem<double>&);
template void PlaneSystem<double>::assign_converted_blocks(const PlaneSystem<float>&);
template void PlaneSystem<float>::assign_converted_blocks(const PlaneSystem<float>&);
template void PlaneSystem<double>::assign_converted_blocks(const PlaneSystem<double>&);
template class PlaneOperator<float>;
template class PlaneOperator<double>;
template PlaneOperator<float> PlaneOperator<double>::converted<float>() const;
template PlaneOperator<double> PlaneOperator<float>::converted<double>() const;
template PlaneOperator<float> PlaneOperator<float>::converted<float>() const;
template PlaneOperator<double> PlaneOperator<double>::converted<double>() const;
template void PlaneOperator<float>::assign_converted(const PlaneOperator<double>&);
template void PlaneOperator<double>::assign_converted(const PlaneOperator<float>&);
template void PlaneOperator<float>::assign_converted(const PlaneOperator<float>&);
template void PlaneOperator<double>::assign_converted(const PlaneOperator<double>&);

}  // namespace voltaic
