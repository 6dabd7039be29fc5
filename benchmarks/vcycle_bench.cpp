// vcycle: z = M^{-1} r, one V-cycle of PlaneMultigrid on an n x n plane of a
// 10 cm x 10 cm pouch (k 1490 and 887 S, a tab on 20 % of one edge of the
// negative foil, cell blocks g [[1, -1], [-1, 1]] with g random in
// [0.01, 0.1] S): the default (the coarse tail as one kernel, each V-cycle a
// CUDA graph) against a kernel per step, no graphs, and one smoothing sweep
// each way (fewer steps, a weaker cycle); and update(), which the step makes
// once per Newton iteration. The minimal-byte model is that of the
// PlaneMultigrid documentation, 53 values a cell; a V-cycle on a plane this
// small is bound by latency (some 75 dependent steps), not by bytes, so the
// copy reference is a floor only.
#include "vcycle_bench.hpp"

#include <random>
#include <string>
#include <vector>

#include "copy_reference.hpp"
#include "voltaic/core/array.hpp"
#include "voltaic/linalg/plane_multigrid.hpp"
#include "voltaic/linalg/plane_system.hpp"

namespace voltaic_bench {

namespace {

using ExecPtr = std::shared_ptr<const voltaic::Executor>;

template <class T>
voltaic::PlaneOperator<T> pouch_plane(int n, const ExecPtr& exec, std::mt19937_64& rng) {
  const double side = 0.1, h = side / n;
  const voltaic::PlaneGrid grid(n, n, h, h);
  std::vector<T> none(n, T(0)), tab(n, T(0));
  for (int i = 0; i < n; ++i) {
    const double a = std::max(0.15 * side, i * h), b = std::min(0.35 * side, (i + 1) * h);
    if (b > a) tab[i] = static_cast<T>(std::min(1.0, (b - a) / h));
  }
  const auto zero = voltaic::Array<T>::from_host(exec, none), top = voltaic::Array<T>::from_host(exec, tab);
  const voltaic::PlaneEdges<T> negative{zero.const_view(), zero.const_view(), zero.const_view(), top.const_view()};
  const voltaic::PlaneEdges<T> positive{zero.const_view(), zero.const_view(), zero.const_view(), zero.const_view()};
  std::uniform_real_distribution<double> u(0.01, 0.1);
  std::vector<T> g(static_cast<std::size_t>(n) * n), minus_g(g.size());
  for (std::size_t c = 0; c < g.size(); ++c) {
    g[c] = static_cast<T>(u(rng));
    minus_g[c] = -g[c];
  }
  const auto b_diag = voltaic::Array<T>::from_host(exec, g), b_off = voltaic::Array<T>::from_host(exec, minus_g);
  const voltaic::PlaneBlocks<T> blocks{b_diag.const_view(), b_off.const_view(), b_off.const_view(),
                                       b_diag.const_view()};
  return voltaic::PlaneOperator<T>(grid, exec, {1490.0, 887.0}, negative, positive, blocks);
}

template <class T>
void run_typed(BenchReport& r, const BenchOptions& o, const ExecPtr& exec) {
  std::mt19937_64 rng(o.seed);
  const voltaic::PlaneOperator<T> op = pouch_plane<T>(o.n, exec, rng);
  const std::size_t size = op.size();
  std::vector<T> host(size);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (T& v : host) v = static_cast<T>(u(rng));
  const auto rhs = voltaic::Array<T>::from_host(exec, host);
  voltaic::Array<T> z(exec, size);

  const TimingOptions opt{o.warmup, o.repeat};
  add_copy_reference(r, exec, rhs, opt);
  const std::size_t bytes = 53 * (size / 2) * sizeof(T);
  struct Way {
    const char* name;
    const char* role;
    bool fuse, graphs;
    int smoothing;
  };
  const Way ways[] = {
      {"PlaneMultigrid::apply (defaults: fused coarse tail, graphs, nu1 = nu2 = 2)", "voltaic", true, true, 2},
      {"a kernel per step, graphs", "baseline", false, true, 2},
      {"fused coarse tail, no graphs", "baseline", true, false, 2},
      {"nu1 = nu2 = 1 (fewer steps, a weaker cycle)", "variant", true, true, 1},
  };
  for (const Way& w : ways) {
    voltaic::PlaneMultigridOptions mo;
    mo.fuse_coarse_levels = w.fuse;
    mo.cuda_graphs = w.graphs;
    mo.pre_smoothing = mo.post_smoothing = w.smoothing;
    const voltaic::PlaneMultigrid<T> mg(op, mo);
    r.add(w.name, w.role, time_repeats(exec, opt, [&] { mg.apply(rhs.const_view(), z.view()); }), bytes);
  }
  voltaic::PlaneMultigrid<T> mg(op);
  r.add("PlaneMultigrid::update (blocks summed down the levels, inverted, the coarsest LU)", "update",
        time_repeats(exec, opt, [&] { mg.update(op); }), 0);
  r.extra["levels"] = mg.num_levels();
  r.extra["plane"] = {o.n, o.n};
  r.extra["bytes_per_cell_model"] = 53 * sizeof(T);
}

}  // namespace

void run_vcycle(BenchReport& r, const BenchOptions& o, const ExecPtr& exec) {
  r.size = static_cast<std::size_t>(o.n) * o.n;
  r.size_unit = "plane cells";
  if (o.precision == "double") {
    run_typed<double>(r, o, exec);
  } else {
    run_typed<float>(r, o, exec);
  }
}

}  // namespace voltaic_bench
