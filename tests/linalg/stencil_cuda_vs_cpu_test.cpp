// StencilOperator's CUDA kernels (coefficients, the diagonal-only update, tiled
// and plain apply, the two-field coupled apply, the frame apply) against the CPU backend, bit for bit, on random
// odd-sized grids with NaN-poisoned outputs.
#include <gtest/gtest.h>

#include "test_support.hpp"
#include "voltaic/linalg/stencil_operator.hpp"

using namespace voltaic;

template <class T>
class StencilCudaVsCpu : public ::testing::Test {
 protected:
  void SetUp() override {
    gpu_ = test::cuda_executor();
    if (!gpu_) GTEST_SKIP() << "no CUDA device visible: CUDA-versus-CPU test skipped";
    seed_ = test::fresh_seed();
    rng_.seed(seed_);
  }
  static std::vector<std::shared_ptr<const Grid3D>> grids() {
    return {std::make_shared<Grid3D>(37, 19, 1e-3, 2e-3,
                                     std::vector<ZRegionSpec>{{"a", 5, 5e-5}, {"b", 3, 1e-5}, {"c", 6, 7e-5}}),
            std::make_shared<Grid3D>(1, 1, 1.0, 1.0, std::vector<ZRegionSpec>{{"a", 31, 1e-4}}),
            std::make_shared<Grid3D>(65, 9, 1e-3, 1e-3, std::vector<ZRegionSpec>{{"a", 2, 1e-5}, {"b", 3, 1e-5}}),
            std::make_shared<Grid3D>(33, 40, 5e-4, 5e-4, std::vector<ZRegionSpec>{{"a", 45, 1e-4}})};
  }
  BoundaryConditions random_bc() {
    BoundaryConditions bc{};
    std::uniform_int_distribution<int> kind(0, 2);
    for (auto& b : bc) {
      const int kd = kind(rng_);
      b = kd == 0   ? BoundaryCondition::dirichlet(1.5)
          : kd == 1 ? BoundaryCondition::neumann(-0.7)
                    : BoundaryCondition::robin(25.0, 300.0);
    }
    return bc;
  }
  /// The same operator on both executors; k in [0, 2] with some exact zeros.
  std::pair<StencilOperator<T>, StencilOperator<T>> twin(const std::shared_ptr<const Grid3D>& g,
                                                         const BoundaryConditions& bc) {
    auto k = test::random_vector<T>(g->num_cells(), rng_, T(0), T(2));
    for (std::size_t c = 0; c < k.size(); c += 7) k[c] = T(0);
    const auto d = test::random_vector<T>(g->num_cells(), rng_, T(0), T(1e3));
    const auto kc = Array<T>::from_host(cpu_, k), dc = Array<T>::from_host(cpu_, d);
    const auto kg = Array<T>::from_host(gpu_, k), dg = Array<T>::from_host(gpu_, d);
    return {StencilOperator<T>(g, cpu_, kc.view(), dc.view(), bc),
            StencilOperator<T>(g, gpu_, kg.view(), dg.view(), bc)};
  }
  void expect_same(const Array<T>& c, const Array<T>& g, const std::string& what) {
    const auto ch = c.to_host(), gh = g.to_host();
    ASSERT_EQ(ch.size(), gh.size());
    for (std::size_t i = 0; i < ch.size(); ++i) {
      ASSERT_TRUE(test::same_bits(ch[i], gh[i]))
          << what << " element " << i << ": cpu " << ch[i] << " cuda " << gh[i] << "; seed " << seed_;
    }
  }
  std::shared_ptr<const Executor> cpu_ = CpuExecutor::create();
  std::shared_ptr<const CudaExecutor> gpu_;
  std::uint64_t seed_ = 0;
  std::mt19937_64 rng_;
};
TYPED_TEST_SUITE(StencilCudaVsCpu, test::Precisions);

