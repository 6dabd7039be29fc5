// ParticleDiffusion's CUDA kernels against the CPU backend, bit for bit: steps
// (per-particle and per-face D, with and without a source, on streams 0 and
// 1), surface concentrations by both methods and lithium amounts, on random
// data with particle counts that are not multiples of a warp or a block,
// outputs poisoned with NaN first.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "particle_test_support.hpp"

using namespace voltaic;

template <class T>
class ParticleCudaVsCpu : public ::testing::Test {
 protected:
  void SetUp() override {
    gpu_ = test::cuda_executor();
    if (!gpu_) GTEST_SKIP() << "no CUDA device visible: CUDA-versus-CPU test skipped";
    seed_ = test::fresh_seed();
    rng_.seed(seed_);
  }
  void expect_same(const Array<T>& c, const Array<T>& g, const std::string& what) const {
    gpu_->synchronize();  // work on stream 1 is not ordered before to_host's stream-0 copy
    const auto ch = c.to_host(), gh = g.to_host();
    ASSERT_EQ(ch.size(), gh.size());
    for (std::size_t i = 0; i < ch.size(); ++i) {
      ASSERT_TRUE(test::same_bits(ch[i], gh[i]))
          << what << " element " << i << ": cpu " << ch[i] << " cuda " << gh[i] << "; seed " << seed_;
    }
  }
  /// The same values on both executors.
  std::pair<Array<T>, Array<T>> twin(const std::vector<T>& v) const {
    return {Array<T>::from_host(cpu_, v), Array<T>::from_host(gpu_, v)};
  }
  Array<T> poisoned(std::size_t n) const {
    Array<T> a(gpu_, n);
    fill(*gpu_, a.view(), test::poison<T>());
    gpu_->synchronize();  // the fill runs on stream 0, the kernels under test may run on stream 1
    return a;
  }
  std::shared_ptr<const Executor> cpu_ = CpuExecutor::create();
  std::shared_ptr<const CudaExecutor> gpu_;
  std::uint64_t seed_ = 0;
  std::mt19937_64 rng_;
};
TYPED_TEST_SUITE(ParticleCudaVsCpu, test::Precisions);

TYPED_TEST(ParticleCudaVsCpu, StepsSurfacesAndLithiumMatchBitwise) {
  using T = TypeParam;
  for (const std::size_t count : {std::size_t(1), std::size_t(33), std::size_t(1007)}) {
    for (const int n : {10, 20}) {
      const std::string where = "P = " + std::to_string(count) + ", N_r = " + std::to_string(n);
      const auto radii = test::random_vector<T>(count, this->rng_, T(1e-6), T(1e-5));
      const auto [rc, rg] = this->twin(radii);
      ParticleDiffusion<T> pc(this->cpu_, n, rc.view()), pg(this->gpu_, n, rg.view());
      const std::size_t values = count * static_cast<std::size_t>(n);
      auto [cc, cg] = this->twin(test::random_vector<T>(values, this->rng_, T(0), T(30000)));
      const auto [dc, dg] = this->twin(test::random_vector<T>(count, this->rng_, T(1e-15), T(1e-13)));
      const auto [fc, fg] = this->twin(test::random_vector<T>(count * (n - 1), this->rng_, T(1e-15), T(1e-13)));
      const auto [sc, sg] = this->twin(test::random_vector<T>(values, this->rng_, T(-5), T(5)));
      for (int k = 0; k < 3; ++k) {
        const auto [nc, ng] = this->twin(test::random_vector<T>(count, this->rng_, T(-1e-4), T(1e-4)));
        const T dt = test::random_vector<T>(1, this->rng_, T(1), T(100))[0];
        pc.step(cc.view(), nc.view(), dc.view(), dt);
        pg.step(cg.view(), ng.view(), dg.view(), dt, 1);
        this->expect_same(cc, cg, where + " step " + std::to_string(k));
        pc.step(cc.view(), nc.view(), fc.view(), sc.view(), dt);
        pg.step(cg.view(), ng.view(), fg.view(), sg.view(), dt);
        this->expect_same(cc, cg, where + " per-face step with source " + std::to_string(k));
      }
      const auto [nc, ng] = this->twin(test::random_vector<T>(count, this->rng_, T(-1e-4), T(1e-4)));
      for (const auto method : {SurfaceMethod::flux_aware, SurfaceMethod::linear_extrapolation}) {
        Array<T> sc_out(this->cpu_, count);
        Array<T> sg_out = this->poisoned(count);
        pc.surface_concentration(method, cc.view(), nc.view(), dc.view(), sc_out.view());
        pg.surface_concentration(method, cg.view(), ng.view(), dg.view(), sg_out.view(), 1);
        this->expect_same(sc_out, sg_out, where + " surface " + std::to_string(static_cast<int>(method)));
      }
      Array<T> ac(this->cpu_, count);
      Array<T> ag = this->poisoned(count);
      pc.lithium(cc.view(), ac.view());
      pg.lithium(cg.view(), ag.view());
      this->expect_same(ac, ag, where + " lithium");
      const T tc = pc.total_lithium(cc.view()), tg = pg.total_lithium(cg.view());
      EXPECT_TRUE(test::same_bits(tc, tg))
          << where << " total lithium: cpu " << tc << " cuda " << tg << "; seed " << this->seed_;
    }
  }
}

// A bad value is found by the CUDA check kernel and named like on the CPU.
TYPED_TEST(ParticleCudaVsCpu, BadValuesAreNamedOnTheDevice) {
  using T = TypeParam;
  const std::size_t count = 1007;
  const int n = 10;
  const auto [rc, rg] = this->twin(std::vector<T>(count, T(5e-6)));
  ParticleDiffusion<T> pg(this->gpu_, n, rg.view());
  auto [cc, cg] = this->twin(std::vector<T>(count * n, T(1000)));
  std::vector<T> d(count, T(1e-14)), flux(count, T(0));
  d[517] = T(-1e-14);
  d[900] = T(0);
  const auto [dc, dg] = this->twin(d);
  const auto [nc, ng] = this->twin(flux);
  try {
    pg.step(cg.view(), ng.view(), dg.view(), T(1), 1);
    FAIL() << "a negative diffusivity was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("D[517] (particle 517)"), std::string::npos) << e.what();
  }
  this->expect_same(cc, cg, "c_s after a rejected step");
}
