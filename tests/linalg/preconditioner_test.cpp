// Preconditioners on every executor, in float and double: Jacobi by hand,
// z-line and block z-line against a direct solve of their matrices, the FP32
// copies, and bad input named down to the cell.
#include <gtest/gtest.h>

#include "krylov_reference.hpp"

using namespace voltaic;
using test::ExecutorTest;

template <class C>
class PreconditionerTest : public ExecutorTest<C> {
 protected:
  using T = typename C::value_type;
  void SetUp() override {
    ExecutorTest<C>::SetUp();
    seed_ = test::fresh_seed();
    rng_.seed(seed_);
  }
  std::shared_ptr<const Grid3D> grid_ = std::make_shared<Grid3D>(
      5, 3, 1e-3, 2e-3,
      std::vector<ZRegionSpec>{{"negative", 4, 40e-6}, {"separator", 2, 10e-6}, {"positive", 5, 50e-6}});
  /// A random operator: k in [0.5, 2], d in [1e3, 1e4] (so diag > 0), Dirichlet below, Robin above.
  StencilOperator<T> make_op(std::vector<T> d = {}) {
    const std::size_t n = grid_->num_cells();
    const auto k = test::random_vector<T>(n, rng_, T(0.5), T(2));
    if (d.empty()) d = test::random_vector<T>(n, rng_, T(1e3), T(1e4));
    BoundaryConditions bc{};
    bc[int(Face::z_lo)] = BoundaryCondition::dirichlet(0.0);
    bc[int(Face::z_hi)] = BoundaryCondition::robin(10.0, 0.0);
    return StencilOperator<T>(grid_, this->exec_, this->make(k).view(), this->make(d).view(), bc);
  }
  /// z = M^{-1} r for random r, on the host.
  std::vector<T> apply(const Preconditioner<T>& m, const std::vector<T>& r) {
    const Array<T> ra = this->make(r);
    Array<T> za = this->make(std::vector<T>(r.size(), test::poison<T>()));
    m.apply(ra.view(), za.view());
    return za.to_host();
  }
  /// || M^{-1} r - reference || / || reference ||, reference by sparse LU of M.
  double error_against(const test::SparseMatrix& m, const std::vector<T>& r, const std::vector<T>& z) {
    const test::Vector ref = test::direct_solve(m, test::to_eigen(r));
    return (test::to_eigen(z) - ref).norm() / ref.norm();
  }
  static double tolerance() { return 200 * test::eps<T>(); }
  std::uint64_t seed_ = 0;
  std::mt19937_64 rng_;
};
TYPED_TEST_SUITE(PreconditionerTest, test::AllCases);

TYPED_TEST(PreconditionerTest, IdentityCopiesAndJacobiDividesByTheDiagonal) {
  using T = typename TestFixture::T;
  const std::vector<T> r = {1, -2, 3, 0.25};
  IdentityPreconditioner<T> id(this->exec_, 4);
  EXPECT_EQ(this->apply(id, r), r);
  const Array<T> d = this->make({2, 4, 3, 0.5});
  JacobiPreconditioner<T> jacobi(this->exec_, d.view());
  const auto z = this->apply(jacobi, r);
  const T dh[4] = {2, 4, 3, 0.5};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(z[i], (T(1) / dh[i]) * r[i]) << i;  // 1/d rounded, then the product
}

TYPED_TEST(PreconditionerTest, JacobiFromTheOperatorUsesItsDiagonal) {
  using T = typename TestFixture::T;
  const StencilOperator<T> op = this->make_op();
  JacobiPreconditioner<T> jacobi(op);
  const auto r = test::random_vector<T>(op.size(), this->rng_);
  const auto z = this->apply(jacobi, r), diag = op.coefficients().diag.to_host();
  for (std::size_t c = 0; c < r.size(); ++c) ASSERT_EQ(z[c], (T(1) / diag[c]) * r[c]) << c;
}

TYPED_TEST(PreconditionerTest, ZLineSolvesItsTridiagonalColumns) {
  using T = typename TestFixture::T;
  const StencilOperator<T> op = this->make_op();
  ZLinePreconditioner<T> zline(op);
  EXPECT_EQ(zline.size(), op.size());
  const auto r = test::random_vector<T>(op.size(), this->rng_);
  const auto z = this->apply(zline, r);
  const auto m = test::stencil_matrix(op.coefficients(), test::Couplings::z_only);
  EXPECT_LT(this->error_against(m, r, z), this->tolerance()) << "seed " << this->seed_;
  // From the coefficients directly: the same factors, the same result.
  ZLinePreconditioner<T> direct(op.coefficients());
  EXPECT_EQ(this->apply(direct, r), z);
}

