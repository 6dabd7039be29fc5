// load_drive_cycle: the file is read as an InputFile (a regular file of sane
// size: a FIFO would block the open, a device never end), then line by line;
// every problem names FILE:LINE.
#include "voltaic/io/drive_cycle_file.hpp"

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "io/csv_text.hpp"
#include "io/input_file.hpp"
#include "voltaic/io/atomic_file.hpp"
#include "voltaic/model/parameter_table.hpp"
#include "voltaic/solver/experiment.hpp"

namespace voltaic::io {

namespace {

using detail::excerpt;
using detail::parse_number;
using detail::trim_blanks;
using detail::why_not_a_number;

constexpr const char* kWhere = "voltaic::io::load_drive_cycle";
constexpr const char* kAllowedRow = "allowed: two numbers, time [s] and value [A] or [W], separated by a comma";

class Reader {
 public:
  Reader(const std::string& origin, const std::string& name) : origin_(origin), name_(name) {}

  void line(std::string_view text, int number) {
    line_ = number;
    if (const std::size_t hash = text.find('#'); hash != std::string_view::npos) text = text.substr(0, hash);
    text = trim_blanks(text);
    if (text.empty()) return;
    std::vector<std::string_view> fields;
    for (std::size_t start = 0;;) {
      const std::size_t comma = text.find(',', start);
      fields.push_back(trim_blanks(text.substr(start, comma == std::string_view::npos ? comma : comma - start)));
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    double time = 0.0, value = 0.0;
    const bool first_is_number = parse_number(fields[0], time);
    const bool huge = !first_is_number && why_not_a_number(fields[0]) != "is not a number";
    if (!first_is_number && !huge && !seen_content_) {  // a header: "Time [s], Current [A]"
      seen_content_ = true;
      return;
    }
    seen_content_ = true;
    if (fields.size() != 2) {
      const std::string hint = fields.size() == 1 && text.find_first_of(" \t") != std::string_view::npos
                                   ? " (separate them by a comma)"
                                   : "";
      fail(excerpt(text) + " has " + std::to_string(fields.size()) + (fields.size() == 1 ? " field" : " fields") +
           hint + "; " + kAllowedRow);
    }
    if (!first_is_number)
      fail("the time " + excerpt(fields[0]) + " " + why_not_a_number(fields[0]) + "; " + kAllowedRow);
    if (!parse_number(fields[1], value))
      fail("the value " + excerpt(fields[1]) + " " + why_not_a_number(fields[1]) + "; " + kAllowedRow);
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
    if (!times_.empty() && time - times_.back() < kStepLimits.duration.min) {
      fail("the time " + format_parameter_value(time) + " is " + format_parameter_value(time - times_.back()) +
           " s after that of line " + std::to_string(last_row_) + "; allowed: " +
           format_parameter_value(kStepLimits.duration.min) + " s or more (a step change is two rows close together)");
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
  detail::for_each_line(csv_text, [&](std::string_view text, int number) { reader.line(text, number); });
  return reader.finish();
}

DriveCycle load_drive_cycle(const std::filesystem::path& file, const std::string& name) {
  const std::string text = detail::read_input_file(file.string(), kMaxDriveCycleBytes, kWhere,
                                                   "a regular file holding a CSV drive-cycle table");
  return parse_drive_cycle(text, file.string(), name);
}

}  // namespace voltaic::io
