#include <gtest/gtest.h>

#include "test_support.hpp"

using namespace voltaic;
using test::ExecutorTest;

template <class C>
class FieldSetTest : public ExecutorTest<C> {};
TYPED_TEST_SUITE(FieldSetTest, test::AllCases);

TYPED_TEST(FieldSetTest, NamedFieldsAreSoAOnTheGrid) {
  using T = typename TestFixture::T;
  auto grid = std::make_shared<Grid3D>(5, 3, 1.0, 1.0, std::vector<ZRegionSpec>{{"a", 7, 1.0}});
  FieldSet<T> f(grid, this->exec_);
  f.add("c_e");
  f.add("c_s", 10);
  EXPECT_EQ(f["c_e"].size(), grid->num_cells());
  EXPECT_EQ(f["c_s"].size(), 10 * grid->num_cells());
  EXPECT_EQ(f.components("c_s"), 10);
  EXPECT_EQ(f["c_e"].space(), this->exec_->memory_space());
  EXPECT_EQ(f.names(), (std::vector<std::string>{"c_e", "c_s"}));
  fill(*this->exec_, f["c_e"].view(), T(3));
  for (T v : f["c_e"].to_host()) EXPECT_EQ(v, T(3));
}

TYPED_TEST(FieldSetTest, BadNamesAreErrorsListingTheFields) {
  using T = typename TestFixture::T;
  auto grid = std::make_shared<Grid3D>(1, 1, 1.0, 1.0, std::vector<ZRegionSpec>{{"a", 3, 1.0}});
  FieldSet<T> f(grid, this->exec_);
  f.add("phi_e");
  EXPECT_THROW(f.add("phi_e"), InvalidArgument);
  EXPECT_THROW(f.add(""), InvalidArgument);
  EXPECT_THROW(f.add("x", 0), InvalidArgument);
  try {
    (void)f["phi_s"];
    FAIL() << "missing field accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("phi_e"), std::string::npos);
  }
}