TYPED_TEST(PreconditionerTest, ZLineUpdateRefactors) {
  using T = typename TestFixture::T;
  const StencilOperator<T> first = this->make_op(), second = this->make_op();
  ZLinePreconditioner<T> zline(first);
  zline.update(second);
  const auto r = test::random_vector<T>(second.size(), this->rng_);
  EXPECT_EQ(this->apply(zline, r), this->apply(ZLinePreconditioner<T>(second), r));
}

TYPED_TEST(PreconditionerTest, SingleCellColumnsAndSingleLayers) {
  using T = typename TestFixture::T;
  // nz = 1: the z-line is the Jacobi diagonal.
  this->grid_ = std::make_shared<Grid3D>(7, 2, 1.0, 1.0, std::vector<ZRegionSpec>{{"z", 1, 1.0}});
  const StencilOperator<T> op = this->make_op();
  const auto r = test::random_vector<T>(op.size(), this->rng_);
  EXPECT_EQ(this->apply(ZLinePreconditioner<T>(op), r), this->apply(JacobiPreconditioner<T>(op), r));
}

TYPED_TEST(PreconditionerTest, BlockZLineSolvesItsBlockTridiagonalColumns) {
  using T = typename TestFixture::T;
  // A volume term V d comparable to the z-couplings, and cell couplings of up
  // to 0.9 V d_min, not symmetric: each 2x2 block keeps a positive definite
  // symmetric part, as a linearised reaction term does.
  const std::size_t n = this->grid_->num_cells();
  const T d_min = T(1e9);
  std::vector<T> c01(n), c10(n);
  std::uniform_real_distribution<double> u(-0.9, 0.9);
  for (std::size_t c = 0; c < n; ++c) {
    const double v = this->grid_->dx() * this->grid_->dy() * this->grid_->dz()[c / this->grid_->cells_per_layer()];
    c01[c] = static_cast<T>(u(this->rng_) * v * d_min);
    c10[c] = static_cast<T>(u(this->rng_) * v * d_min);
  }
  auto big_d = [&] { return test::random_vector<T>(n, this->rng_, d_min, T(1e10)); };
  const TwoFieldStencilOperator<T> op(this->make_op(big_d()), this->make_op(big_d()), this->make(c01).view(),
                                      this->make(c10).view());
  BlockZLinePreconditioner<T> block(op);
  EXPECT_EQ(block.size(), 2 * n);
  const auto r = test::random_vector<T>(2 * n, this->rng_);
  const auto z = this->apply(block, r);
  const auto m = test::two_field_matrix(op, test::Couplings::z_only);
  EXPECT_LT(this->error_against(m, r, z), this->tolerance()) << "seed " << this->seed_;
  block.update(op);
  EXPECT_EQ(this->apply(block, r), z);
}

TYPED_TEST(PreconditionerTest, ConvertedCopiesApplyTheRoundedFactors) {
  using T = typename TestFixture::T;
  const StencilOperator<T> op = this->make_op();
  const ZLinePreconditioner<T> zline(op);
  const ZLinePreconditioner<float> zline32 = zline.template converted<float>();
  const std::size_t n = op.size();
  const auto r = test::random_vector<float>(n, this->rng_);
  Array<float> ra = Array<float>::from_host(this->exec_, r), za(this->exec_, n);
  zline32.apply(ra.view(), za.view());
  std::vector<T> rt(r.begin(), r.end());
  const auto ref = this->apply(zline, rt), z = za.to_host();
  const test::Vector ref_e = test::to_eigen(ref);
  EXPECT_LT((test::to_eigen(z) - ref_e).norm(), 1e-5 * ref_e.norm()) << "seed " << this->seed_;

  const TwoFieldStencilOperator<T> two(this->make_op(), this->make_op(), this->make(std::vector<T>(n, T(10))).view(),
                                       this->make(std::vector<T>(n, T(-20))).view());
  const BlockZLinePreconditioner<double> block64 = BlockZLinePreconditioner<T>(two).template converted<double>();
  EXPECT_EQ(block64.size(), 2 * n);
}

