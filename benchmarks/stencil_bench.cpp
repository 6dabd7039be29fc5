// stencil: y = A x with the 7-point StencilOperator on an n^3 grid of three
// z-regions, random coefficients. Minimal-byte model: read x, diag, tx, ty, tz
// and write y, 6 values per cell; 13 flops per cell (1 mul + 6 fma).
#include "stencil_bench.hpp"

#include <random>
#include <string>
#include <vector>

#include "bench_problem.hpp"
#include "copy_reference.hpp"
#include "voltaic/core/array.hpp"
#include "voltaic/linalg/blas1.hpp"
#include "voltaic/linalg/stencil_operator.hpp"

namespace voltaic_bench {

namespace {

using ExecPtr = std::shared_ptr<const voltaic::Executor>;

template <class T>
void run_typed(BenchReport& r, const BenchOptions& o, const ExecPtr& exec) {
  const auto grid = cell_cube(o.n);
  const std::size_t cells = grid->num_cells();
  std::mt19937_64 rng(o.seed);
  const auto op = cell_operator<T>(grid, exec, rng);
  const auto x = voltaic::Array<T>::from_host(exec, uniform<T>(cells, rng, T(-1), T(1)));
  voltaic::Array<T> y(exec, cells);

  const TimingOptions opt{o.warmup, o.repeat};
  add_copy_reference(r, exec, x, opt);
  const std::size_t bytes = 6 * cells * sizeof(T);
  const double flops = 13.0 * double(cells);
  r.add("StencilOperator::apply (the kernel it chose on this device)", "voltaic",
        time_repeats(exec, opt, [&] { op.apply(x.const_view(), y.view()); }), bytes, flops);
  r.add("StencilOperator::apply_untiled (plain)", "baseline",
        time_repeats(exec, opt, [&] { op.apply_untiled(x.const_view(), y.view()); }), bytes, flops);

  r.extra["grid"] = {o.n, o.n, o.n};
  const voltaic::StencilKernelChoice choice = voltaic::stencil_kernel_choice(exec->memory_space().device, sizeof(T));
  if (choice.measured) {  // CUDA, a grid of at least kStencilTuneCells cells
    r.extra["kernel_choice"] = {{"kernel", choice.kernel == voltaic::StencilKernel::tiled ? "tiled" : "plain"},
                                {"tiled_ms", 1e3 * choice.tiled_s},
                                {"plain_ms", 1e3 * choice.plain_s},
                                {"cells", choice.cells}};
  }
  r.extra["bytes_per_cell_model"] = 6 * sizeof(T);
  r.extra["flops_per_cell"] = 13;
  const Variant* tiled = r.find_role("voltaic");
  r.extra["tiled_GFLOPs"] = 13.0 * double(cells) / tiled->timing.median_s / 1e9;
}

}  // namespace

void run_stencil(BenchReport& r, const BenchOptions& o, const ExecPtr& exec) {
  r.size = static_cast<std::size_t>(o.n) * o.n * o.n;
  if (o.precision == "double") {
    run_typed<double>(r, o, exec);
  } else {
    run_typed<float>(r, o, exec);
  }
}

}  // namespace voltaic_bench
