// voltaic params [NAME]: the built-in parameter sets, or one set (built-in
// or from a BPX file) with every value and unit.
#include <algorithm>
#include <cstdio>
#include <string>

#include "commands.hpp"
#include "voltaic/io/atomic_file.hpp"
#include "voltaic/io/bpx.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/model/parameter_table.hpp"

namespace voltaic::cli {

namespace {

bool looks_like_file(const std::string& name) {
  return name.find('/') != std::string::npos || name.find(".json") != std::string::npos;
}

void print_set(const std::string& title, const ParameterSet& p) {
  std::printf("%s\n\n", title.c_str());
  std::size_t width = 0;
  for (const ParameterInfo& info : parameter_table()) width = std::max(width, info.name.size());
  for (const ParameterInfo& info : parameter_table())
    std::printf("  %-*s  %s\n", static_cast<int>(width), info.name.c_str(),
                format_parameter_value(info.get(p)).c_str());
  std::printf("\nfunctions:\n");
  for (const FunctionInfo& info : function_table())
    std::printf("  %-*s  %s\n", static_cast<int>(width), info.name.c_str(), info.selected(p).c_str());
}

}  // namespace

int params_command(const std::string& name) {
  if (name.empty()) {
    std::printf("built-in parameter sets (voltaic params NAME prints one; a BPX file's path works too):\n");
    for (const std::string& n : parameter_sets::parameter_set_names()) std::printf("  %s\n", n.c_str());
    return kSuccess;
  }
  try {
    if (looks_like_file(name)) {
      print_set("BPX file " + name, io::load_bpx(name));
    } else {
      print_set("parameter set " + name, parameter_sets::by_name(name));
    }
  } catch (const Error& e) {  // unknown name, unreadable or bad BPX file
    std::fprintf(stderr, "voltaic: error: %s\n", e.what());
    return kBadInput;
  }
  return kSuccess;
}

}  // namespace voltaic::cli
