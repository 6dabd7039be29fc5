// Front end of StencilOperator and TwoFieldStencilOperator: checks inputs
// once, builds the coefficients on the operator's executor, dispatches applies.
#include "voltaic/linalg/stencil_operator.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/backend_dispatch.hpp"
#include "stencil_kernels.hpp"
#include "voltaic/config.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/linalg/blas1.hpp"

namespace voltaic {

namespace {

template <class V>
void require(const Executor& exec, const V& v, std::size_t n, const char* where, const char* arg) {
  if (v.size() != n) {
    throw SizeMismatch(where, where,
                       std::string("'") + arg + "' has " + std::to_string(v.size()) + " elements, the grid " +
                           std::to_string(n) + " cells");
  }
  if (v.space() != exec.memory_space()) {
    throw ExecutorMismatch(where, where,
                           std::string("'") + arg + "' is in " + to_string(v.space()) + " memory, the operator in " +
                               to_string(exec.memory_space()));
  }
}

void check_boundary(const BoundaryConditions& bc) {
  for (int f = 0; f < 6; ++f) {
    const BoundaryCondition& b = bc[f];
    const std::string key = "boundary " + to_string(static_cast<Face>(f));
    std::ostringstream why;
    if (!std::isfinite(b.value)) {
      why << "value = " << b.value << " must be finite";
      throw InvalidArgument(key, "StencilOperator", why.str());
    }
    if (b.kind == BoundaryKind::robin && !(std::isfinite(b.coefficient) && b.coefficient >= 0.0)) {
      why << "Robin coefficient = " << b.coefficient << " must be finite and >= 0";
      throw InvalidArgument(key, "StencilOperator", why.str());
    }
  }
}

template <class T>
stencil::Layout<T> layout_of(const Grid3D& g, const Array<T>& dz, const BoundaryConditions& bc,
                             FaceMean mean = FaceMean::harmonic) {
  stencil::Layout<T> l{g.nx(),
                       g.ny(),
                       g.nz(),
                       static_cast<T>(g.dx()),
                       static_cast<T>(g.dy()),
                       dz.data(),
                       {},
                       mean == FaceMean::arithmetic};
  for (int f = 0; f < 6; ++f) {
    l.bc[f] = {static_cast<int>(bc[f].kind), static_cast<T>(bc[f].value), static_cast<T>(bc[f].coefficient)};
  }
  return l;
}

template <class T>
Array<T> layer_widths(const std::shared_ptr<const Executor>& exec, const Grid3D& g) {
  std::vector<T> dz(g.dz().begin(), g.dz().end());
  return Array<T>::from_host(exec, dz);
}

template <class To, class From>
Array<To> converted_array(const Array<From>& a) {
  Array<To> out(a.executor(), a.size());
  convert(*a.executor(), a.view(), out.view());
  return out;
}

}  // namespace

template <class T>
StencilOperator<T>::StencilOperator(std::shared_ptr<const Grid3D> grid, std::shared_ptr<const Executor> exec,
                                    View<const T> k, View<const T> d, const BoundaryConditions& bc, FaceMean mean)
    : exec_(std::move(exec)), bc_(bc), mean_(mean) {
  if (!grid || !exec_)
    throw InvalidArgument("StencilOperator", "StencilOperator", "grid and executor must not be null");
  check_boundary(bc_);
  const std::size_t n = grid->num_cells();
  coefficients_ = {grid, Array<T>(exec_, n), Array<T>(exec_, n), Array<T>(exec_, n), Array<T>(exec_, n)};
  boundary_rhs_ = Array<T>(exec_, n);
  dz_ = layer_widths<T>(exec_, *grid);
  update(k, d);
}

template <class T>
StencilOperator<T>::StencilOperator(std::shared_ptr<const Executor> exec, const BoundaryConditions& bc,
                                    StencilCoefficients<T> coefficients, Array<T> boundary_rhs, Array<T> dz)
    : exec_(std::move(exec)),
      bc_(bc),
      coefficients_(std::move(coefficients)),
      boundary_rhs_(std::move(boundary_rhs)),
      dz_(std::move(dz)) {}

template <class T>
void StencilOperator<T>::check_inputs(View<const T> k, View<const T> d, const char* where) const {
  const std::size_t n = size();
  require(*exec_, k, n, where, "k");
  require(*exec_, d, n, where, "d");
  long long bad = -1;
  if (detail::on_cpu(*exec_, "voltaic::StencilOperator")) {
    bad = cpu::first_invalid_cell(k.data(), d.data(), n);
  } else {
    VOLTAIC_ON_CUDA(bad = cuda::first_invalid_cell(detail::as_cuda(*exec_), k.data(), d.data(), n));
  }
  if (bad < 0) return;
  T kv{}, dv{};
  exec_->copy(&kv, MemorySpace::host(), k.data() + bad, k.space(), sizeof(T));
  exec_->copy(&dv, MemorySpace::host(), d.data() + bad, d.space(), sizeof(T));
  const Grid3D& g = grid();
  std::ostringstream why;
  why << "cell " << bad << " (i=" << bad % g.nx() << ", j=" << (bad / g.nx()) % g.ny()
      << ", k=" << bad / (static_cast<long long>(g.nx()) * g.ny()) << ") has k = " << kv << ", d = " << dv
      << "; k must be finite and >= 0, d finite";
  throw InvalidArgument("stencil coefficients", where, why.str());
}

template <class T>
void StencilOperator<T>::update(View<const T> k, View<const T> d) {
  check_inputs(k, d, "StencilOperator::update");
  const auto l = layout_of(grid(), dz_, bc_, mean_);
  stencil::Coefficients<T> out{coefficients_.diag.data(), coefficients_.tx.data(), coefficients_.ty.data(),
                               coefficients_.tz.data(), keep_faces_ ? faces_.data() : nullptr};
  faces_current_ = keep_faces_;
  faces_stamp_ = next_stamp();
  converted_stamp_ = 0;
  if (detail::on_cpu(*exec_, "voltaic::StencilOperator"))
    return cpu::stencil_coefficients(l, k.data(), d.data(), out, boundary_rhs_.data());
  VOLTAIC_ON_CUDA(
      cuda::stencil_coefficients(detail::as_cuda(*exec_), l, k.data(), d.data(), out, boundary_rhs_.data()));
}

template <class T>
void StencilOperator<T>::keep_face_sums() {
  if (keep_faces_) return;
  faces_ = Array<T>(exec_, size());
  keep_faces_ = true;
}

template <class T>
void StencilOperator<T>::update_diagonal(View<const T> d) {
  const char* where = "StencilOperator::update_diagonal";
  require(*exec_, d, size(), where, "d");
  if (!faces_current_)
    throw InvalidArgument(where, where,
                          "needs keep_face_sums() and then an update(): it keeps the faces' part of that "
                          "update's diagonal");
  if (size() == 0) return;
  const auto l = layout_of(grid(), dz_, bc_, mean_);
  if (detail::on_cpu(*exec_, "voltaic::StencilOperator"))
    return cpu::stencil_diagonal(l, faces_.data(), d.data(), coefficients_.diag.data());
  VOLTAIC_ON_CUDA(
      cuda::stencil_diagonal(detail::as_cuda(*exec_), l, faces_.data(), d.data(), coefficients_.diag.data()));
}

template <class T>
void StencilOperator<T>::check_vectors(View<const T> x, View<T> y, const char* where) const {
  require(*exec_, x, size(), where, "x");
  require(*exec_, y, size(), where, "y");
  if (x.data() == y.data() && size() > 0) {
    throw InvalidArgument(where, where, "x and y are the same array; the operator needs separate input and output");
  }
}

template <class T>
stencil::ApplyArgs<T> StencilOperator<T>::apply_args(View<const T> x, View<T> y, const T* coupling,
                                                     const T* other) const {
  return {coefficients_.diag.data(),
          coefficients_.tx.data(),
          coefficients_.ty.data(),
          coefficients_.tz.data(),
          x.data(),
          y.data(),
          coupling,
          other};
}

template <class T>
void StencilOperator<T>::run_apply(View<const T> x, View<T> y, const T* coupling, const T* other,
                                   [[maybe_unused]] bool tiled) const {
  const auto l = layout_of(grid(), dz_, bc_);
  const stencil::ApplyArgs<T> a = apply_args(x, y, coupling, other);
  if (size() == 0) return;
  if (detail::on_cpu(*exec_, "voltaic::StencilOperator")) return cpu::stencil_apply(l, a);
  VOLTAIC_ON_CUDA(tiled ? cuda::stencil_apply(detail::as_cuda(*exec_), l, a)
                        : cuda::stencil_apply_untiled(detail::as_cuda(*exec_), l, a));
}

namespace {

/// The choices made in this process, by (device, value bytes).
struct KernelChoices {
  std::mutex lock;
  std::map<std::pair<int, std::size_t>, StencilKernelChoice> by_device;
};

KernelChoices& kernel_choices() {
  static KernelChoices choices;
  return choices;
}

/// Seconds of the fastest of `reps` calls of `f`, the executor synchronised around each.
template <class F>
double best_of(const Executor& exec, int reps, F&& f) {
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < reps; ++i) {
    exec.synchronize();
    const auto start = std::chrono::steady_clock::now();
    f();
    exec.synchronize();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

}  // namespace

StencilKernelChoice stencil_kernel_choice(int ordinal, std::size_t value_bytes) {
  KernelChoices& c = kernel_choices();
  std::lock_guard<std::mutex> guard(c.lock);
  const auto it = c.by_device.find({ordinal, value_bytes});
  return it == c.by_device.end() ? StencilKernelChoice{} : it->second;
}

template <class T>
bool StencilOperator<T>::use_tiled(View<const T> x, View<T> y, const T* coupling, const T* other) const {
  if (exec_->backend() != Backend::cuda) return true;  // one loop on the CPU
  if (chosen_tiled_ >= 0) return chosen_tiled_ == 1;   // the device's choice, looked up once
  const int ordinal = exec_->memory_space().device;
  const StencilKernelChoice known = stencil_kernel_choice(ordinal, sizeof(T));
  if (known.measured) chosen_tiled_ = known.kernel == StencilKernel::tiled ? 1 : 0;
  if (known.measured || size() < kStencilTuneCells) return known.kernel == StencilKernel::tiled;
  // Both kernels give the same bits (tests/linalg/stencil_cuda_vs_cpu_test.cpp),
  // so the choice changes the time only. The applies write y = A x each time.
  StencilKernelChoice m;
  m.measured = true;
  m.cells = size();
  for (int round = 0; round < 2; ++round) {  // alternating, so that a clock ramp favours neither
    const double t = best_of(*exec_, 3, [&] { run_apply(x, y, coupling, other, true); });
    const double p = best_of(*exec_, 3, [&] { run_apply(x, y, coupling, other, false); });
    m.tiled_s = round == 0 ? t : std::min(m.tiled_s, t);
    m.plain_s = round == 0 ? p : std::min(m.plain_s, p);
  }
  m.kernel = m.plain_s < m.tiled_s ? StencilKernel::plain : StencilKernel::tiled;
  KernelChoices& c = kernel_choices();
  std::lock_guard<std::mutex> guard(c.lock);
  const bool tiled =
      c.by_device.emplace(std::make_pair(ordinal, sizeof(T)), m).first->second.kernel == StencilKernel::tiled;
  chosen_tiled_ = tiled ? 1 : 0;
  return tiled;
}

template <class T>
void StencilOperator<T>::apply(View<const T> x, View<T> y) const {
  check_vectors(x, y, "StencilOperator::apply");
  if (decomposition_) return apply_block(x, y, nullptr, nullptr);
  run_apply(x, y, nullptr, nullptr, use_tiled(x, y, nullptr, nullptr));
}

template <class T>
void StencilOperator<T>::decompose(std::shared_ptr<const PlaneDecomposition> decomposition) {
  if (decomposition && (decomposition->ghosted_nx() != grid().nx() || decomposition->ghosted_ny() != grid().ny()))
    throw SizeMismatch("decomposition", "StencilOperator::decompose",
                       "its ghosted block has " + std::to_string(decomposition->ghosted_nx()) + " x " +
                           std::to_string(decomposition->ghosted_ny()) + " columns; the grid has " +
                           std::to_string(grid().nx()) + " x " + std::to_string(grid().ny()));
  decomposition_ = std::move(decomposition);
}

template <class T>
const VectorSpace<T>& StencilOperator<T>::space() const {
  return decomposition_ ? decomposition_->space<T>(grid().nz()) : VectorSpace<T>::local();
}

template <class T>
void StencilOperator<T>::apply_block(View<const T> x, View<T> y, const T* coupling, const T* other) const {
  const PlaneDecomposition& d = *decomposition_;
  const int layers = grid().nz();
  d.begin(x.data(), layers);
  run_apply(x, y, coupling, other, false);  // the rows beside the ghosts read stale ghosts: redone below
  d.end(const_cast<T*>(x.data()), layers);  // ghosts are scratch (see decompose())
  run_apply_frame(x, y, coupling, other, d.frame());
  d.set_ghosts(y.data(), layers, T(0));
}

template <class T>
void StencilOperator<T>::apply_untiled(View<const T> x, View<T> y) const {
  check_vectors(x, y, "StencilOperator::apply_untiled");
  run_apply(x, y, nullptr, nullptr, false);
}

template <class T>
void StencilOperator<T>::apply_frame(View<const T> x, View<T> y, stencil::ColumnFrame frame) const {
  check_vectors(x, y, "StencilOperator::apply_frame");
  run_apply_frame(x, y, nullptr, nullptr, frame);
}

template <class T>
void StencilOperator<T>::apply_coupled_frame(View<const T> x, View<const T> coupling, View<const T> other, View<T> y,
                                             stencil::ColumnFrame frame) const {
  check_vectors(x, y, "StencilOperator::apply_coupled_frame");
  require(*exec_, coupling, size(), "StencilOperator::apply_coupled_frame", "coupling");
  require(*exec_, other, size(), "StencilOperator::apply_coupled_frame", "other");
  run_apply_frame(x, y, coupling.data(), other.data(), frame);
}

template <class T>
void StencilOperator<T>::run_apply_frame(View<const T> x, View<T> y, const T* coupling, const T* other,
                                         stencil::ColumnFrame frame) const {
  const Grid3D& g = grid();
  frame = frame.clamped(g.nx(), g.ny());
  if (frame.columns(g.nx(), g.ny()) == 0) return;
  const auto l = layout_of(g, dz_, bc_);
  const stencil::ApplyArgs<T> a = apply_args(x, y, coupling, other);
  if (detail::on_cpu(*exec_, "voltaic::StencilOperator")) return cpu::stencil_apply_frame(l, a, frame);
  VOLTAIC_ON_CUDA(cuda::stencil_apply_frame(detail::as_cuda(*exec_), l, a, frame));
}

template <class T>
void StencilOperator<T>::apply_coupled(View<const T> x, View<const T> coupling, View<const T> other, View<T> y) const {
  check_vectors(x, y, "StencilOperator::apply_coupled");
  require(*exec_, coupling, size(), "StencilOperator::apply_coupled", "coupling");
  require(*exec_, other, size(), "StencilOperator::apply_coupled", "other");
  if (decomposition_) return apply_block(x, y, coupling.data(), other.data());
  run_apply(x, y, coupling.data(), other.data(), use_tiled(x, y, coupling.data(), other.data()));
}

template <class T>
void StencilOperator<T>::add_boundary_terms(View<T> b) const {
  require(*exec_, b, size(), "StencilOperator::add_boundary_terms", "b");
  axpy(*exec_, T(1), boundary_rhs_.view(), b);
}

template <class T>
template <class U>
StencilOperator<U> StencilOperator<T>::converted() const {
  StencilCoefficients<U> c{coefficients_.grid, converted_array<U>(coefficients_.diag),
                           converted_array<U>(coefficients_.tx), converted_array<U>(coefficients_.ty),
                           converted_array<U>(coefficients_.tz)};
  StencilOperator<U> out(exec_, bc_, std::move(c), converted_array<U>(boundary_rhs_), converted_array<U>(dz_));
  out.mean_ = mean_;
  out.decomposition_ = decomposition_;
  out.converted_stamp_ = faces_stamp_;
  return out;
}

template <class T>
template <class U>
void StencilOperator<T>::assign_converted(const StencilOperator<U>& other) {
  if (other.size() != size() || other.grid().nz() != grid().nz())
    throw SizeMismatch("StencilOperator", "StencilOperator::assign_converted", "the operators' grids differ");
  const StencilCoefficients<U>& c = other.coefficients();
  convert(*exec_, c.diag.view(), coefficients_.diag.view());
  faces_current_ = false;  // not converted: a converted operator is never updated by diagonal alone
  if (converted_stamp_ == other.faces_stamp_) return;  // only other's diagonal moved since
  convert(*exec_, c.tx.view(), coefficients_.tx.view());
  convert(*exec_, c.ty.view(), coefficients_.ty.view());
  convert(*exec_, c.tz.view(), coefficients_.tz.view());
  convert(*exec_, other.boundary_rhs_.view(), boundary_rhs_.view());
  converted_stamp_ = other.faces_stamp_;
}

template <class T>
std::uint64_t StencilOperator<T>::next_stamp() {
  static std::atomic<std::uint64_t> last{0};
  return ++last;
}

template <class T>
TwoFieldStencilOperator<T>::TwoFieldStencilOperator(StencilOperator<T> field0, StencilOperator<T> field1,
                                                    View<const T> c01, View<const T> c10)
    : field0_(std::move(field0)), field1_(std::move(field1)) {
  const Grid3D &g0 = field0_.grid(), &g1 = field1_.grid();
  if (g0.nx() != g1.nx() || g0.ny() != g1.ny() || g0.nz() != g1.nz()) {
    throw SizeMismatch("TwoFieldStencilOperator", "TwoFieldStencilOperator", "the two fields' grids differ");
  }
  if (field0_.executor()->memory_space() != field1_.executor()->memory_space()) {
    throw ExecutorMismatch("TwoFieldStencilOperator", "TwoFieldStencilOperator",
                           "the two fields live on different executors");
  }
  const auto& exec = field0_.executor();
  require(*exec, c01, field0_.size(), "TwoFieldStencilOperator", "c01");
  require(*exec, c10, field0_.size(), "TwoFieldStencilOperator", "c10");
  c01_ = Array<T>(exec, c01.size());
  c10_ = Array<T>(exec, c10.size());
  copy(*exec, c01, c01_.view());
  copy(*exec, c10, c10_.view());
}

template <class T>
void TwoFieldStencilOperator<T>::apply(View<const T> x, View<T> y) const {
  const std::size_t n = field0_.size();
  require(*executor(), x, 2 * n, "TwoFieldStencilOperator::apply", "x");
  require(*executor(), y, 2 * n, "TwoFieldStencilOperator::apply", "y");
  field0_.apply_coupled(x.subview(0, n), c01_.view(), x.subview(n, n), y.subview(0, n));
  field1_.apply_coupled(x.subview(n, n), c10_.view(), x.subview(0, n), y.subview(n, n));
}

template <class T>
const VectorSpace<T>& TwoFieldStencilOperator<T>::space() const {
  const auto& d = field0_.decomposition();
  // The two fields one after the other are one ghosted field of 2 nz layers.
  return d ? d->template space<T>(2 * field0_.grid().nz()) : VectorSpace<T>::local();
}

template <class T>
void TwoFieldStencilOperator<T>::decompose(const std::shared_ptr<const PlaneDecomposition>& decomposition) {
  field0_.decompose(decomposition);
  field1_.decompose(decomposition);
}

template <class T>
template <class U>
TwoFieldStencilOperator<U> TwoFieldStencilOperator<T>::converted() const {
  const Array<U> c01 = converted_array<U>(c01_), c10 = converted_array<U>(c10_);
  return TwoFieldStencilOperator<U>(field0_.template converted<U>(), field1_.template converted<U>(), c01.view(),
                                    c10.view());
}

template <class T>
void TwoFieldStencilOperator<T>::update(View<const T> k0, View<const T> d0, View<const T> k1, View<const T> d1,
                                        View<const T> c01, View<const T> c10) {
  const auto& exec = *executor();
  require(exec, c01, field0_.size(), "TwoFieldStencilOperator::update", "c01");
  require(exec, c10, field0_.size(), "TwoFieldStencilOperator::update", "c10");
  field0_.update(k0, d0);
  field1_.update(k1, d1);
  copy(exec, c01, c01_.view());
  copy(exec, c10, c10_.view());
}

template <class T>
void TwoFieldStencilOperator<T>::keep_face_sums() {
  field0_.keep_face_sums();
  field1_.keep_face_sums();
}

template <class T>
void TwoFieldStencilOperator<T>::update_diagonals(View<const T> d0, View<const T> d1, View<const T> c01,
                                                  View<const T> c10) {
  const auto& exec = *executor();
  require(exec, c01, field0_.size(), "TwoFieldStencilOperator::update_diagonals", "c01");
  require(exec, c10, field0_.size(), "TwoFieldStencilOperator::update_diagonals", "c10");
  field0_.update_diagonal(d0);
  field1_.update_diagonal(d1);
  copy(exec, c01, c01_.view());
  copy(exec, c10, c10_.view());
}

template <class T>
template <class U>
void TwoFieldStencilOperator<T>::assign_converted(const TwoFieldStencilOperator<U>& other) {
  field0_.assign_converted(other.field0_);
  field1_.assign_converted(other.field1_);
  convert(*executor(), other.c01_.view(), c01_.view());
  convert(*executor(), other.c10_.view(), c10_.view());
}

template class StencilOperator<float>;
template class StencilOperator<double>;
template StencilOperator<float> StencilOperator<double>::converted<float>() const;
template StencilOperator<double> StencilOperator<float>::converted<double>() const;
template class TwoFieldStencilOperator<float>;
template class TwoFieldStencilOperator<double>;
template TwoFieldStencilOperator<float> TwoFieldStencilOperator<double>::converted<float>() const;
template TwoFieldStencilOperator<double> TwoFieldStencilOperator<float>::converted<double>() const;
template void StencilOperator<float>::assign_converted(const StencilOperator<double>&);
template void TwoFieldStencilOperator<float>::assign_converted(const TwoFieldStencilOperator<double>&);

}  // namespace voltaic
