#include <gtest/gtest.h>

#include <clocale>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "io/output_test_support.hpp"
#include "voltaic/io/output_writers.hpp"

using voltaic::io::FileError;
using voltaic::io::TimeseriesCsvWriter;
using voltaic::test::entries_of;
using voltaic::test::fresh_dir;
using voltaic::test::read_text;

namespace {

std::uint64_t bits(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<double> parse_row(const std::string& line) {
  std::vector<double> values;
  std::istringstream in(line);
  for (std::string cell; std::getline(in, cell, ',');) values.push_back(std::strtod(cell.c_str(), nullptr));
  return values;
}

}  // namespace

TEST(TimeseriesCsv, HeaderQuotesOnlyWhatNeedsIt) {
  const auto d = fresh_dir("csv_header");
  TimeseriesCsvWriter w((d / "timeseries.csv").string(),
                        {"Time [s]", "Voltage [V]", "a,b", "say \"hi\"", "Current [A]"});
  w.commit();
  EXPECT_EQ(read_text(d / "timeseries.csv"), "Time [s],Voltage [V],\"a,b\",\"say \"\"hi\"\"\",Current [A]\n");
}

TEST(TimeseriesCsv, ValuesReadBackBitForBit) {
  const auto d = fresh_dir("csv_values");
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> finite = {0.1,
                                      1.0 / 3.0,
                                      -0.0,
                                      4.9406564584124654e-324,  // smallest denormal
                                      2.2250738585072009e-308,  // largest denormal
                                      std::numeric_limits<double>::max(),
                                      -std::numeric_limits<double>::min(),
                                      123456789012345678.0,
                                      3600.0};
  {
    TimeseriesCsvWriter w((d / "t.csv").string(), std::vector<std::string>(finite.size(), "c"));
    w.append(finite);
    w.append(std::vector<double>(finite.size(), 2.5));
    w.commit();
  }
  const auto lines = lines_of(read_text(d / "t.csv"));
  ASSERT_EQ(lines.size(), 3u);
  const auto back = parse_row(lines[1]);
  ASSERT_EQ(back.size(), finite.size());
  for (std::size_t i = 0; i < finite.size(); ++i) EXPECT_EQ(bits(back[i]), bits(finite[i])) << lines[1];
  EXPECT_EQ(lines[1].substr(0, 20), "0.10000000000000001,");  // %.17g digits
  EXPECT_EQ(lines[2], "2.5,2.5,2.5,2.5,2.5,2.5,2.5,2.5,2.5");

  TimeseriesCsvWriter w((d / "n.csv").string(), {"a", "b", "c", "d"});
  w.append({std::nan(""), -std::nan(""), inf, -inf});
  w.commit();
  EXPECT_EQ(lines_of(read_text(d / "n.csv"))[1], "nan,nan,inf,-inf");
}

TEST(TimeseriesCsv, IgnoresTheNumericLocale) {
  const std::string old = std::setlocale(LC_NUMERIC, nullptr);
  if (std::setlocale(LC_NUMERIC, "de_DE.UTF-8") == nullptr) GTEST_SKIP() << "no de_DE.UTF-8 locale";
  const auto d = fresh_dir("csv_locale");
  {
    TimeseriesCsvWriter w((d / "t.csv").string(), {"x"});
    w.append({0.5});
    w.commit();
  }
  std::setlocale(LC_NUMERIC, old.c_str());
  EXPECT_EQ(read_text(d / "t.csv"), "x\n0.5\n");
}

TEST(TimeseriesCsv, RowsReachTheTemporaryAsTheyComeAndCommitRenames) {
  const auto d = fresh_dir("csv_commit");
  TimeseriesCsvWriter w((d / "timeseries.csv").string(), {"Time [s]", "Voltage [V]"});
  w.append({0.0, 4.2});
  EXPECT_EQ(entries_of(d), std::set<std::string>{".timeseries.csv.part"});
  EXPECT_EQ(read_text(d / ".timeseries.csv.part"), "Time [s],Voltage [V]\n0,4.2000000000000002\n");
  w.commit();
  EXPECT_EQ(entries_of(d), std::set<std::string>{"timeseries.csv"});
  EXPECT_THROW(w.append({1.0, 4.1}), FileError);
  EXPECT_THROW(w.commit(), FileError);
}

TEST(TimeseriesCsv, AbandonedWriterLeavesNoFile) {
  const auto d = fresh_dir("csv_abandon");
  {
    TimeseriesCsvWriter w((d / "timeseries.csv").string(), {"Time [s]"});
    w.append({1.0});
  }
  EXPECT_TRUE(entries_of(d).empty());
}

TEST(TimeseriesCsv, RowOfTheWrongLengthIsRefused) {
  const auto d = fresh_dir("csv_length");
  TimeseriesCsvWriter w((d / "t.csv").string(), {"a", "b"});
  EXPECT_THROW(w.append({1.0}), voltaic::SizeMismatch);
  w.append({1.0, 2.0});  // the writer is still usable
  w.commit();
  EXPECT_EQ(read_text(d / "t.csv"), "a,b\n1,2\n");
}

TEST(TimeseriesCsv, UncreatableFileIsAFileErrorNamingThePath) {
  const auto d = fresh_dir("csv_missing_dir");
  const std::string path = (d / "no_such_dir" / "timeseries.csv").string();
  try {
    TimeseriesCsvWriter w(path, {"a"});
    FAIL() << "no exception";
  } catch (const FileError& e) {
    EXPECT_NE(std::string(e.what()).find("no_such_dir"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
  }
  EXPECT_TRUE(entries_of(d).empty());
}
