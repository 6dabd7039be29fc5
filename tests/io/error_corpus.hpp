#pragma once
// A corpus of malformed inputs (tests/data/bad_*): each file with the
// substring of the one-line error it must give, listed in the corpus's
// expected.txt as "file<TAB>substring".

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace voltaic::test {

/// expected.txt of `dir`: file -> substring of its error, "DIR/" standing for
/// `dir` itself (messages name the tables a file refers to by their path).
inline std::vector<std::pair<std::string, std::string>> read_expected_errors(const std::filesystem::path& dir) {
  std::vector<std::pair<std::string, std::string>> rows;
  std::ifstream in(dir / "expected.txt");
  EXPECT_TRUE(in) << dir / "expected.txt";
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::size_t tab = line.find('\t');
    EXPECT_NE(tab, std::string::npos) << line;
    if (tab == std::string::npos) continue;
    std::string expected = line.substr(tab + 1);
    for (std::size_t at; (at = expected.find("DIR/")) != std::string::npos;)
      expected.replace(at, 4, dir.string() + "/");
    rows.emplace_back(line.substr(0, tab), expected);
  }
  return rows;
}

/// Every `extension` file of `dir` has a row, and every row a file.
inline void expect_every_file_listed(const std::filesystem::path& dir,
                                     const std::vector<std::pair<std::string, std::string>>& rows,
                                     const std::string& extension = ".toml") {
  std::set<std::string> listed;
  for (const auto& row : rows) listed.insert(row.first);
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == extension) {
      EXPECT_EQ(listed.count(entry.path().filename().string()), 1u) << entry;
    }
  }
  for (const std::string& f : listed) EXPECT_TRUE(std::filesystem::exists(dir / f)) << f;
}

}  // namespace voltaic::test
