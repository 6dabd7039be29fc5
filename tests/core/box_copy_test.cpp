// copy_box on every executor: a box of a layered 2D array into another, on
// fresh random values, every value outside the box left as it was (the
// destination poisoned before), against a loop over the box; a host end of a
// device copy; a box that leaves an array is refused.
#include "voltaic/core/box_copy.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "test_support.hpp"

using namespace voltaic;
using test::ExecutorTest;

template <class C>
class BoxCopyTest : public ExecutorTest<C> {};
TYPED_TEST_SUITE(BoxCopyTest, test::AllCases);

namespace {

/// What copy_box should leave in `to`: the box's values from `from`, the rest untouched.
template <class T>
std::vector<T> by_hand(BoxSize s, const std::vector<T>& from, int fnx, int fny, int fi, int fj, std::vector<T> to,
                       int tnx, int tny, int ti, int tj) {
  for (int k = 0; k < s.layers; ++k)
    for (int j = 0; j < s.height; ++j)
      for (int i = 0; i < s.width; ++i)
        to[(ti + i) + static_cast<std::size_t>(tnx) * ((tj + j) + static_cast<std::size_t>(tny) * k)] =
            from[(fi + i) + static_cast<std::size_t>(fnx) * ((fj + j) + static_cast<std::size_t>(fny) * k)];
  return to;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

}  // namespace

TYPED_TEST(BoxCopyTest, CopiesTheBoxAndNothingElse) {
  using T = typename TestFixture::T;
  const Executor& e = *this->exec_;
  const std::uint64_t seed = test::fresh_seed();
  std::mt19937_64 rng(seed);
  const MemorySpace space = e.memory_space();
  struct Shape {
    int fnx, fny, fi, fj, tnx, tny, ti, tj;
    BoxSize size;
  };
  for (const Shape& c : {Shape{13, 9, 2, 3, 7, 6, 1, 0, {5, 4, 2}}, Shape{40, 3, 37, 0, 3, 3, 0, 0, {3, 3, 4}},
                         Shape{8, 8, 0, 0, 8, 8, 0, 0, {8, 8, 1}}, Shape{6, 5, 1, 1, 9, 9, 4, 4, {0, 3, 2}}}) {
    const std::vector<T> from = test::random_vector<T>(static_cast<std::size_t>(c.fnx) * c.fny * 4, rng);
    const std::vector<T> poisoned(static_cast<std::size_t>(c.tnx) * c.tny * 4, test::poison<T>());
    Array<T> a = this->make(from), b = this->make(poisoned);
    copy_box<T>(e, c.size, {a.data(), space, c.fnx, c.fny, c.fi, c.fj}, {b.data(), space, c.tnx, c.tny, c.ti, c.tj});
    EXPECT_TRUE(
        same_bits(b.to_host(), by_hand(c.size, from, c.fnx, c.fny, c.fi, c.fj, poisoned, c.tnx, c.tny, c.ti, c.tj)))
        << "seed " << seed << ", box " << c.size.width << " x " << c.size.height << " x " << c.size.layers;
  }
}

TYPED_TEST(BoxCopyTest, MovesBetweenTheExecutorsMemoryAndPinnedHostMemory) {
  using T = typename TestFixture::T;
  const Executor& e = *this->exec_;
  std::mt19937_64 rng(test::fresh_seed());
  const std::vector<T> values = test::random_vector<T>(10 * 7 * 2, rng);
  Array<T> device = this->make(values);
  Array<T> host = Array<T>::pinned(this->exec_, 4 * 3 * 2);
  const BoxSize box{4, 3, 2};
  copy_box<T>(e, box, {device.data(), device.space(), 10, 7, 5, 2}, {host.data(), host.space(), 4, 3, 0, 0});
  e.synchronize();
  const std::vector<T> packed(host.data(), host.data() + host.size());
  EXPECT_TRUE(same_bits(packed, by_hand(box, values, 10, 7, 5, 2, std::vector<T>(packed.size()), 4, 3, 0, 0)));
  fill(e, device.view(), T(0));  // and back, into a cleared array
  copy_box<T>(e, box, {host.data(), host.space(), 4, 3, 0, 0}, {device.data(), device.space(), 10, 7, 5, 2});
  EXPECT_TRUE(
      same_bits(device.to_host(), by_hand(box, packed, 4, 3, 0, 0, std::vector<T>(values.size(), T(0)), 10, 7, 5, 2)));
}

TYPED_TEST(BoxCopyTest, RefusesABoxThatLeavesAnArray) {
  using T = typename TestFixture::T;
  const Executor& e = *this->exec_;
  Array<T> a = this->make(std::vector<T>(20, T(1))), b = this->make(std::vector<T>(20, T(2)));
  const MemorySpace s = e.memory_space();
  EXPECT_THROW(copy_box<T>(e, {3, 2, 1}, {a.data(), s, 5, 4, 3, 0}, {b.data(), s, 5, 4, 0, 0}), InvalidArgument);
  EXPECT_THROW(copy_box<T>(e, {2, 2, 1}, {a.data(), s, 5, 4, 0, 0}, {b.data(), s, 5, 4, 0, 3}), InvalidArgument);
  EXPECT_THROW(copy_box<T>(e, {2, 2, 1}, {a.data(), s, 5, 4, -1, 0}, {b.data(), s, 5, 4, 0, 0}), InvalidArgument);
  EXPECT_EQ(b.to_host(), std::vector<T>(20, T(2)));
}
