// load_drive_cycle: the file is read as an InputFile (a regular file of sane
// size: a FIFO would block the open, a device never end), then line by line;
// every problem names FILE:LINE.
#include "voltaic/io/drive_cycle_file.hpp"

#include <charconv>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "io/input_file.hpp"
#include "voltaic/io/atomic_file.hpp"
#include "voltaic/model/parameter_table.hpp"

namespace voltaic::io {

namespace {

constexpr const char* kWhere = "voltaic::io::load_drive_cycle";
constexpr const char* kAllowedRow = "allowed: two numbers, time [s] and value [A] or [W], separated by a comma";

std::string_view trim(std::string_view s) {
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

/// The whole of `s` as a number (a leading '+' allowed), in the C locale's
/// spelling whatever the process's locale is.
bool parse_number(std::string_view s, double& value) {
  if (s.size() > 1 && s[0] == '+' && s[1] != '-') s.remove_prefix(1);
  if (s.empty()) return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  return ec == std::errc() && end == s.data() + s.size();
}

/// `s` quoted for a message: on one line and cut after 60 characters.
std::string quoted(std::string_view s) {
  std::string text = one_line(std::string(s.substr(0, 60)));
  return "'" + text + (s.size() > 60 ? "...'" : "'");
}

class Reader {
 public:
  Reader(const std::string& origin, const std::string& name) : origin_(origin), name_(name) {}

  void line(std::string_view text, int number) {
    line_ = number;
    if (number == 1 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // a UTF-8 byte-order mark
    if (const std::size_t hash = text.find('#'); hash != std::string_view::npos) text = text.substr(0, hash);
    text = trim(text);
    if (text.empty()) return;
    std::vector<std::string_view> fields;
    for (std::size_t start = 0;;) {
      const std::size_t comma = text.find(',', start);
      fields.push_back(trim(text.substr(start, comma == std::string_view::npos ? comma : comma - start)));
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    double time = 0.0, value = 0.0;
    const bool first_is_number = parse_number(fields[0], time);
    if (!first_is_number && !seen_content_) {  // a header: "Time [s], Current [A]"
      seen_content_ = true;
      return;
    }
    seen_content_ = true;
    if (fields.size() != 2) {
      const std::string hint = fields.size() == 1 && text.find_first_of(" \t") != std::string_view::npos
                                   ? " (separate them by a comma)"
                                   : "";
      fail(quoted(text) + " has " + std::to_string(fields.size()) + (fields.size() == 1 ? " field" : " fields") + hint +
           "; " + kAllowedRow);
    }
    if (!first_is_number) fail("the time " + quoted(fields[0]) + " is not a number; " + kAllowedRow);
    if (!parse_number(fields[1], value)) fail("the value " + quoted(fields[1]) + " is not a number; " + kAllowedRow);
    if (!std::isfinite(time)) fail("the time is " + format_parameter_value(time) + "; allowed: a finite number [s]");
    if (!std::isfinite(value)) {
      fail("the value is " + format_parameter_value(value) + "; allowed: a finite number [A] or [W]");
    }
    if (times_.empty() && time != 0.0) {
      fail("the first time is " + format_parameter_value(time) + "; allowed: 0 (a drive cycle starts with its step)");
    }
    if (!times_.empty() && !(time > times_.back())) {
      fail("the time " + format_parameter_value(time) + " is not after that of line " + std::to_string(last_row_) +
           " (" + format_parameter_value(times_.back()) + "); allowed: strictly increasing times");
    }
    times_.push_back(time);
    values_.push_back(value);
    last_row_ = number;
  }

  DriveCycle finish() {
    if (times_.size() < 2) {
      line_ = times_.empty() ? 1 : last_row_;
      fail(times_.empty() ? std::string("holds no rows") : std::string("holds 1 row"),
           "; allowed: at least 2 rows of time [s], value");
    }
    return DriveCycle(name_, std::move(times_), std::move(values_));
  }

 private:
  [[noreturn]] void fail(const std::string& why, const std::string& allowed = "") const {
    throw InvalidArgument(one_line(origin_) + ":" + std::to_string(line_), kWhere, why + allowed);
  }

  const std::string& origin_;
  const std::string& name_;
  int line_ = 1, last_row_ = 0;
  bool seen_content_ = false;
  std::vector<double> times_, values_;
};

}  // namespace

DriveCycle parse_drive_cycle(const std::string& csv_text, const std::string& origin, const std::string& name) {
  Reader reader(origin, name);
  int number = 1;
  for (std::size_t start = 0; start < csv_text.size(); ++number) {
    const std::size_t end = csv_text.find('\n', start);
    const std::size_t stop = end == std::string::npos ? csv_text.size() : end;
    reader.line(std::string_view(csv_text).substr(start, stop - start), number);
    start = stop + 1;
  }
  return reader.finish();
}

DriveCycle load_drive_cycle(const std::filesystem::path& file, const std::string& name) {
  const std::string text = detail::read_input_file(file.string(), kMaxDriveCycleBytes, kWhere,
                                                   "a regular file holding a CSV drive-cycle table");
  return parse_drive_cycle(text, file.string(), name);
}

}  // namespace voltaic::io
