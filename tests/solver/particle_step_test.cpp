// ParticleDiffusion on every executor in float and double: a system small
// enough to solve by hand, exact lithium conservation under random fluxes,
// the constant-flux asymptote and the two surface-concentration conventions.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "particle_test_support.hpp"

using namespace voltaic;

template <class C>
class ParticleStep : public test::ExecutorTest<C> {
 protected:
  using T = typename C::value_type;
  ParticleDiffusion<T> make_diffusion(int n, const std::vector<double>& radii, ParticleOptions options = {}) const {
    const Array<T> r = this->make(std::vector<T>(radii.begin(), radii.end()));
    return ParticleDiffusion<T>(this->exec_, n, r.view(), std::move(options));
  }
  Array<T> make_from(const std::vector<double>& v) const { return this->make(std::vector<T>(v.begin(), v.end())); }
};
TYPED_TEST_SUITE(ParticleStep, test::AllCases);

// Two shells, R = D = dt = 1, c = 1, N = 1. Divided by 4 pi: v = (1/24, 7/24),
// inner-face coupling 0.25 / 0.5 = 0.5, so 13 c0 - 12 c1 = 1 and
// -12 c0 + 19 c1 = 7 - 24: c = (-185, -209) / 103.
TYPED_TEST(ParticleStep, TwoShellSystemMatchesTheHandSolution) {
  using T = typename TestFixture::T;
  auto pd = this->make_diffusion(2, {1.0});
  auto c = this->make({T(1), T(1)});
  const auto flux = this->make({T(1)}), d = this->make({T(1)});
  pd.step(c.view(), flux.view(), d.view(), T(1));
  const auto h = c.to_host();
  EXPECT_NEAR(h[0], -185.0 / 103.0, 8 * test::eps<T>());
  EXPECT_NEAR(h[1], -209.0 / 103.0, 8 * test::eps<T>());
  EXPECT_DOUBLE_EQ(pd.centres()[0], 0.25);
  EXPECT_DOUBLE_EQ(pd.centres()[1], 0.75);
}

TYPED_TEST(ParticleStep, UniformProfileWithoutFluxStaysUniform) {
  using T = typename TestFixture::T;
  const int n = 10;
  auto pd = this->make_diffusion(n, {5e-6, 1e-5});
  auto c = this->make(test::uniform_profiles<T>(n, {T(25000), T(1000)}));
  const auto flux = this->make({T(0), T(0)}), d = this->make({T(1e-14), T(3e-13)});
  for (int k = 0; k < 20; ++k) pd.step(c.view(), flux.view(), d.view(), T(50));
  const auto h = c.to_host();
  for (int i = 0; i < n; ++i) {
    EXPECT_NEAR(h[test::at(i, 0, 2)], 25000.0, 25000.0 * 64 * test::eps<T>()) << "shell " << i;
    EXPECT_NEAR(h[test::at(i, 1, 2)], 1000.0, 1000.0 * 64 * test::eps<T>()) << "shell " << i;
  }
}

// Equal per-face diffusivities give the per-particle result bit for bit: the
// kernel forms dt D / R^2 the same way in both modes.
TYPED_TEST(ParticleStep, PerFaceDiffusivityEqualToPerParticleGivesTheSameBits) {
  using T = typename TestFixture::T;
  const int n = 7;
  const std::vector<double> radii = {3e-6, 8e-6, 5e-6};
  auto pd = this->make_diffusion(n, radii);
  std::mt19937_64 rng(7);
  const auto c0 = test::random_vector<T>(n * radii.size(), rng, T(1000), T(30000));
  auto a = this->make(c0), b = this->make(c0);
  const std::vector<T> dv = {T(2e-14), T(5e-15), T(1e-13)};
  std::vector<T> faces;
  for (int f = 0; f + 1 < n; ++f) faces.insert(faces.end(), dv.begin(), dv.end());
  const auto flux = this->make({T(3e-5), T(-2e-5), T(1e-6)}), d = this->make(dv), df = this->make(faces);
  for (int k = 0; k < 3; ++k) {
    pd.step(a.view(), flux.view(), d.view(), T(10));
    pd.step(b.view(), flux.view(), df.view(), T(10));
  }
  const auto ha = a.to_host(), hb = b.to_host();
  for (std::size_t i = 0; i < ha.size(); ++i) ASSERT_TRUE(test::same_bits(ha[i], hb[i])) << i;
}