TYPED_TEST(PreconditionerTest, BadDiagonalIsRejectedNamingTheCell) {
  using T = typename TestFixture::T;
  const std::size_t n = this->grid_->num_cells();
  auto d = test::random_vector<T>(n, this->rng_, T(1e3), T(1e4));
  const std::size_t bad = this->grid_->index(2, 1, 6);
  d[bad] = T(-1e12);  // V d dominates: diag < 0 there
  const StencilOperator<T> op = this->make_op(d);
  auto expect_named = [&](auto&& build, const char* kind) {
    try {
      build();
      ADD_FAILURE() << kind << " accepted a negative diagonal";
    } catch (const InvalidArgument& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("(2, 1, 6)"), std::string::npos) << kind << ": " << msg;
      EXPECT_NE(msg.find("diagonal"), std::string::npos) << kind << ": " << msg;
    }
  };
  expect_named([&] { JacobiPreconditioner<T>{op}; }, "Jacobi");
  expect_named([&] { ZLinePreconditioner<T>{op}; }, "z-line");
  const TwoFieldStencilOperator<T> two(this->make_op(), this->make_op(d), this->make(std::vector<T>(n, T(0))).view(),
                                       this->make(std::vector<T>(n, T(0))).view());
  expect_named([&] { BlockZLinePreconditioner<T>{two}; }, "block z-line");
  // A zero on the Jacobi diagonal, named by index when there is no grid.
  const Array<T> zero = this->make({1, 2, 0, 4});
  try {
    JacobiPreconditioner<T>(this->exec_, zero.view());
    ADD_FAILURE() << "Jacobi accepted a zero diagonal";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("index 2"), std::string::npos) << e.what();
  }
  const Array<T> nan = this->make({1, test::poison<T>()});
  EXPECT_THROW(JacobiPreconditioner<T>(this->exec_, nan.view()), InvalidArgument);
}

TYPED_TEST(PreconditionerTest, NonPositivePivotIsRejectedNamingTheCell) {
  using T = typename TestFixture::T;
  // A hand-made column of 3 cells: diag 1, coupling 2: pivot 1 - 4 = -3 at k = 1.
  auto g = std::make_shared<Grid3D>(2, 1, 1.0, 1.0, std::vector<ZRegionSpec>{{"z", 3, 3.0}});
  StencilCoefficients<T> s{g, this->make(std::vector<T>(6, T(1))), this->make(std::vector<T>(6, T(0))),
                           this->make(std::vector<T>(6, T(0))), this->make({T(0.1), T(2), T(0.1), T(2), 0, 0})};
  try {
    ZLinePreconditioner<T>{s};
    ADD_FAILURE() << "z-line accepted an indefinite column";
  } catch (const InvalidArgument& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("pivot"), std::string::npos) << msg;
    EXPECT_NE(msg.find("(1, 0, 1)"), std::string::npos) << msg;  // column 0 is fine: 1 - 0.01
  }
  // A 2x2 block with c01 c10 > diag0 diag1 has a negative determinant.
  const Array<T> c01 = this->make({0, 0, 0, 0, 0, 3}), c10 = this->make({0, 0, 0, 0, 0, 3});
  s.tz = this->make(std::vector<T>(6, T(0)));
  try {
    BlockZLinePreconditioner<T>(s, s, c01.view(), c10.view());
    ADD_FAILURE() << "block z-line accepted a singular block";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("(1, 0, 2)"), std::string::npos) << e.what();
  }
}

TYPED_TEST(PreconditionerTest, MismatchedVectorsAreRejected) {
  using T = typename TestFixture::T;
  const StencilOperator<T> op = this->make_op();
  ZLinePreconditioner<T> zline(op);
  Array<T> r(this->exec_, op.size()), z(this->exec_, op.size() + 1);
  EXPECT_THROW(zline.apply(r.view(), z.view()), SizeMismatch);
  EXPECT_THROW(JacobiPreconditioner<T>(op).apply(r.view(), z.view()), SizeMismatch);
  EXPECT_THROW(IdentityPreconditioner<T>(this->exec_, 3).apply(r.view(), z.view()), SizeMismatch);
  auto other = std::make_shared<Grid3D>(2, 2, 1.0, 1.0, std::vector<ZRegionSpec>{{"z", 2, 1.0}});
  const StencilCoefficients<T> small{other, this->make(std::vector<T>(8, T(1))), this->make(std::vector<T>(8, T(0))),
                                     this->make(std::vector<T>(8, T(0))), this->make(std::vector<T>(8, T(0)))};
  EXPECT_THROW(zline.update(small), SizeMismatch);
}
