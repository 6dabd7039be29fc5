// StencilOperator on every executor, in float and double: values checkable by
// hand, exact solutions, symmetry, and bad input.
#include <gtest/gtest.h>

#include "test_support.hpp"
#include "voltaic/linalg/stencil_operator.hpp"

using namespace voltaic;
using test::ExecutorTest;

template <class C>
class StencilTest : public ExecutorTest<C> {
 protected:
  using T = typename C::value_type;
  std::shared_ptr<const Grid3D> grid_ = std::make_shared<Grid3D>(
      4, 3, 2e-3, 1e-3,
      std::vector<ZRegionSpec>{{"negative", 3, 60e-6}, {"separator", 2, 20e-6}, {"positive", 4, 80e-6}});
  /// k per region (a jump of 100 between regions), d constant.
  std::vector<T> region_k() const {
    const T per_region[3] = {T(2), T(0.02), T(5)};
    std::vector<T> k(grid_->num_cells());
    for (std::size_t c = 0; c < k.size(); ++c)
      k[c] = per_region[grid_->region_of_layer()[c / grid_->cells_per_layer()]];
    return k;
  }
  StencilOperator<T> make_op(const std::vector<T>& k, T d, const BoundaryConditions& bc) const {
    const Array<T> ka = this->make(k), da = this->make(std::vector<T>(k.size(), d));
    return StencilOperator<T>(grid_, this->exec_, ka.view(), da.view(), bc);
  }
  /// A u - b for constant u.
  std::vector<T> residual_of_constant(const StencilOperator<T>& op, T u) const {
    const std::size_t n = op.size();
    Array<T> x = this->make(std::vector<T>(n, u)), y(this->exec_, n), b = this->make(std::vector<T>(n, T(0)));
    op.apply(x.view(), y.view());
    op.add_boundary_terms(b.view());
    axpy(*this->exec_, T(-1), b.view(), y.view());
    return y.to_host();
  }
};
TYPED_TEST_SUITE(StencilTest, test::AllCases);

TYPED_TEST(StencilTest, OneDimensionalCoefficientsByHand) {
  using T = typename TestFixture::T;
  // 3 cells of width 1 in z, area 2 x 0.5 = 1; k = 1, 3, 1; d = 2; Dirichlet 0 below, Robin h = 2 above.
  auto g = std::make_shared<Grid3D>(1, 1, 2.0, 0.5, std::vector<ZRegionSpec>{{"z", 3, 3.0}});
  BoundaryConditions bc{};
  bc[int(Face::z_lo)] = BoundaryCondition::dirichlet(1.0);
  bc[int(Face::z_hi)] = BoundaryCondition::robin(2.0, 4.0);
  const Array<T> k = this->make({1, 3, 1}), d = this->make({2, 2, 2});
  StencilOperator<T> op(g, this->exec_, k.view(), d.view(), bc);
  const auto& c = op.coefficients();
  const T t = T(2) / (T(1) / T(1) + T(1) / T(3));           // harmonic: 1.5
  const T dir = T(2), rob = T(1) / (T(1) / T(2) + T(0.5));  // 2 k / h; 1 / (1/h + h/(2k)) = 1
  const auto diag = c.diag.to_host(), tz = c.tz.to_host();
  const T tol = 4 * test::eps<T>();
  EXPECT_NEAR(tz[0], t, tol);
  EXPECT_NEAR(tz[1], t, tol);
  EXPECT_EQ(tz[2], T(0));
  EXPECT_NEAR(diag[0], T(2) + t + dir, 8 * tol);
  EXPECT_NEAR(diag[1], T(2) + 2 * t, 8 * tol);
  EXPECT_NEAR(diag[2], T(2) + t + rob, 8 * tol);
  for (T v : c.tx.to_host()) EXPECT_EQ(v, T(0));
  Array<T> b = this->make({0, 0, 0});
  op.add_boundary_terms(b.view());
  const auto bh = b.to_host();
  EXPECT_NEAR(bh[0], dir * T(1), tol);
  EXPECT_EQ(bh[1], T(0));
  EXPECT_NEAR(bh[2], rob * T(4), 8 * tol);
}

