// copy, axpy and dot: voltaic against the device copy bandwidth and, on a
// CUDA executor, against cudaMemcpy, cuBLAS and CUB, on the same random inputs.
#include "benchmarks.hpp"

#include <algorithm>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "copy_reference.hpp"
#include "cuda_baselines.hpp"
#include "determinism.hpp"
#include "solve_bench.hpp"
#include "spmv_bench.hpp"
#include "stencil_bench.hpp"
#include "step_bench.hpp"
#include "sweep_bench.hpp"
#include "vcycle_bench.hpp"
#include "voltaic/core/array.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/linalg/blas1.hpp"

namespace voltaic_bench {

namespace {

using ExecPtr = std::shared_ptr<const voltaic::Executor>;
using CudaPtr = std::shared_ptr<const voltaic::CudaExecutor>;

/// Uniform in [-1, 1), from a fixed seed, so every variant sees the same data.
template <class T>
std::vector<T> random_vector(std::size_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<T> dist(T(-1), T(1));
  std::vector<T> v(n);
  for (T& e : v) e = dist(rng);
  return v;
}

constexpr const char* kSkipped =
    "CUDA baselines (cudaMemcpy, cuBLAS, CUB) skipped: CPU backend; "
    "the copy bandwidth is voltaic::copy's own";

template <class T>
const char* blas_name(bool is_axpy) {
  if constexpr (std::is_same_v<T, double>) return is_axpy ? "cublasDaxpy" : "cublasDdot";
  return is_axpy ? "cublasSaxpy" : "cublasSdot";
}

template <class T>
void run_copy(BenchReport& r, const ExecPtr& exec, const CudaPtr& cuda, const voltaic::Array<T>& x,
              const TimingOptions& opt) {
  add_copy_reference(r, exec, x, opt, "reference+baseline");
  if (cuda) {  // on the CPU, voltaic::copy is the reference itself
    voltaic::Array<T> y(exec, x.size());
    auto t = time_repeats(exec, opt, [&] { voltaic::copy(*exec, x.const_view(), y.view()); });
    r.add("voltaic::copy", "voltaic", t, 2 * x.bytes());
  }
}

template <class T>
void run_axpy(BenchReport& r, const ExecPtr& exec, const CudaPtr& cuda, const voltaic::Array<T>& x,
              voltaic::Array<T>& y, const TimingOptions& opt) {
  const T alpha = T(0.5);
  const std::size_t bytes = 3 * x.bytes();
  const double flops = 2.0 * double(x.size());
  add_copy_reference(r, exec, x, opt, "reference");
  r.add("voltaic::axpy", "voltaic",
        time_repeats(exec, opt, [&] { voltaic::axpy(*exec, alpha, x.const_view(), y.view()); }), bytes, flops);
  if (cuda) {
#if VOLTAIC_BENCH_HAS_CUDA
    r.add(blas_name<T>(true), "baseline", time_cublas_axpy(cuda, alpha, x.data(), y.data(), x.size(), opt), bytes,
          flops);
#endif
  }
}

nlohmann::ordered_json compare(double value, double voltaic_value) {
  return {{"value_17g", format_17g(value)}, {"difference_from_voltaic", value - voltaic_value}};
}

template <class T>
void run_dot(BenchReport& r, const ExecPtr& exec, const CudaPtr& cuda, const voltaic::Array<T>& x,
             const voltaic::Array<T>& y, long double host_sum, const TimingOptions& opt) {
  const std::size_t bytes = 2 * x.bytes();
  const double flops = 2.0 * double(x.size());  // the model's multiply-add; Dot2 does about 10 per element
  add_copy_reference(r, exec, x, opt, "reference");
  voltaic::Array<T> result(exec, 1);
  r.add("voltaic::dot", "voltaic",
        time_repeats(exec, opt, [&] { voltaic::dot(*exec, x.const_view(), y.const_view(), result.view()); }), bytes,
        flops);
  const double voltaic_value = static_cast<double>(result.to_host()[0]);

  nlohmann::ordered_json values;
  values["voltaic_17g"] = format_17g(voltaic_value);
  if (cuda) {
#if VOLTAIC_BENCH_HAS_CUDA
    const DotBaseline blas = time_cublas_dot(cuda, x.data(), y.data(), x.size(), opt);
    r.add(blas_name<T>(false), "baseline", blas.timing, bytes, flops);
    const DotBaseline cub = time_cub_dot(cuda, x.data(), y.data(), x.size(), opt);
    r.add("cub::DeviceReduce::TransformReduce", "baseline", cub.timing, bytes, flops);
    values[blas_name<T>(false)] = compare(blas.value, voltaic_value);
    values["cub_transform_reduce"] = compare(cub.value, voltaic_value);
#endif
  }
  values["host_long_double_sum"] = compare(static_cast<double>(host_sum), voltaic_value);
  r.extra["dot_values"] = std::move(values);
  r.extra["determinism"] = check_dot_determinism(*exec, x.const_view(), y.const_view(), 10);
}

/// ratio_vs_best_baseline = fastest baseline's median / voltaic's median.
void add_ratio(BenchReport& r) {
  const Variant* mine = r.find_role("voltaic");
  const Variant* best = nullptr;
  for (const Variant& v : r.variants) {
    if (v.role.find("baseline") != std::string::npos && (!best || v.timing.median_s < best->timing.median_s)) {
      best = &v;
    }
  }
  if (mine && best && mine->timing.median_s > 0.0) {
    r.extra["best_baseline"] = best->name;
    r.extra["ratio_vs_best_baseline"] = best->timing.median_s / mine->timing.median_s;
  } else {
    r.extra["best_baseline"] = nullptr;
    r.extra["ratio_vs_best_baseline"] = nullptr;
  }
}

template <class T>
void run_typed(BenchReport& r, const BenchOptions& o, const ExecPtr& exec, const CudaPtr& cuda) {
  const TimingOptions opt{o.warmup, o.repeat};
  std::mt19937_64 rng(o.seed);
  long double host_sum = 0.0L;
  voltaic::Array<T> x, y;
  {  // the host copies go out of scope once uploaded; copy needs no y
    const std::vector<T> hx = random_vector<T>(o.size, rng);
    x = voltaic::Array<T>::from_host(exec, hx);
    if (o.benchmark != "copy") {
      const std::vector<T> hy = random_vector<T>(o.size, rng);
      if (o.benchmark == "dot") {
        for (std::size_t i = 0; i < o.size; ++i) host_sum += static_cast<long double>(hx[i]) * hy[i];
      }
      y = voltaic::Array<T>::from_host(exec, hy);
    }
  }
  if (o.benchmark == "copy") {
    run_copy(r, exec, cuda, x, opt);
  } else if (o.benchmark == "axpy") {
    run_axpy(r, exec, cuda, x, y, opt);
  } else {
    run_dot(r, exec, cuda, x, y, host_sum, opt);
  }
}

}  // namespace

BenchReport run_benchmark(const BenchOptions& o, const ExecPtr& exec) {
  const bool blas1 = o.benchmark == "copy" || o.benchmark == "axpy" || o.benchmark == "dot";
  if (!blas1 && o.benchmark != "stencil" && o.benchmark != "spmv" && o.benchmark != "solve" && o.benchmark != "step" &&
      o.benchmark != "vcycle" && o.benchmark != "sweep" && o.benchmark != "pack") {
    throw voltaic::InvalidArgument(
        "benchmark", "voltaic_bench::run_benchmark",
        "'" + o.benchmark + "' is not one of copy, axpy, dot, stencil, spmv, solve, vcycle, step, sweep, pack");
  }
  if (o.size < 1) {
    throw voltaic::InvalidArgument("size", "voltaic_bench::run_benchmark", "size must be at least 1");
  }
  const CudaPtr cuda = std::dynamic_pointer_cast<const voltaic::CudaExecutor>(exec);
  BenchReport r;
  r.benchmark = o.benchmark;
  r.backend = voltaic::to_string(exec->backend());
  r.device = cuda ? cuda->info().name : std::string("cpu");
  r.precision = o.precision;
  r.size = o.size;
  r.repeat = o.repeat;
  r.warmup = o.warmup;
  r.command_line = o.command_line;
  if (o.benchmark == "sweep") {  // many whole simulations: the baseline is PyBaMM's, run beside it
    run_sweep(r, o, exec);
    return r;
  }
  if (o.benchmark == "pack") {  // a whole pack: the baseline a smaller pack on the CPU
    run_pack(r, o.pack, exec);
    return r;
  }
  if (o.benchmark == "step") {  // a whole simulation: no copy reference, no baselines
    run_step(r, o, exec);
    return r;
  }
  if (!cuda) r.notes.push_back(kSkipped);

  if (o.benchmark == "stencil") {
    run_stencil(r, o, exec);
  } else if (o.benchmark == "spmv") {
    run_spmv(r, o, exec);
  } else if (o.benchmark == "solve") {
    run_solve(r, o, exec);
  } else if (o.benchmark == "vcycle") {
    run_vcycle(r, o, exec);
  } else if (o.precision == "double") {
    run_typed<double>(r, o, exec, cuda);
  } else if (o.precision == "float") {
    run_typed<float>(r, o, exec, cuda);
  } else {
    throw voltaic::InvalidArgument("precision", "voltaic_bench::run_benchmark",
                                   "'" + o.precision + "' is not one of double, float");
  }
  r.finish();
  add_ratio(r);
  return r;
}

}  // namespace voltaic_bench
