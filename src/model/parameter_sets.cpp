// The published parameter sets by name.
#include "voltaic/model/parameter_sets.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "voltaic/core/error.hpp"

namespace voltaic::parameter_sets {

namespace {

struct Entry {
  const char* name;
  ParameterSet (*make)();
};

constexpr Entry kSets[] = {{"Chen2020", &chen2020}, {"Marquis2019", &marquis2019}, {"OKane2022", &okane2022}};

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

ParameterSet by_name(const std::string& name) {
  for (const Entry& e : kSets) {
    if (lower(e.name) == lower(name)) return e.make();
  }
  std::string available;
  for (const std::string& n : parameter_set_names()) available += (available.empty() ? "" : ", ") + n;
  throw InvalidArgument("parameter set '" + name + "'", "voltaic::parameter_sets::by_name",
                        "there is no parameter set named '" + name + "'; available: " + available);
}

std::vector<std::string> parameter_set_names() {
  std::vector<std::string> names;
  for (const Entry& e : kSets) names.emplace_back(e.name);
  return names;
}

}  // namespace voltaic::parameter_sets
