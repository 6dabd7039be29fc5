// Host-side geometry of the plane hierarchy and the block check shared by
// PlaneSystem and PlaneMultigrid (plane_support.hpp).
#include "plane_support.hpp"

#include <algorithm>

#include "core/backend_dispatch.hpp"
#include "solver_support.hpp"
#include "voltaic/linalg/plane_multigrid.hpp"

namespace voltaic::plane {

Axis uniform_axis(int n, double h, int first) {
  Axis a;
  a.edges.resize(static_cast<std::size_t>(n) + 1);
  for (int i = 0; i <= n; ++i) a.edges[i] = (first + i) * h;
  return a;
}

Axis coarsened(const Axis& fine) {
  const int n = fine.cells(), nc = (n + 1) / 2;
  Axis a;
  a.edges.resize(static_cast<std::size_t>(nc) + 1);
  for (int c = 0; c < nc; ++c) a.edges[c] = fine.edges[2 * c];
  a.edges[nc] = fine.edges[n];
  return a;
}

BoundaryFaces boundary_faces(const Axis& x, const Axis& y, double k, const std::vector<double>& x_lo,
                             const std::vector<double>& x_hi, const std::vector<double>& y_lo,
                             const std::vector<double>& y_hi) {
  const int nx = x.cells(), ny = y.cells();
  BoundaryFaces b{x_lo, x_hi, y_lo, y_hi};
  for (int j = 0; j < ny; ++j) {
    b.x_lo[j] = 2 * k * x_lo[j] * y.width(j) / x.width(0);
    b.x_hi[j] = 2 * k * x_hi[j] * y.width(j) / x.width(nx - 1);
  }
  for (int i = 0; i < nx; ++i) {
    b.y_lo[i] = 2 * k * y_lo[i] * x.width(i) / y.width(0);
    b.y_hi[i] = 2 * k * y_hi[i] * x.width(i) / y.width(ny - 1);
  }
  return b;
}

namespace {

/// The view's values on the host (construction only).
template <class T>
std::vector<double> host_values(const Executor& exec, View<const T> v) {
  std::vector<T> out(v.size());
  if (!out.empty()) exec.copy(out.data(), MemorySpace::host(), v.data(), v.space(), v.size() * sizeof(T));
  return std::vector<double>(out.begin(), out.end());
}

}  // namespace

template <class T>
BoundaryFaces faces_of(const PlaneSystem<T>& s, int field, const Axis& x, const Axis& y) {
  const Executor& e = *s.executor();
  return boundary_faces(x, y, s.k(field), host_values(e, s.coverage(field, PlaneEdge::x_lo)),
                        host_values(e, s.coverage(field, PlaneEdge::x_hi)),
                        host_values(e, s.coverage(field, PlaneEdge::y_lo)),
                        host_values(e, s.coverage(field, PlaneEdge::y_hi)));
}

namespace {

/// One edge's coarse faces: fine faces summed in pairs along the edge (when
/// `along` was coarsened), then in series with the strip of width d.
std::vector<double> coarsened_edge(const std::vector<double>& fine, bool along, const Axis& coarse_along, double d,
                                   double k) {
  std::vector<double> s(along ? (fine.size() + 1) / 2 : fine.size(), 0.0);
  for (std::size_t i = 0; i < fine.size(); ++i) s[along ? i / 2 : i] += fine[i];
  if (d > 0) {
    for (std::size_t c = 0; c < s.size(); ++c) {
      const double strip = d / (k * coarse_along.width(static_cast<int>(c)));
      if (s[c] > 0) s[c] = 1.0 / (1.0 / s[c] + strip);
    }
  }
  return s;
}

}  // namespace

BoundaryFaces coarsened(const BoundaryFaces& fine, const Axis& fine_x, const Axis& fine_y, const Axis& coarse_x,
                        const Axis& coarse_y, bool coarsen_x, bool coarsen_y, double k) {
  const int fx = fine_x.cells(), fy = fine_y.cells(), cx = coarse_x.cells(), cy = coarse_y.cells();
  const double dx_lo = 0.5 * (coarse_x.width(0) - fine_x.width(0));
  const double dx_hi = 0.5 * (coarse_x.width(cx - 1) - fine_x.width(fx - 1));
  const double dy_lo = 0.5 * (coarse_y.width(0) - fine_y.width(0));
  const double dy_hi = 0.5 * (coarse_y.width(cy - 1) - fine_y.width(fy - 1));
  return {coarsened_edge(fine.x_lo, coarsen_y, coarse_y, dx_lo, k),
          coarsened_edge(fine.x_hi, coarsen_y, coarse_y, dx_hi, k),
          coarsened_edge(fine.y_lo, coarsen_x, coarse_x, dy_lo, k),
          coarsened_edge(fine.y_hi, coarsen_x, coarse_x, dy_hi, k)};
}

template <class T>
std::vector<T> geometry_values(const Axis& x, const Axis& y) {
  const int nx = x.cells(), ny = y.cells();
  std::vector<T> g(2 * static_cast<std::size_t>(nx) + 2 * static_cast<std::size_t>(ny), T(0));
  for (int i = 0; i < nx; ++i) {
    g[i] = static_cast<T>(x.width(i));
    if (i + 1 < nx) g[nx + i] = static_cast<T>(1.0 / (x.centre(i + 1) - x.centre(i)));
  }
  for (int j = 0; j < ny; ++j) {
    g[2 * nx + j] = static_cast<T>(y.width(j));
    if (j + 1 < ny) g[2 * nx + ny + j] = static_cast<T>(1.0 / (y.centre(j + 1) - y.centre(j)));
  }
  return g;
}

template <class T>
std::vector<T> dirichlet_values(const Axis& x, const Axis& y, const std::array<BoundaryFaces, 2>& faces) {
  const int nx = x.cells(), ny = y.cells();
  const std::size_t n = static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny);
  std::vector<T> d(2 * n, T(0));
  for (int f = 0; f < 2; ++f) {
    const BoundaryFaces& b = faces[f];
    for (int j = 0; j < ny; ++j) {
      for (int i = 0; i < nx; ++i) {
        double sum = 0.0;
        if (i == 0) sum += b.x_lo[j];
        if (i == nx - 1) sum += b.x_hi[j];
        if (j == 0) sum += b.y_lo[i];
        if (j == ny - 1) sum += b.y_hi[i];
        d[f * n + static_cast<std::size_t>(i) + static_cast<std::size_t>(nx) * j] = static_cast<T>(sum);
      }
    }
  }
  return d;
}

