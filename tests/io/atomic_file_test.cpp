#include "voltaic/io/atomic_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace fs = std::filesystem;
using voltaic::io::AtomicFile;

namespace {
fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("voltaic_atomic_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}
std::string read(const fs::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), {}};
}
}  // namespace

TEST(AtomicFile, NothingAppearsUnderTheFinalNameBeforeCommit) {
  const fs::path d = fresh_dir("commit");
  AtomicFile f((d / "out.csv").string());
  std::ofstream(f.temporary_path()) << "a,b\n";
  EXPECT_FALSE(fs::exists(d / "out.csv"));
  f.commit();
  EXPECT_EQ(read(d / "out.csv"), "a,b\n");
  EXPECT_FALSE(fs::exists(f.temporary_path()));
}

TEST(AtomicFile, AnUncommittedTemporaryIsRemovedAndTheOldFileKept) {
  const fs::path d = fresh_dir("abandon");
  std::ofstream(d / "out.csv") << "old\n";
  std::string temporary;
  {
    AtomicFile f((d / "out.csv").string());
    temporary = f.temporary_path();
    std::ofstream(temporary) << "half";
  }
  EXPECT_FALSE(fs::exists(temporary));
  EXPECT_EQ(read(d / "out.csv"), "old\n");
}

TEST(AtomicFile, CommitWithoutATemporaryIsAFileError) {
  const fs::path d = fresh_dir("missing");
  AtomicFile f((d / "never_written.h5").string());
  EXPECT_THROW(f.commit(), voltaic::io::FileError);
}

TEST(AtomicFile, CreateDirectoriesRefusesAFile) {
  const fs::path d = fresh_dir("dirs");
  std::ofstream(d / "plain") << "x";
  EXPECT_NO_THROW(voltaic::io::create_directories((d / "a" / "b").string()));
  EXPECT_THROW(voltaic::io::create_directories((d / "plain").string()), voltaic::io::FileError);
}
