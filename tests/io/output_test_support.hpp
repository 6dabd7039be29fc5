#pragma once
/// @file output_test_support.hpp
/// @brief Temporary directories and small file helpers for the tests of the
/// output writers and checkpoints.

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <system_error>

namespace voltaic::test {

namespace fs = std::filesystem;

/// An empty directory of its own under the system's temporary directory,
/// removed with everything in it when the object goes; the process id keeps
/// concurrent test runs (other checkouts) apart. A path itself, so that
/// `dir / "name"` works.
class TempDir : public fs::path {
 public:
  explicit TempDir(const std::string& name)
      : fs::path(fs::temp_directory_path() / ("voltaic_" + name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(*this);
    fs::create_directories(*this);
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(*this, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

inline TempDir fresh_dir(const std::string& name) { return TempDir(name); }

/// Every entry of `dir` by name, hidden ones (temporaries) included.
inline std::set<std::string> entries_of(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

inline std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace voltaic::test