namespace {
/// Interpolation in one direction: fine cell i between coarse centres lo and hi.
void interpolation(const Axis& fine, const Axis& coarse, bool coarsen, int* lo, int* hi, double* w) {
  const int n = fine.cells(), nc = coarse.cells();
  for (int i = 0; i < n; ++i) {
    const int parent = coarsen ? i / 2 : i;
    const double x = fine.centre(i), xp = coarse.centre(parent);
    int a = parent, b = parent;
    if (x < xp && parent > 0) a = parent - 1;
    if (x > xp && parent + 1 < nc) b = parent + 1;
    lo[i] = a;
    hi[i] = b;
    w[i] = a == b ? 0.0 : (x - coarse.centre(a)) / (coarse.centre(b) - coarse.centre(a));
  }
}
}  // namespace

void transfer_values(const Axis& fine_x, const Axis& fine_y, const Axis& coarse_x, const Axis& coarse_y, bool coarsen_x,
                     bool coarsen_y, std::vector<int>& index, std::vector<double>& weight) {
  const int nx = fine_x.cells(), ny = fine_y.cells();
  index.assign(2 * static_cast<std::size_t>(nx) + 2 * static_cast<std::size_t>(ny), 0);
  weight.assign(static_cast<std::size_t>(nx) + static_cast<std::size_t>(ny), 0.0);
  interpolation(fine_x, coarse_x, coarsen_x, index.data(), index.data() + nx, weight.data());
  interpolation(fine_y, coarse_y, coarsen_y, index.data() + 2 * nx, index.data() + 2 * nx + ny, weight.data() + nx);
}

