// device_activity(): what the host asked of a device, counted. On the CPU
// nothing is; on a GPU each launch, graph launch and wait counts once, and
// CG's device-decided loop shows as fewer waits than iterations.
#include "voltaic/core/device_activity.hpp"

#include <gtest/gtest.h>

#include <utility>

#include "linalg/krylov_reference.hpp"
#include "voltaic/linalg/blas1.hpp"

using namespace voltaic;

namespace {

/// 1,000 ones and 1,000 twos on `exec`: x . (y + 3 x) = 5,000.
std::pair<Array<double>, Array<double>> ones_and_twos(const std::shared_ptr<const Executor>& exec) {
  return {Array<double>::from_host(exec, std::vector<double>(1000, 1.0)),
          Array<double>::from_host(exec, std::vector<double>(1000, 2.0))};
}

TEST(DeviceActivity, TheCpuCountsNothing) {
  const auto cpu = CpuExecutor::create();
  auto [x, y] = ones_and_twos(cpu);
  const DeviceActivity before = device_activity();
  axpy(*cpu, 3.0, x.const_view(), y.view());
  EXPECT_EQ(dot(*cpu, x.const_view(), y.const_view()), 5000.0);
  cpu->synchronize();
  const DeviceActivity d = device_activity() - before;
  EXPECT_EQ(d.kernel_launches, 0u);
  EXPECT_EQ(d.graph_launches, 0u);
  EXPECT_EQ(d.host_waits, 0u);
}

TEST(DeviceActivity, ALaunchAndAWaitCountOnceEach) {
  VOLTAIC_SKIP_WITHOUT_GPU();
  if (debug_sync()) GTEST_SKIP() << "debug_sync() waits after every launch";
  const auto gpu = test::cuda_executor();
  auto [x, y] = ones_and_twos(gpu);
  gpu->synchronize();
  DeviceActivity before = device_activity();
  axpy(*gpu, 3.0, x.const_view(), y.view());
  DeviceActivity d = device_activity() - before;
  EXPECT_EQ(d.kernel_launches, 1u);
  EXPECT_EQ(d.host_waits, 0u);
  before = device_activity();
  EXPECT_EQ(dot(*gpu, x.const_view(), y.const_view()), 5000.0);  // to the host: one wait
  d = device_activity() - before;
  EXPECT_GE(d.kernel_launches, 1u);
  EXPECT_EQ(d.host_waits, 1u);
}

TEST(DeviceActivity, CgDecidedOnTheDeviceWaitsLessThanOncePerIteration) {
  VOLTAIC_SKIP_WITHOUT_GPU();
  if (debug_sync()) GTEST_SKIP() << "debug_sync() waits after every launch";
  const auto gpu = test::cuda_executor();
  // Thick cells on a fine plane: the in-plane couplings, which the z-line
  // preconditioner drops, dominate, so CG takes many iterations (153).
  auto g = std::make_shared<Grid3D>(40, 30, 1e-5, 1e-5, std::vector<ZRegionSpec>{{"a", 12, 1.2e-3}});
  std::mt19937_64 rng(11);
  const auto k = test::random_vector<double>(g->num_cells(), rng, 0.1, 2.0);
  const auto d = test::random_vector<double>(g->num_cells(), rng, 1e8, 1e9);
  BoundaryConditions bc{};
  bc[int(Face::z_lo)] = BoundaryCondition::dirichlet(1.0);
  auto a = std::make_shared<StencilOperator<double>>(g, gpu, Array<double>::from_host(gpu, k).view(),
                                                     Array<double>::from_host(gpu, d).view(), bc);
  const Array<double> b = Array<double>::from_host(gpu, test::random_vector<double>(a->size(), rng));
  for (bool on : {false, true}) {
    SolverOptions o;
    o.relative_tolerance = 1e-12;
    o.device_loop = on;
    CgSolver<double> cg(a, std::make_shared<ZLinePreconditioner<double>>(*a), o);
    Array<double> x = Array<double>::from_host(gpu, std::vector<double>(a->size(), 0.0));
    const DeviceActivity before = device_activity();
    const SolveReport r = cg.solve(b.const_view(), x.view());
    const DeviceActivity used = device_activity() - before;
    ASSERT_GT(r.iterations, 10);  // a handful of waits a solve, whatever its length
    if (on) {
      EXPECT_GE(used.graph_launches, 1u);
      EXPECT_LT(used.host_waits, static_cast<std::uint64_t>(r.iterations)) << "device loop on";
    } else {
      EXPECT_EQ(used.graph_launches, 0u);
      EXPECT_GE(used.host_waits, static_cast<std::uint64_t>(r.iterations)) << "device loop off";
    }
  }
}

}  // namespace
