// The output directory checked before a run: names too long for the file
// system, symbolic-link loops and files in the way are the user's to fix.
#include "voltaic/io/output_path.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "io/output_test_support.hpp"

namespace {

using voltaic::io::check_output_directory;
using voltaic::io::FileError;
using voltaic::test::fresh_dir;
namespace fs = voltaic::test::fs;

std::string refusal(const std::string& dir) {
  try {
    check_output_directory(dir);
  } catch (const FileError& e) {
    return e.what();
  }
  return "";
}

TEST(OutputDirectory, DirectoriesAndPathsThatCanBeCreatedPass) {
  const auto d = fresh_dir("output_directory_ok");
  EXPECT_EQ(refusal(d.string()), "");
  EXPECT_EQ(refusal((d / "new" / "deeper").string()), "");
  EXPECT_EQ(refusal("relative-output"), "");
  EXPECT_FALSE(fs::exists(d / "new"));  // nothing is created
}

TEST(OutputDirectory, WhatCannotBeADirectoryIsRefusedNamingThePart) {
  const auto d = fresh_dir("output_directory_bad");
  const std::string long_name((d / std::string(256, 'x')).string());
  EXPECT_NE(refusal(long_name).find("has a part of 256 bytes"), std::string::npos) << refusal(long_name);
  EXPECT_NE(refusal(std::string(5000, 'a')).find("more than a path may have"), std::string::npos);

  fs::create_symlink("loop", d / "loop");
  EXPECT_NE(refusal((d / "loop").string()).find("symbolic link loop"), std::string::npos);
  EXPECT_NE(refusal((d / "loop" / "out").string()).find("symbolic link loop"), std::string::npos);

  fs::create_symlink("nowhere", d / "dangling");
  EXPECT_NE(refusal((d / "dangling").string()).find("is a symbolic link to nothing"), std::string::npos);

  std::ofstream(d / "file") << "x";
  EXPECT_NE(refusal((d / "file").string()).find("is not a directory"), std::string::npos);
  const std::string below = refusal((d / "file" / "out").string());
  EXPECT_NE(below.find("/file' is not a directory"), std::string::npos) << below;
  EXPECT_EQ(below.find('\n'), std::string::npos);
}

}  // namespace