TYPED_TEST(StencilCudaVsCpu, CoefficientsAndAppliesMatchBitwise) {
  using T = TypeParam;
  for (const auto& g : this->grids()) {
    const std::string where =
        "grid " + std::to_string(g->nx()) + "x" + std::to_string(g->ny()) + "x" + std::to_string(g->nz());
    const auto bc = this->random_bc();
    auto [oc, og] = this->twin(g, bc);
    this->expect_same(oc.coefficients().diag, og.coefficients().diag, where + " diag");
    this->expect_same(oc.coefficients().tx, og.coefficients().tx, where + " tx");
    this->expect_same(oc.coefficients().ty, og.coefficients().ty, where + " ty");
    this->expect_same(oc.coefficients().tz, og.coefficients().tz, where + " tz");

    const std::size_t n = g->num_cells();
    const auto xv = test::random_vector<T>(n, this->rng_);
    const auto xc = Array<T>::from_host(this->cpu_, xv), xg = Array<T>::from_host(this->gpu_, xv);
    Array<T> yc(this->cpu_, n), tiled(this->gpu_, n), plain(this->gpu_, n);
    fill(*this->gpu_, tiled.view(), test::poison<T>());
    fill(*this->gpu_, plain.view(), test::poison<T>());
    oc.apply(xc.view(), yc.view());
    og.apply(xg.view(), tiled.view());
    og.apply_untiled(xg.view(), plain.view());
    this->expect_same(yc, tiled, where + " tiled apply");
    this->expect_same(yc, plain, where + " untiled apply");
    const stencil::ColumnFrame frame{2, 1, 0, 3};
    Array<T> frame_c(this->cpu_, n), frame_g(this->gpu_, n);
    fill(*this->cpu_, frame_c.view(), test::poison<T>());
    fill(*this->gpu_, frame_g.view(), test::poison<T>());
    oc.apply_frame(xc.view(), frame_c.view(), frame);
    og.apply_frame(xg.view(), frame_g.view(), frame);
    this->expect_same(frame_c, frame_g, where + " frame apply");

    Array<T> bc_c(this->cpu_, n), bc_g(this->gpu_, n);
    fill(*this->cpu_, bc_c.view(), T(0));
    fill(*this->gpu_, bc_g.view(), T(0));
    oc.add_boundary_terms(bc_c.view());
    og.add_boundary_terms(bc_g.view());
    this->expect_same(bc_c, bc_g, where + " boundary terms");
  }
}

TYPED_TEST(StencilCudaVsCpu, TwoFieldApplyMatchesBitwise) {
  using T = TypeParam;
  const auto g = this->grids()[0];
  const std::size_t n = g->num_cells();
  const auto bc = this->random_bc();
  auto [f0c, f0g] = this->twin(g, bc);
  auto [f1c, f1g] = this->twin(g, bc);
  const auto c01 = test::random_vector<T>(n, this->rng_), c10 = test::random_vector<T>(n, this->rng_);
  const auto a01c = Array<T>::from_host(this->cpu_, c01), a10c = Array<T>::from_host(this->cpu_, c10);
  const auto a01g = Array<T>::from_host(this->gpu_, c01), a10g = Array<T>::from_host(this->gpu_, c10);
  TwoFieldStencilOperator<T> oc(std::move(f0c), std::move(f1c), a01c.view(), a10c.view());
  TwoFieldStencilOperator<T> og(std::move(f0g), std::move(f1g), a01g.view(), a10g.view());
  const auto xv = test::random_vector<T>(2 * n, this->rng_);
  const auto xc = Array<T>::from_host(this->cpu_, xv), xg = Array<T>::from_host(this->gpu_, xv);
  Array<T> yc(this->cpu_, 2 * n), yg(this->gpu_, 2 * n);
  fill(*this->gpu_, yg.view(), test::poison<T>());
  oc.apply(xc.view(), yc.view());
  og.apply(xg.view(), yg.view());
  this->expect_same(yc, yg, "two-field apply");
  // Field 0's coupled rows of a frame (the decomposition's ghost-side rows).
  const stencil::ColumnFrame frame{1, 2, 2, 0};
  Array<T> fc(this->cpu_, n), fg(this->gpu_, n);
  fill(*this->cpu_, fc.view(), test::poison<T>());
  fill(*this->gpu_, fg.view(), test::poison<T>());
  oc.field(0).apply_coupled_frame(xc.view().subview(0, n), a01c.view(), xc.view().subview(n, n), fc.view(), frame);
  og.field(0).apply_coupled_frame(xg.view().subview(0, n), a01g.view(), xg.view().subview(n, n), fg.view(), frame);
  this->expect_same(fc, fg, "coupled frame apply");
}