template <class T>
std::vector<HostLevel<T>> hierarchy(Axis x, Axis y, std::array<BoundaryFaces, 2> faces, std::array<double, 2> k) {
  std::vector<HostLevel<T>> levels;
  bool coarsen_x = false, coarsen_y = false;
  std::vector<int> index;  // from the previous level to the one built next
  std::vector<double> weight;
  while (true) {
    HostLevel<T> l;
    l.nx = x.cells();
    l.ny = y.cells();
    l.coarsen_x = coarsen_x;
    l.coarsen_y = coarsen_y;
    l.geometry = geometry_values<T>(x, y);
    l.dirichlet = dirichlet_values<T>(x, y, faces);
    l.transfer_index = std::move(index);
    l.transfer_weight.assign(weight.begin(), weight.end());
    levels.push_back(std::move(l));
    if (x.cells() <= kPlaneCoarsest && y.cells() <= kPlaneCoarsest) return levels;
    coarsen_x = x.cells() > kPlaneCoarsest;
    coarsen_y = y.cells() > kPlaneCoarsest;
    const Axis cx = coarsen_x ? coarsened(x) : x, cy = coarsen_y ? coarsened(y) : y;
    index.clear();
    weight.clear();
    transfer_values(x, y, cx, cy, coarsen_x, coarsen_y, index, weight);
    for (int f = 0; f < 2; ++f) faces[f] = coarsened(faces[f], x, y, cx, cy, coarsen_x, coarsen_y, k[f]);
    x = cx;
    y = cy;
  }
}

template <class T>
void check_blocks(const Executor& exec, const PlaneGrid& grid, View<const T> b00, View<const T> b01, View<const T> b10,
                  View<const T> b11, const std::string& where) {
  const std::size_t n = grid.num_cells();
  const View<const T> b[4] = {b00, b01, b10, b11};
  const char* names[4] = {"b00", "b01", "b10", "b11"};
  for (int m = 0; m < 4; ++m) detail::require_vector(exec, b[m], n, where, names[m]);
  long long bad = -1;
  if (detail::on_cpu(exec, where)) {
    bad = cpu::plane_first_bad_block(b00.data(), b01.data(), b10.data(), b11.data(), n);
  } else {
    VOLTAIC_ON_CUDA(
        bad = cuda::plane_first_bad_block(detail::as_cuda(exec), b00.data(), b01.data(), b10.data(), b11.data(), n));
  }
  if (bad < 0) return;
  const int m = static_cast<int>(static_cast<std::size_t>(bad) / n);
  const std::size_t c = static_cast<std::size_t>(bad) % n;
  throw InvalidArgument(names[m], where,
                        std::string("'") + names[m] + "' at cell (i, j) = (" + std::to_string(c % grid.nx()) + ", " +
                            std::to_string(c / grid.nx()) + ") [index " + std::to_string(c) + "] is " +
                            detail::show(detail::read_element(exec, b[m], c)) + "; every block value must be finite");
}

template <class T>
Level<T> level_of(const PlaneSystem<T>& s) {
  Level<T> l;
  l.nx = s.grid().nx();
  l.ny = s.grid().ny();
  l.k0 = static_cast<T>(s.k(0));
  l.k1 = static_cast<T>(s.k(1));
  l.geometry = s.geometry().data();
  l.dirichlet = s.dirichlet_diagonal(0).data();
  l.blocks = s.blocks().data();
  return l;
}

#define VOLTAIC_INSTANTIATE(T)                                                                                  \
  template std::vector<T> geometry_values<T>(const Axis&, const Axis&);                                         \
  template std::vector<T> dirichlet_values<T>(const Axis&, const Axis&, const std::array<BoundaryFaces, 2>&);   \
  template void check_blocks<T>(const Executor&, const PlaneGrid&, View<const T>, View<const T>, View<const T>, \
                                View<const T>, const std::string&);                                             \
  template Level<T> level_of<T>(const PlaneSystem<T>&);                                                         \
  template BoundaryFaces faces_of<T>(const PlaneSystem<T>&, int, const Axis&, const Axis&);                     \
  template std::vector<HostLevel<T>> hierarchy<T>(Axis, Axis, std::array<BoundaryFaces, 2>, std::array<double, 2>);
VOLTAIC_INSTANTIATE(float)
VOLTAIC_INSTANTIATE(double)
#undef VOLTAIC_INSTANTIATE

}  // namespace voltaic::plane