// Particles with the same radius and diffusivity share one factorisation on
// the CPU (swept together, shell by shell): per-face diffusivities, which
// step each particle alone, give the same bits; runs of alike particles of
// several lengths, fluxes and a source differ between them.
TYPED_TEST(ParticleStep, AlikeParticlesSteppedTogetherGiveTheBitsOfOneByOne) {
  using T = typename TestFixture::T;
  const int n = 9;
  const std::vector<double> radii = {5e-6, 5e-6, 5e-6, 8e-6, 8e-6, 3e-6, 5e-6, 5e-6};
  const std::vector<T> dv = {T(2e-14), T(2e-14), T(2e-14), T(5e-15), T(5e-15), T(1e-13), T(2e-14), T(7e-14)};
  auto pd = this->make_diffusion(n, radii);
  std::mt19937_64 rng(11);
  const std::size_t P = radii.size();
  const auto c0 = test::random_vector<T>(n * P, rng, T(1000), T(30000));
  auto a = this->make(c0), b = this->make(c0);
  std::vector<T> faces;
  for (int f = 0; f + 1 < n; ++f) faces.insert(faces.end(), dv.begin(), dv.end());
  const auto flux = this->make(test::random_vector<T>(P, rng, T(-3e-5), T(3e-5)));
  const auto source = this->make(test::random_vector<T>(n * P, rng, T(-1), T(1)));
  const auto d = this->make(dv), df = this->make(faces);
  for (int k = 0; k < 3; ++k) {
    pd.step(a.view(), flux.view(), d.view(), source.view(), T(10));
    pd.step(b.view(), flux.view(), df.view(), source.view(), T(10));
  }
  const auto ha = a.to_host(), hb = b.to_host();
  for (std::size_t i = 0; i < ha.size(); ++i) ASSERT_TRUE(test::same_bits(ha[i], hb[i])) << i;
}

// Each step changes particle p's lithium by -4 pi R^2 N dt exactly, up to the
// rounding of the solve: checked over 400 steps of random fluxes of both signs.
TYPED_TEST(ParticleStep, LithiumIsConservedUnderRandomFluxes) {
  using T = typename TestFixture::T;
  const int n = 20;
  const std::size_t count = 37;
  const auto seed = test::fresh_seed();
  std::mt19937_64 rng(seed);
  const auto radii = test::random_vector<T>(count, rng, T(2e-6), T(1e-5));
  const auto dv = test::random_vector<T>(count, rng, T(1e-15), T(1e-13));
  const auto c0 = test::random_vector<T>(count, rng, T(5000), T(30000));
  const Array<T> r = this->make(radii);
  ParticleDiffusion<T> pd(this->exec_, n, r.view());
  auto c = this->make(test::uniform_profiles(n, c0));
  const auto d = this->make(dv);
  Array<T> amount(this->exec_, count);
  pd.lithium(c.view(), amount.view());
  const auto start = amount.to_host();
  std::vector<double> expected(start.begin(), start.end());
  const double total_start = pd.total_lithium(c.view());
  const T dt = T(5);
  for (int k = 0; k < 400; ++k) {
    const auto f = test::random_vector<T>(count, rng, T(-5e-6), T(5e-6));
    const auto flux = this->make(f);
    pd.step(c.view(), flux.view(), d.view(), dt);
    for (std::size_t p = 0; p < count; ++p) {
      const double rp = radii[p];
      expected[p] -= 4.0 * test::kPi * rp * rp * double(f[p]) * double(dt);
    }
  }
  pd.lithium(c.view(), amount.view());
  const auto end = amount.to_host();
  double worst = 0.0, sum_end = 0.0, sum_expected = 0.0;
  for (std::size_t p = 0; p < count; ++p) {
    worst = std::max(worst, std::abs(double(end[p]) - expected[p]) / double(start[p]));
    sum_end += end[p];
    sum_expected += expected[p];
  }
  // Each step rounds every shell value once more: a few eps of the inventory
  // per step at worst (observed after 400 steps: FP64 4e-14 to 1.2e-13, FP32 up to 7e-5).
  const double tol = std::is_same_v<T, double> ? 1e-12 : 4 * 400 * test::eps<float>();
  EXPECT_LT(worst, tol) << "largest lithium error relative to the particle's inventory; seed " << seed;
  const double total_end = pd.total_lithium(c.view());
  EXPECT_NEAR(total_end, sum_end, 8 * test::eps<T>() * sum_end);
  EXPECT_LT(std::abs(total_end - sum_expected) / total_start, tol) << "seed " << seed;
  std::ostringstream record;
  record << worst;
  ::testing::Test::RecordProperty("worst_relative_lithium_error", record.str());
}

