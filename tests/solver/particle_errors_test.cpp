// ParticleDiffusion rejects bad input before it changes anything, with a
// typed exception that names the argument, the bad value and its index.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "particle_test_support.hpp"

using namespace voltaic;

namespace {

/// Runs `call`, expects exception E whose message contains `needle`.
template <class E, class F>
void expect_error(F call, const std::string& needle) {
  try {
    call();
    ADD_FAILURE() << "no exception; expected one mentioning '" << needle << "'";
  } catch (const E& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
}

}  // namespace

template <class C>
class ParticleErrors : public test::ExecutorTest<C> {
 protected:
  using T = typename C::value_type;
  static constexpr int kShells = 4;
  static constexpr std::size_t kCount = 3;
  void SetUp() override {
    test::ExecutorTest<C>::SetUp();
    if (this->IsSkipped()) return;
    radii_ = this->make({T(1e-6), T(2e-6), T(3e-6)});
    c_ = this->make(std::vector<T>(kShells * kCount, T(1000)));
    flux_ = this->make({T(1e-6), T(0), T(-1e-6)});
    d_ = this->make({T(1e-14), T(2e-14), T(3e-14)});
    out_ = Array<T>(this->exec_, kCount);
  }
  ParticleDiffusion<T> diffusion(ParticleOptions options = {}) const {
    return ParticleDiffusion<T>(this->exec_, kShells, radii_.view(), std::move(options));
  }
  /// A view that claims to live in another memory space than the executor's.
  View<const T> foreign(const Array<T>& a) const {
    const MemorySpace other = this->exec_->backend() == Backend::cpu ? MemorySpace::cuda(0) : MemorySpace::host();
    return View<const T>(a.data(), a.size(), other);
  }
  Array<T> radii_, c_, flux_, d_, out_;
};
TYPED_TEST_SUITE(ParticleErrors, test::AllCases);

TYPED_TEST(ParticleErrors, ConstructionChecksShellsRadiiAndFaces) {
  using T = typename TestFixture::T;
  const auto& exec = this->exec_;
  expect_error<InvalidArgument>([&] { ParticleDiffusion<T>(exec, 1, this->radii_.view()); }, "n_shells = 1");
  expect_error<InvalidArgument>([&] { ParticleDiffusion<T>(nullptr, 4, this->radii_.view()); }, "executor");
  for (const T bad : {T(0), T(-1e-6), std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::infinity()}) {
    const auto r = this->make({T(1e-6), T(1e-6), bad});
    expect_error<InvalidArgument>([&] { ParticleDiffusion<T>(exec, 4, r.view()); }, "radii[2] = ");
  }
  expect_error<ExecutorMismatch>([&] { ParticleDiffusion<T>(exec, 4, this->foreign(this->radii_)); }, "radii");
  ParticleOptions wrong_count;
  wrong_count.faces = {0.0, 0.5, 1.0};
  expect_error<SizeMismatch>([&] { this->diffusion(wrong_count); }, "need 5");
  ParticleOptions not_unit;
  not_unit.faces = {0.0, 0.1, 0.2, 0.3, 0.9};
  expect_error<InvalidArgument>([&] { this->diffusion(not_unit); }, "exactly 0 to exactly 1");
  ParticleOptions not_increasing;
  not_increasing.faces = {0.0, 0.4, 0.3, 0.8, 1.0};
  expect_error<InvalidArgument>([&] { this->diffusion(not_increasing); }, "faces[2] = 0.3");
  ParticleOptions refined;  // a valid non-uniform mesh
  refined.faces = {0.0, 0.5, 0.75, 0.9, 1.0};
  EXPECT_NO_THROW(this->diffusion(refined));
}

TYPED_TEST(ParticleErrors, StepChecksSizesSpacesAndTimeStep) {
  using T = typename TestFixture::T;
  auto pd = this->diffusion();
  const auto c = this->c_.view();
  const auto flux = this->flux_.const_view(), d = this->d_.const_view();
  for (const T dt : {T(0), T(-1), std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::infinity()}) {
    expect_error<InvalidArgument>([&] { pd.step(c, flux, d, dt); }, "dt = ");
  }
  expect_error<SizeMismatch>([&] { pd.step(c.subview(0, 11), flux, d, T(1)); }, "'c_s' has 11 elements; expected 12");
  expect_error<SizeMismatch>([&] { pd.step(c, flux.subview(0, 2), d, T(1)); }, "'flux' has 2 elements");
  expect_error<SizeMismatch>([&] { pd.step(c, flux, d.subview(0, 2), T(1)); }, "expected 3 (one per particle) or 9");
  expect_error<SizeMismatch>([&] { pd.step(c, flux, d, this->c_.const_view().subview(0, 3), T(1)); },
                             "'source' has 3 elements");
  expect_error<ExecutorMismatch>([&] { pd.step(c, this->foreign(this->flux_), d, T(1)); }, "'flux' is in");
  expect_error<InvalidArgument>([&] { pd.step(c, flux, d, T(1), -1); }, "stream -1");
  if (this->exec_->backend() == Backend::cuda) {
    expect_error<InvalidArgument>([&] { pd.step(c, flux, d, T(1), 99); }, "stream 99");
  }
  Array<T> amount(this->exec_, 2);
  expect_error<SizeMismatch>([&] { pd.lithium(c, amount.view()); }, "'amount' has 2 elements");
  expect_error<SizeMismatch>([&] { pd.surface_concentration(c, flux, d, this->out_.view().subview(0, 1)); },
                             "'c_surf' has 1 elements");
}

TYPED_TEST(ParticleErrors, BadValuesAreNamedAndNothingChanges) {
  using T = typename TestFixture::T;
  auto pd = this->diffusion();
  const T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
  const auto before = this->c_.to_host();
  const auto bad_flux = this->make({T(0), nan, T(0)});
  expect_error<InvalidArgument>([&] { pd.step(this->c_.view(), bad_flux.view(), this->d_.view(), T(1)); },
                                "flux[1] = nan must be finite");
  const auto bad_d = this->make({T(1e-14), T(1e-14), T(-2e-14)});
  expect_error<InvalidArgument>([&] { pd.step(this->c_.view(), this->flux_.view(), bad_d.view(), T(1)); },
                                "D[2] (particle 2) = -");
  std::vector<T> faces(3 * 3, T(1e-14));
  faces[4] = T(0);
  const auto bad_faces = this->make(faces);
  expect_error<InvalidArgument>([&] { pd.step(this->c_.view(), this->flux_.view(), bad_faces.view(), T(1)); },
                                "D[4] (face 1, particle 1) = 0");
  std::vector<T> source(12, T(0));
  source[7] = inf;
  const auto bad_source = this->make(source);
  expect_error<InvalidArgument>(
      [&] { pd.step(this->c_.view(), this->flux_.view(), this->d_.view(), bad_source.view(), T(1)); },
      "source[7] (shell 2, particle 1) = inf");
  expect_error<InvalidArgument>(
      [&] { pd.surface_concentration(this->c_.view(), bad_flux.view(), this->d_.view(), this->out_.view()); },
      "flux[1] = nan");
  const auto after = this->c_.to_host();
  for (std::size_t i = 0; i < before.size(); ++i) EXPECT_TRUE(test::same_bits(before[i], after[i])) << i;
}

TYPED_TEST(ParticleErrors, ValueChecksCanBeTurnedOff) {
  using T = typename TestFixture::T;
  ParticleOptions unchecked;
  unchecked.check_values = false;
  auto pd = this->diffusion(unchecked);
  const auto bad_flux = this->make({T(0), std::numeric_limits<T>::quiet_NaN(), T(0)});
  EXPECT_NO_THROW(pd.step(this->c_.view(), bad_flux.view(), this->d_.view(), T(1)));
  this->exec_->synchronize();
  const auto h = this->c_.to_host();
  EXPECT_TRUE(std::isnan(h[test::at(0, 1, 3)]));  // the bad particle is NaN, the others are not
  EXPECT_FALSE(std::isnan(h[test::at(0, 0, 3)]));
}
