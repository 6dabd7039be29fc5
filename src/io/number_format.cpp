#include "number_format.hpp"

#include <charconv>
#include <cmath>

namespace voltaic::io {

namespace {

/// Appends NaN or an infinity and returns true; false for a finite value.
bool append_special(std::string& out, double value) {
  if (std::isnan(value)) {
    out += "nan";  // one spelling: readers (pandas, numpy) do not take "-nan"
    return true;
  }
  if (std::isinf(value)) {
    out += value < 0 ? "-inf" : "inf";
    return true;
  }
  return false;
}

}  // namespace

void append_double(std::string& out, double value) {
  if (append_special(out, value)) return;
  // 17 significant digits always identify a double; general format is %g.
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, 17);
  out.append(buffer, result.ptr);
}

void append_shortest(std::string& out, double value) {
  if (append_special(out, value)) return;
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

std::string format_double(double value) {
  std::string text;
  append_double(text, value);
  return text;
}

}  // namespace voltaic::io