TYPED_TEST(StencilTest, ConstantIsExactForEveryBoundaryKind) {
  using T = typename TestFixture::T;
  const T u = T(3.5);
  BoundaryConditions bc{};
  bc[0] = BoundaryCondition::dirichlet(u);
  bc[1] = BoundaryCondition::robin(7.0, u);
  bc[2] = BoundaryCondition::insulated();
  bc[3] = BoundaryCondition::dirichlet(u);
  bc[4] = BoundaryCondition::robin(0.3, u);
  bc[5] = BoundaryCondition::insulated();
  const auto op = this->make_op(this->region_k(), T(0), bc);
  const T scale = test::max_abs_of(op.coefficients().diag.to_host()) * u;
  for (T r : this->residual_of_constant(op, u)) EXPECT_LE(std::abs(r), 64 * test::eps<T>() * scale);
}

TYPED_TEST(StencilTest, NeumannFluxEntersTheRightHandSide) {
  using T = typename TestFixture::T;
  BoundaryConditions bc{};
  bc[int(Face::z_hi)] = BoundaryCondition::neumann(2.0);  // outward flux 2 through the top
  const auto op = this->make_op(this->region_k(), T(0), bc);
  Array<T> b(this->exec_, op.size());
  fill(*this->exec_, b.view(), T(0));
  op.add_boundary_terms(b.view());
  const auto bh = b.to_host();
  T total = 0;
  for (T v : bh) total += v;
  const Grid3D& g = *this->grid_;
  const T area = T(g.nx() * g.dx() * g.ny() * g.dy());
  EXPECT_NEAR(total, -2 * area, 16 * test::eps<T>() * 2 * area);
}

TYPED_TEST(StencilTest, SymmetricAndHarmonicAtInterfaces) {
  using T = typename TestFixture::T;
  BoundaryConditions bc{};
  bc[int(Face::z_lo)] = BoundaryCondition::dirichlet(0.0);
  const auto k = this->region_k();
  const auto op = this->make_op(k, T(1e3), bc);
  // The face between the last negative and the first separator layer.
  const Grid3D& g = *this->grid_;
  const std::size_t below = g.index(1, 1, 2);
  const T h1 = T(20e-6), h2 = T(10e-6), area = T(g.dx() * g.dy());
  const T want = area * 2 / (h1 / k[below] + h2 / k[below + g.cells_per_layer()]);
  EXPECT_NEAR(op.coefficients().tz.to_host()[below], want, 8 * test::eps<T>() * want);

  std::mt19937_64 rng(test::fresh_seed());
  const std::size_t n = op.size();
  const Array<T> x = this->make(test::random_vector<T>(n, rng)), z = this->make(test::random_vector<T>(n, rng));
  Array<T> ax(this->exec_, n), az(this->exec_, n);
  op.apply(x.view(), ax.view());
  op.apply(z.view(), az.view());
  const T zax = dot(*this->exec_, z.view(), ax.view()), xaz = dot(*this->exec_, x.view(), az.view());
  EXPECT_NEAR(zax, xaz, 64 * test::eps<T>() * (std::abs(zax) + T(1)));
}

TYPED_TEST(StencilTest, FrameApplyRedoesOnlyTheFramesRowsWithApplysBits) {
  using T = typename TestFixture::T;
  // A plane wide enough for a middle, and frames from none to the whole plane.
  this->grid_ = std::make_shared<Grid3D>(9, 7, 1e-3, 2e-3, std::vector<ZRegionSpec>{{"a", 2, 1e-5}, {"b", 3, 2e-5}});
  const Grid3D& g = *this->grid_;
  BoundaryConditions bc{};
  bc[int(Face::x_lo)] = BoundaryCondition::robin(10.0, 1.0);
  std::mt19937_64 rng(test::fresh_seed());
  const std::size_t n = g.num_cells();
  const auto op = this->make_op(test::random_vector<T>(n, rng, T(0.5), T(2)), T(1e3), bc);
  const Array<T> x = this->make(test::random_vector<T>(n, rng));
  Array<T> whole(this->exec_, n), part(this->exec_, n);
  op.apply(x.view(), whole.view());
  const std::vector<T> want = whole.to_host();
  for (const stencil::ColumnFrame f :
       {stencil::ColumnFrame{2, 2, 2, 2}, stencil::ColumnFrame{1, 0, 0, 2}, stencil::ColumnFrame{0, 0, 0, 0},
        stencil::ColumnFrame{5, 5, 1, 0}, stencil::ColumnFrame{0, 1, 4, 4}}) {
    fill(*this->exec_, part.view(), test::poison<T>());
    op.apply_frame(x.view(), part.view(), f);
    const std::vector<T> got = part.to_host();
    for (int k = 0; k < g.nz(); ++k)
      for (int j = 0; j < g.ny(); ++j)
        for (int i = 0; i < g.nx(); ++i) {
          const std::size_t c = g.index(i, j, k);
          const bool in = i < f.x_lo || i >= g.nx() - f.x_hi || j < f.y_lo || j >= g.ny() - f.y_hi;
          if (in) {
            ASSERT_TRUE(test::same_bits(got[c], want[c])) << "frame row " << i << "," << j << "," << k;
          } else {
            ASSERT_TRUE(test::same_bits(got[c], test::poison<T>()))
                << "row " << i << "," << j << "," << k << " was written";
          }
        }
  }
}

