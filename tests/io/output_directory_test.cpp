// OutputDirectory: one run per directory, files staged and published as a
// set, and a publish that cannot replace a target changing nothing.
#include "voltaic/io/output_directory.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace voltaic::io {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("voltaic_output_directory_" + name);
  fs::remove_all(d);
  return d;
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), {}};
}

void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

const std::vector<std::string> kSet = {"a.csv", "b.h5", "c.h5"};

TEST(OutputDirectory, PublishReplacesTheEarlierSetAsAWhole) {
  const fs::path d = fresh_dir("publish");
  fs::create_directories(d);
  for (const std::string& f : kSet) write(d / f, "old " + f);
  {
    OutputDirectory out(d.string());
    EXPECT_EQ(fs::path(out.staging_path()).parent_path(), d);
    write(out.staged("a.csv"), "new a");
    write(out.staged("b.h5"), "new b");
    EXPECT_EQ(read(d / "a.csv"), "old a.csv");  // nothing visible before publish
    out.publish({"a.csv", "b.h5"}, kSet);
    EXPECT_FALSE(fs::exists(out.staging_path()));
  }
  EXPECT_EQ(read(d / "a.csv"), "new a");
  EXPECT_EQ(read(d / "b.h5"), "new b");
  EXPECT_FALSE(fs::exists(d / "c.h5"));  // of the earlier set only: not left to mix in
}

TEST(OutputDirectory, ATargetInTheWayChangesNothingAndKeepsTheStagedFiles) {
  const fs::path d = fresh_dir("blocked");
  fs::create_directories(d / "b.h5");
  write(d / "a.csv", "old a");
  OutputDirectory out(d.string());
  write(out.staged("a.csv"), "new a");
  write(out.staged("b.h5"), "new b");
  try {
    out.publish({"a.csv", "b.h5"}, kSet);
    FAIL() << "published over a directory";
  } catch (const FileError& e) {
    EXPECT_NE(std::string(e.what()).find("b.h5': it is a directory"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(out.staging_path()), std::string::npos) << e.what();
  }
  EXPECT_EQ(read(d / "a.csv"), "old a");
  EXPECT_EQ(read(out.staged("a.csv")), "new a");
  EXPECT_EQ(read(out.staged("b.h5")), "new b");
}

TEST(OutputDirectory, ASecondHolderIsRefusedWithThePid) {
  const fs::path d = fresh_dir("lock");
  OutputDirectory first(d.string());
  // flock locks belong to the open file: a second open in this process conflicts as another process would.
  try {
    OutputDirectory second(d.string());
    FAIL() << "two holders of one directory";
  } catch (const OutputLocked& e) {
    EXPECT_NE(std::string(e.what()).find("pid " + std::to_string(getpid())), std::string::npos) << e.what();
  }
}

// A finished run leaves no lock file (issue 34: .voltaic.lock stayed in every
// finished directory), and the next run locks a new one; a file opened
// before the removal and locked after it is not the one at the path, which
// lock_directory checks (still_at) before it trusts a lock.
TEST(OutputDirectory, AFinishedRunLeavesNoLockFile) {
  const fs::path d = fresh_dir("lock_removed");
  const fs::path lock = d / OutputDirectory::kLockName;
  {
    OutputDirectory run(d.string());
    EXPECT_TRUE(fs::exists(lock));
    run.publish({}, kSet);
  }
  EXPECT_FALSE(fs::exists(lock));
  { std::ofstream(lock) << "0\n"; }  // as a killed run leaves it: no process holds it
  const int stale = open(lock.c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(stale, 0);
  fs::remove(lock);
  {
    const OutputDirectory next(d.string());
    ASSERT_TRUE(fs::exists(lock));
    EXPECT_EQ(flock(stale, LOCK_EX | LOCK_NB), 0);            // the removed file: its lock holds nothing
    EXPECT_THROW(OutputDirectory(d.string()), OutputLocked);  // the file at the path is held
  }
  close(stale);
  EXPECT_FALSE(fs::exists(lock));
}

TEST(OutputDirectory, AnAbandonedRunLeavesNothingAndTheNextOneIsTold) {
  const fs::path d = fresh_dir("abandon");
  std::string staging;
  {
    OutputDirectory out(d.string());
    staging = out.staging_path();
    write(out.staged("a.csv"), "half");
  }
  EXPECT_FALSE(fs::exists(staging));
  fs::create_directories(d / ".voltaic-run-killed");  // as a killed run leaves it
  const OutputDirectory next(d.string());
  ASSERT_EQ(next.leftovers().size(), 1u);
  EXPECT_EQ(fs::path(next.leftovers()[0]).filename(), ".voltaic-run-killed");
}

}  // namespace
}  // namespace voltaic::io
