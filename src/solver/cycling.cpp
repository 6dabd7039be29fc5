// PyBaMM's cycling termination strings and its save_at_cycles rule.
#include "voltaic/solver/cycling.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "voltaic/core/error.hpp"

namespace voltaic {
namespace {

constexpr const char* kAllowed = "allowed: \"<x>% capacity\", \"<x> A.h capacity\" or \"<x> V\", x > 0";

/// The leading number of `s` and the rest, trimmed; false without a positive finite number.
bool number_then(const std::string& s, double& value, std::string& rest) {
  const char* begin = s.c_str();
  char* end = nullptr;
  value = std::strtod(begin, &end);
  if (end == begin || !std::isfinite(value) || !(value > 0.0)) return false;
  rest = std::string(end);
  rest.erase(0, rest.find_first_not_of(' '));
  rest.erase(rest.find_last_not_of(' ') + 1);
  return true;
}

}  // namespace

std::string CycleTermination::text() const {
  std::ostringstream t;
  const char* sep = "";
  if (capacity_percent) {
    t << *capacity_percent << "% capacity";
    sep = ", ";
  }
  if (capacity_ah) {
    t << sep << *capacity_ah << " A.h capacity";
    sep = ", ";
  }
  if (voltage) t << sep << *voltage << " V";
  return t.str();
}

CycleTermination parse_cycle_termination(const std::vector<std::string>& conditions) {
  CycleTermination t;
  for (const std::string& c : conditions) {
    double v = 0.0;
    std::string rest;
    const bool number = number_then(c, v, rest);
    if (number && rest == "% capacity" && v <= 100.0) {
      t.capacity_percent = v;
    } else if (number && (rest == "A.h capacity" || rest == "Ah capacity")) {
      t.capacity_ah = v;
    } else if (number && rest == "V") {
      t.voltage = v;
    } else {
      throw InvalidArgument("termination \"" + c + "\"", "voltaic::parse_cycle_termination",
                            std::string("is not one PyBaMM reads; ") + kAllowed + " (a percentage at most 100)");
    }
  }
  return t;
}

CycleSaving CycleSaving::every_nth(int n) {
  if (n < 1) throw InvalidArgument("save_at_cycles", "CycleSaving::every_nth", std::to_string(n) + " must be >= 1");
  CycleSaving s;
  s.all = false;
  s.every = n;
  return s;
}

CycleSaving CycleSaving::listed(std::vector<int> cycles) {
  for (int c : cycles)
    if (c < 1) throw InvalidArgument("save_at_cycles", "CycleSaving::listed", std::to_string(c) + " must be >= 1");
  CycleSaving s;
  s.all = false;
  s.cycles = std::move(cycles);
  return s;
}

bool CycleSaving::saved(int cycle, int last) const {
  return all || cycle == 1 || cycle == last || (every > 0 && cycle % every == 0) ||
         std::find(cycles.begin(), cycles.end(), cycle) != cycles.end();
}

}  // namespace voltaic