TYPED_TEST(StencilTest, TwoFieldBlocksCoupleTheFields) {
  using T = typename TestFixture::T;
  const std::size_t n = this->grid_->num_cells();
  std::mt19937_64 rng(test::fresh_seed());
  const auto k = this->region_k();
  BoundaryConditions bc{};
  bc[int(Face::z_lo)] = BoundaryCondition::dirichlet(0.0);
  const Array<T> c01 = this->make(test::random_vector<T>(n, rng)), c10 = this->make(test::random_vector<T>(n, rng));
  TwoFieldStencilOperator<T> op(this->make_op(k, T(1), bc), this->make_op(k, T(2), bc), c01.view(), c10.view());
  EXPECT_EQ(op.size(), 2 * n);
  const Array<T> x = this->make(test::random_vector<T>(2 * n, rng));
  Array<T> y(this->exec_, 2 * n), s(this->exec_, n);
  fill(*this->exec_, y.view(), test::poison<T>());
  op.apply(x.view(), y.view());
  const auto yh = y.to_host(), xh = x.to_host(), a01 = c01.to_host();
  op.field(0).apply(x.view().subview(0, n), s.view());
  const auto sh = s.to_host();
  for (std::size_t c = 0; c < n; ++c) {
    EXPECT_NEAR(yh[c], sh[c] + a01[c] * xh[n + c], 16 * test::eps<T>() * (std::abs(sh[c]) + 1)) << c;
  }
}

TYPED_TEST(StencilTest, BadInputIsNamed) {
  using T = typename TestFixture::T;
  auto k = this->region_k();
  k[17] = T(-1);
  try {
    this->make_op(k, T(0), BoundaryConditions{});
    FAIL() << "negative k accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("cell 17"), std::string::npos) << e.what();
  }
  k[17] = T(1);
  EXPECT_THROW(this->make_op(k, std::numeric_limits<T>::quiet_NaN(), BoundaryConditions{}), InvalidArgument);
  BoundaryConditions bad{};
  bad[int(Face::y_hi)] = BoundaryCondition::robin(-1.0, 300.0);
  try {
    this->make_op(k, T(0), bad);
    FAIL() << "negative Robin coefficient accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("y_hi"), std::string::npos);
  }
  const auto op = this->make_op(k, T(0), BoundaryConditions{});
  Array<T> short_x(this->exec_, op.size() - 1), y(this->exec_, op.size());
  EXPECT_THROW(op.apply(short_x.view(), y.view()), SizeMismatch);
  EXPECT_THROW(op.apply(y.view(), y.view()), InvalidArgument);
}

