#include <gtest/gtest.h>

#include <string>

#include "voltaic/voltaic.hpp"

using voltaic::Error;

TEST(Error, CarriesWhatWhereAndWhy) {
  const voltaic::InvalidArgument e("grid.nx", "Grid3D::Grid3D", "grid.nx = -1 must be finite and > 0");
  EXPECT_EQ(e.what_failed(), "grid.nx");
  EXPECT_EQ(e.where(), "Grid3D::Grid3D");
  EXPECT_EQ(e.why(), "grid.nx = -1 must be finite and > 0");
  const std::string msg = e.what();
  EXPECT_NE(msg.find("grid.nx"), std::string::npos);
  EXPECT_NE(msg.find("Grid3D::Grid3D"), std::string::npos);
  EXPECT_NE(msg.find("must be finite"), std::string::npos);
}

TEST(Error, HierarchyLetsCallersCatchByKind) {
  EXPECT_THROW(throw voltaic::SizeMismatch("a", "b", "c"), voltaic::InvalidArgument);
  EXPECT_THROW(throw voltaic::ExecutorMismatch("a", "b", "c"), voltaic::InvalidArgument);
  EXPECT_THROW(throw voltaic::BackendUnavailable("a", "b", "c"), Error);
  EXPECT_THROW(throw voltaic::OutOfRange("a", "b", "c"), Error);
  const voltaic::CudaError cuda("cudaMalloc(&p, n)", "x.cpp:3", "out of memory", 2, false);
  EXPECT_EQ(cuda.code(), 2);
  EXPECT_FALSE(cuda.sticky());
}

// Messages echo file names and CSV cells: one_line() keeps them on one line
// and never passes raw bytes that are not UTF-8 to a terminal (issue 34).
TEST(OneLine, EscapesControlCharactersAndBytesThatAreNotUtf8) {
  using voltaic::one_line;
  EXPECT_EQ(one_line("a\nb\tc\rd\x01"), "a\\nb\\tc\\rd\\x01");
  // Valid UTF-8 as it is: 2, 3 and 4 bytes.
  EXPECT_EQ(one_line("\xc2\xb0"
                     "C, \xe2\x80\x94, \xf0\x9f\x94\x8b"),
            "\xc2\xb0"
            "C, \xe2\x80\x94, \xf0\x9f\x94\x8b");
  // Stray and truncated bytes, overlong forms, surrogates, past U+10FFFF.
  EXPECT_EQ(one_line("'\xff\xfe.toml'"), "'\\xff\\xfe.toml'");
  EXPECT_EQ(one_line("x\xc3"), "x\\xc3");
  EXPECT_EQ(one_line("\xc3("), "\\xc3(");
  EXPECT_EQ(one_line("\xc0\xaf"), "\\xc0\\xaf");
  EXPECT_EQ(one_line("\xe0\x80\xaf"), "\\xe0\\x80\\xaf");
  EXPECT_EQ(one_line("\xed\xa0\x80"), "\\xed\\xa0\\x80");
  EXPECT_EQ(one_line("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");
  EXPECT_EQ(one_line("\xe2\x82"), "\\xe2\\x82");
}
