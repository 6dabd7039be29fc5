// spmv: y = A x with the n^3 cell stencil assembled as CSR and as ELL; voltaic's
// kernels against cuSPARSE CSR and sliced ELL (slice 32) on the same matrix.
// Each format's bytes: its index and value arrays once, x once, y once.
// Flops: 2 per stored non-zero.
#include "spmv_bench.hpp"

#include <algorithm>
#include <cmath>

#include "bench_problem.hpp"
#include "copy_reference.hpp"
#include "cusparse_baselines.hpp"
#include "voltaic/linalg/blas1.hpp"
#include "voltaic/linalg/csr_matrix.hpp"
#include "voltaic/linalg/ell_matrix.hpp"

namespace voltaic_bench {

namespace {

using ExecPtr = std::shared_ptr<const voltaic::Executor>;

/// max |a - b| / max |b|, on the host.
template <class T>
double relative_difference(const voltaic::Array<T>& a, const voltaic::Array<T>& b) {
  const auto ah = a.to_host(), bh = b.to_host();
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < ah.size(); ++i) {
    diff = std::max(diff, std::abs(double(ah[i]) - double(bh[i])));
    scale = std::max(scale, std::abs(double(bh[i])));
  }
  return scale > 0 ? diff / scale : diff;
}

template <class T>
void run_typed(BenchReport& r, const BenchOptions& o, const ExecPtr& exec) {
  const auto grid = cell_cube(o.n);
  std::mt19937_64 rng(o.seed);
  const voltaic::CsrMatrix<T> csr = voltaic::assemble_csr(cell_operator<T>(grid, exec, rng));
  const voltaic::EllMatrix<T> ell = voltaic::to_ell(csr);
  const std::size_t rows = csr.size(), nnz = csr.nnz();
  const auto x = voltaic::Array<T>::from_host(exec, uniform<T>(rows, rng, T(-1), T(1)));
  voltaic::Array<T> y(exec, rows), y_ref(exec, rows);
  const TimingOptions opt{o.warmup, o.repeat};
  const double flops = 2.0 * double(nnz);
  const std::size_t vectors = 2 * rows * sizeof(T);

  add_copy_reference(r, exec, x, opt);
  const auto cuda = std::dynamic_pointer_cast<const voltaic::CudaExecutor>(exec);
  r.add("voltaic CsrMatrix::apply", "voltaic", time_repeats(exec, opt, [&] { csr.apply(x.const_view(), y.view()); }),
        (rows + 1) * 4 + nnz * (4 + sizeof(T)) + vectors, flops);
  r.add("voltaic EllMatrix::apply", "voltaic", time_repeats(exec, opt, [&] { ell.apply(x.const_view(), y.view()); }),
        std::size_t(ell.width()) * rows * (4 + sizeof(T)) + vectors, flops);
  r.extra["rows"] = rows;
  r.extra["nnz"] = nnz;
  r.extra["ell_width"] = ell.width();
  if (cuda) {
#if VOLTAIC_BENCH_HAS_CUDA
    const SpmvBaseline c = time_cusparse_csr(cuda, rows, nnz, csr.row_ptr().data(), csr.col().data(),
                                             csr.values().data(), x.data(), y_ref.data(), opt);
    r.add("cuSPARSE CSR (SpMV default)", "baseline", c.timing, c.bytes, flops);
    csr.apply(x.const_view(), y.view());
    r.extra["csr_max_relative_difference_vs_cusparse"] = relative_difference(y, y_ref);
    const HostCsr<T> host{rows, csr.row_ptr().to_host(), csr.col().to_host(), csr.values().to_host()};
    const SpmvBaseline s = time_cusparse_sell(cuda, host, x.data(), y_ref.data(), opt);
    r.add("cuSPARSE sliced ELL (slice 32)", "baseline", s.timing, s.bytes, flops);
    r.extra["ell_max_relative_difference_vs_cusparse_sell"] = [&] {
      ell.apply(x.const_view(), y.view());
      return relative_difference(y, y_ref);
    }();
#endif
  }
  // Our best format against cuSPARSE's best format, by time.
  double ours = 0, theirs = 0;
  for (const Variant& v : r.variants) {
    const double t = v.timing.median_s;
    if (v.role == "voltaic") ours = ours == 0 ? t : std::min(ours, t);
    if (v.role == "baseline") theirs = theirs == 0 ? t : std::min(theirs, t);
  }
  if (ours > 0 && theirs > 0) r.extra["best_voltaic_speed_over_best_cusparse"] = theirs / ours;
}

}  // namespace

void run_spmv(BenchReport& r, const BenchOptions& o, const ExecPtr& exec) {
  r.size = static_cast<std::size_t>(o.n) * o.n * o.n;
  if (o.precision == "double") {
    run_typed<double>(r, o, exec);
  } else {
    run_typed<float>(r, o, exec);
  }
}

}  // namespace voltaic_bench