// From a uniform start under a constant flux N the solution tends to a uniform
// fall of 3 N t / R plus a parabola of zero mean (A = N R / D):
//   c = c0 - 3 N t / R + A (3/10 - r^2 / (2 R^2)).
// The scheme's face gradients and exact shell volumes reproduce r^2 exactly,
// so once the transients have decayed the discrete solution is that parabola
// at the centres plus a constant offset delta, fixed by exact conservation:
// sum_i v_i c_i = (c0 - 3 N t / R) / 3, delta = -3 A sum_i v_i (3/10 - xi_i^2 / 2),
// which is -(5/24) A h^2 + A h^4 / 30 on a uniform mesh of width h = 1/n.
TYPED_TEST(ParticleStep, ConstantFluxTendsToTheParabolicAsymptote) {
  using T = typename TestFixture::T;
  const int n = 20;
  const std::vector<double> radii = {4e-6, 5e-6, 6e-6}, dv = {1e-14, 2e-14, 3e-14}, nv = {2e-6, -1e-6, 3e-6};
  const std::size_t count = radii.size();
  const double c0 = 20000.0, dt = 8.0;
  const int steps = 400;  // t = 3200 s: at least 2 R^2 / D for every particle
  auto pd = this->make_diffusion(n, radii);
  auto c = this->make(test::uniform_profiles<T>(n, std::vector<T>(count, T(c0))));
  const auto flux = this->make_from(nv), d = this->make_from(dv);
  for (int k = 0; k < steps; ++k) pd.step(c.view(), flux.view(), d.view(), T(dt));
  const auto h = c.to_host();
  const double t = steps * dt, mesh = 1.0 / n;
  // Rounding: FP64 is within 1e-9 here (4e-14 of c). In FP32 each step can move the
  // whole profile by a fraction of an ulp of 2e4 (2e-3), the same way every
  // time (0.25 after 400 steps is observed); the difference of the two surface
  // values cancels that drift. States are meant to be FP64.
  const double tol = std::is_same_v<T, double> ? 1e-8 : 2.0 * steps * test::eps<float>() * c0;
  const double tol_difference = std::is_same_v<T, double> ? 1e-8 : 0.02;

  Array<T> lin(this->exec_, count), fa(this->exec_, count);
  pd.surface_concentration(SurfaceMethod::linear_extrapolation, c.view(), flux.view(), d.view(), lin.view());
  pd.surface_concentration(c.view(), flux.view(), d.view(), fa.view());  // the default: flux-aware
  const auto hl = lin.to_host(), hf = fa.to_host();
  for (std::size_t p = 0; p < count; ++p) {
    const double a = nv[p] * radii[p] / dv[p];
    double delta = 0.0;
    for (int i = 0; i < n; ++i) {
      const double lo = pd.faces()[i], hi = pd.faces()[i + 1], x = pd.centres()[i];
      delta -= 3.0 * a * (hi * hi * hi - lo * lo * lo) / 3.0 * (0.3 - 0.5 * x * x);
    }
    const double h2 = mesh * mesh, h4 = h2 * h2;
    EXPECT_NEAR(delta, -5.0 / 24.0 * a * h2 + a * h4 / 30.0, 1e-12 * std::abs(a));
    for (int i = 0; i < n; ++i) {
      const double exact = test::constant_flux_asymptote(c0, nv[p], dv[p], radii[p], pd.centres()[i] * radii[p], t);
      EXPECT_NEAR(h[test::at(i, p, count)], exact + delta, tol) << "particle " << p << " shell " << i;
    }
    // At the surface: linear extrapolation is off by A h^2 / 6, the flux-aware
    // value by -A h^2 / 3 (plus delta's A h^4 / 30 each; see docs/design.md).
    const double surface = test::constant_flux_asymptote(c0, nv[p], dv[p], radii[p], radii[p], t);
    EXPECT_NEAR(hl[p] - surface, a * h2 / 6.0 + a * h4 / 30.0, tol) << "particle " << p;
    EXPECT_NEAR(hf[p] - surface, -a * h2 / 3.0 + a * h4 / 30.0, tol) << "particle " << p;
    EXPECT_NEAR(hf[p] - hl[p], -a * h2 / 2.0, tol_difference) << "particle " << p;
  }
}