// A diagonal-only update (a Newton Jacobian's) on every grid: the CUDA kernel
// gives the CPU's bits, which are the full update's (stencil_test.cpp).
TYPED_TEST(StencilCudaVsCpu, DiagonalUpdateMatchesBitwise) {
  using T = TypeParam;
  for (const auto& g : this->grids()) {
    const std::string where =
        "grid " + std::to_string(g->nx()) + "x" + std::to_string(g->ny()) + "x" + std::to_string(g->nz());
    auto [oc, og] = this->twin(g, this->random_bc());
    const std::size_t n = g->num_cells();
    const auto k = test::random_vector<T>(n, this->rng_, T(0), T(2));
    const auto d0 = test::random_vector<T>(n, this->rng_, T(0), T(1e3));
    const auto d = test::random_vector<T>(n, this->rng_, T(-50), T(1e3));
    const auto kc = Array<T>::from_host(this->cpu_, k), kg = Array<T>::from_host(this->gpu_, k);
    const auto d0c = Array<T>::from_host(this->cpu_, d0), d0g = Array<T>::from_host(this->gpu_, d0);
    const auto dc = Array<T>::from_host(this->cpu_, d), dg = Array<T>::from_host(this->gpu_, d);
    oc.keep_face_sums();
    og.keep_face_sums();
    oc.update(kc.view(), d0c.view());
    og.update(kg.view(), d0g.view());
    oc.update_diagonal(dc.view());
    og.update_diagonal(dg.view());
    this->expect_same(oc.coefficients().diag, og.coefficients().diag, where + " diagonal update");
  }
}

TYPED_TEST(StencilCudaVsCpu, ConvertedOperatorsMatch) {
  using T = TypeParam;
  using U = std::conditional_t<std::is_same_v<T, double>, float, double>;
  const auto g = this->grids()[2];
  auto [oc, og] = this->twin(g, this->random_bc());
  const StencilOperator<U> uc = oc.template converted<U>(), ug = og.template converted<U>();
  const auto xv = test::random_vector<U>(g->num_cells(), this->rng_);
  const auto xc = Array<U>::from_host(this->cpu_, xv), xg = Array<U>::from_host(this->gpu_, xv);
  Array<U> yc(this->cpu_, xv.size()), yg(this->gpu_, xv.size());
  uc.apply(xc.view(), yc.view());
  ug.apply(xg.view(), yg.view());
  const auto ch = yc.to_host(), gh = yg.to_host();
  for (std::size_t i = 0; i < ch.size(); ++i)
    ASSERT_TRUE(test::same_bits(ch[i], gh[i])) << i << "; seed " << this->seed_;
}

// The first apply of a large grid times both kernels and keeps the faster
// for the device; what it gives is the CPU's result bit for bit either way.
TYPED_TEST(StencilCudaVsCpu, TheKernelChosenOnALargeGridGivesTheSameBits) {
  using T = TypeParam;
  const auto g =
      std::make_shared<Grid3D>(128, 130, 1e-3, 1e-3, std::vector<ZRegionSpec>{{"a", 60, 1e-5}, {"b", 70, 2e-5}});
  ASSERT_GE(g->num_cells(), kStencilTuneCells);
  auto [oc, og] = this->twin(g, this->random_bc());
  const std::size_t n = g->num_cells();
  const auto xv = test::random_vector<T>(n, this->rng_);
  const auto xc = Array<T>::from_host(this->cpu_, xv), xg = Array<T>::from_host(this->gpu_, xv);
  Array<T> yc(this->cpu_, n), yg(this->gpu_, n);
  fill(*this->gpu_, yg.view(), test::poison<T>());
  oc.apply(xc.view(), yc.view());
  og.apply(xg.view(), yg.view());
  const StencilKernelChoice choice = stencil_kernel_choice(this->gpu_->info().ordinal, sizeof(T));
  EXPECT_TRUE(choice.measured);
  EXPECT_GT(choice.tiled_s, 0.0);
  EXPECT_GT(choice.plain_s, 0.0);
  EXPECT_EQ(choice.kernel, choice.plain_s < choice.tiled_s ? StencilKernel::plain : StencilKernel::tiled);
  this->expect_same(yc, yg, "chosen kernel's apply");
  fill(*this->gpu_, yg.view(), test::poison<T>());
  og.apply(xg.view(), yg.view());  // after the choice
  this->expect_same(yc, yg, "apply after the choice");
}