// A Newton step's Jacobian keeps its conductivities and changes its
// diagonal: update_diagonal() gives update()'s coefficients, the diagonal
// summed in another order (d's term last: within a few ulp), the rest to the bit.
TYPED_TEST(StencilTest, DiagonalUpdateGivesTheFullUpdatesCoefficients) {
  using T = typename TestFixture::T;
  std::mt19937_64 rng(test::fresh_seed());
  const auto k = this->region_k();
  const std::size_t n = k.size();
  BoundaryConditions bc{};
  bc[int(Face::z_lo)] = BoundaryCondition::dirichlet(0.5);
  bc[int(Face::x_hi)] = BoundaryCondition::robin(25.0, 300.0);
  const Array<T> ka = this->make(k), d1 = this->make(test::random_vector<T>(n, rng, T(0), T(1e3))),
                 d2 = this->make(test::random_vector<T>(n, rng, T(-50), T(1e3)));
  StencilOperator<T> op(this->grid_, this->exec_, ka.view(), d1.view(), bc);
  // It keeps the faces' sums only when asked (they cost an array per update).
  EXPECT_THROW(op.update_diagonal(d2.view()), InvalidArgument);
  op.keep_face_sums();
  EXPECT_THROW(op.update_diagonal(d2.view()), InvalidArgument);  // not before an update()
  op.update(ka.view(), d1.view());
  op.update_diagonal(d2.view());
  const StencilOperator<T> full(this->grid_, this->exec_, ka.view(), d2.view(), bc);
  const std::vector<T> diag = op.coefficients().diag.to_host(), expected = full.coefficients().diag.to_host();
  for (std::size_t c = 0; c < n; ++c)
    ASSERT_NEAR(diag[c], expected[c], 8 * std::numeric_limits<T>::epsilon() * std::fabs(expected[c])) << "cell " << c;
  for (const auto& [a, b] :
       {std::pair{&op.coefficients().tx, &full.coefficients().tx}, {&op.coefficients().tz, &full.coefficients().tz}})
    EXPECT_EQ(a->to_host(), b->to_host());
  // Without faces of its own (a converted operator) it refuses by name.
  using U = std::conditional_t<std::is_same_v<T, float>, double, float>;
  StencilOperator<U> other = op.template converted<U>();
  const Array<U> du(this->exec_, n);
  EXPECT_THROW(other.update_diagonal(du.view()), InvalidArgument);
  const Array<T> short_d(this->exec_, n - 1);
  EXPECT_THROW(op.update_diagonal(short_d.view()), SizeMismatch);
}

// The FP32 copy of a Newton Jacobian is refreshed by assign_converted(),
// which converts only the diagonal where the FP64 operator moved nothing
// else since: the result is the full conversion to the bit, also after an
// update() of either operator (which moves the faces).
TYPED_TEST(StencilTest, AssignConvertedIsTheFullConversionAfterAnyUpdate) {
  using T = typename TestFixture::T;
  if constexpr (!std::is_same_v<T, double>) {
    GTEST_SKIP() << "assign_converted() rounds double to float";
  } else {
    std::mt19937_64 rng(test::fresh_seed());
    const std::size_t n = this->grid_->num_cells();
    BoundaryConditions bc{};
    bc[int(Face::z_lo)] = BoundaryCondition::dirichlet(0.5);
    bc[int(Face::x_hi)] = BoundaryCondition::robin(25.0, 300.0);
    auto random = [&](double lo, double hi) { return this->make(test::random_vector<double>(n, rng, lo, hi)); };
    const Array<double> k1 = random(0.1, 10), k2 = random(0.1, 10), d1 = random(0, 1e3), d2 = random(-50, 1e3);
    StencilOperator<double> op(this->grid_, this->exec_, k1.view(), d1.view(), bc);
    op.keep_face_sums();
    op.update(k1.view(), d1.view());
    StencilOperator<float> f32 = op.template converted<float>();
    auto expect_full_conversion = [&](const char* when) {
      const StencilOperator<float> full = op.template converted<float>();
      const auto &a = f32.coefficients(), &b = full.coefficients();
      EXPECT_EQ(a.diag.to_host(), b.diag.to_host()) << when;
      EXPECT_EQ(a.tx.to_host(), b.tx.to_host()) << when;
      EXPECT_EQ(a.ty.to_host(), b.ty.to_host()) << when;
      EXPECT_EQ(a.tz.to_host(), b.tz.to_host()) << when;
      Array<float> ba = Array<float>::from_host(this->exec_, std::vector<float>(n, 0.0f));
      Array<float> bb = Array<float>::from_host(this->exec_, std::vector<float>(n, 0.0f));
      f32.add_boundary_terms(ba.view());
      full.add_boundary_terms(bb.view());
      EXPECT_EQ(ba.to_host(), bb.to_host()) << when;
    };
    op.update_diagonal(d2.view());
    f32.assign_converted(op);
    expect_full_conversion("after update_diagonal()");
    op.update(k2.view(), d1.view());
    f32.assign_converted(op);
    expect_full_conversion("after update() of the FP64 operator");
    const Array<float> kf = Array<float>::from_host(this->exec_, std::vector<float>(n, 3.0f));
    const Array<float> df = Array<float>::from_host(this->exec_, std::vector<float>(n, 1.0f));
    f32.update(kf.view(), df.view());
    op.update_diagonal(d1.view());
    f32.assign_converted(op);
    expect_full_conversion("after update() of the FP32 copy");
  }
}