// On a parabola c = alpha - (A / 2) (r / R)^2 sampled at the centres, with the
// matching flux N = A D / R, linear extrapolation misses the surface value by
// +3/8 A h^2 and the flux-aware value by -1/8 A h^2 (uniform mesh h = 1/n).
TYPED_TEST(ParticleStep, SurfaceConventionsOnASampledParabola) {
  using T = typename TestFixture::T;
  const int n = 10;
  const std::vector<double> radii = {5e-6, 2e-6};
  const double alpha = 20000.0, a = 1500.0, dval = 2e-14;
  const std::size_t count = radii.size();
  auto pd = this->make_diffusion(n, radii);
  std::vector<double> profile(n * count), nv(count);
  for (std::size_t p = 0; p < count; ++p) {
    nv[p] = a * dval / radii[p];
    for (int i = 0; i < n; ++i) {
      const double x = pd.centres()[i];
      profile[test::at(i, p, count)] = alpha - 0.5 * a * x * x;
    }
  }
  const auto c = this->make_from(profile), flux = this->make_from(nv), d = this->make_from({dval, dval});
  Array<T> lin(this->exec_, count), fa(this->exec_, count);
  pd.surface_concentration(SurfaceMethod::linear_extrapolation, c.view(), flux.view(), d.view(), lin.view());
  pd.surface_concentration(SurfaceMethod::flux_aware, c.view(), flux.view(), d.view(), fa.view());
  const auto hc = c.to_host(), hl = lin.to_host(), hf = fa.to_host();
  const double h2 = 1.0 / (n * n), tol = 16 * test::eps<T>() * alpha, exact = alpha - 0.5 * a;
  for (std::size_t p = 0; p < count; ++p) {
    const double last = hc[test::at(n - 1, p, count)], prev = hc[test::at(n - 2, p, count)];
    EXPECT_NEAR(hl[p], 1.5 * last - 0.5 * prev, tol);
    EXPECT_NEAR(hf[p], last - 0.5 / n * radii[p] * nv[p] / dval, tol);
    EXPECT_NEAR(hl[p] - exact, 3.0 / 8.0 * a * h2, tol);
    EXPECT_NEAR(hf[p] - exact, -1.0 / 8.0 * a * h2, tol);
  }
}

TYPED_TEST(ParticleStep, ZeroParticlesIsANoOp) {
  using T = typename TestFixture::T;
  auto pd = this->make_diffusion(5, {});
  Array<T> c(this->exec_, 0), flux(this->exec_, 0), d(this->exec_, 0), out(this->exec_, 0);
  pd.step(c.view(), flux.view(), d.view(), T(1));
  pd.surface_concentration(c.view(), flux.view(), d.view(), out.view());
  EXPECT_EQ(pd.total_lithium(c.view()), T(0));
}
