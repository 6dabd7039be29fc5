// Rendering of a benchmark report as a table and as JSON.
#include "bench_result.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <ostream>
#include <utility>

namespace voltaic_bench {

namespace {

std::string format(const char* fmt, double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, value);
  return buf;
}

std::string pad_right(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string pad_left(std::string s, std::size_t width) {
  if (s.size() < width) s.insert(0, width - s.size(), ' ');
  return s;
}

std::string scalar_text(const nlohmann::ordered_json& j) { return j.is_string() ? j.get<std::string>() : j.dump(); }

bool all_scalars(const nlohmann::ordered_json& j) {
  for (const auto& e : j) {
    if (e.is_structured()) return false;
  }
  return true;
}

/// Writes every leaf of `j` as "prefix.key: value" (strings without quotes);
/// an array element made of scalars only goes on one line as "k=v k=v".
void flatten(const nlohmann::ordered_json& j, const std::string& prefix, std::ostream& out, bool in_array = false) {
  if (j.is_object() && in_array && all_scalars(j)) {
    out << "  " << prefix << ":";
    for (auto it = j.begin(); it != j.end(); ++it) out << ' ' << it.key() << '=' << scalar_text(it.value());
    out << '\n';
  } else if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
    }
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) flatten(j[i], prefix + "[" + std::to_string(i) + "]", out, true);
  } else {
    out << "  " << prefix << ": " << scalar_text(j) << '\n';
  }
}

}  // namespace

std::string format_17g(double value) { return format("%.17g", value); }

Variant make_variant(std::string name, std::string role, const TimingStats& timing, std::size_t bytes, double flops) {
  Variant v;
  v.name = std::move(name);
  v.role = std::move(role);
  v.timing = timing;
  v.bytes = bytes;
  v.flops = flops;
  v.gbps = timing.median_s > 0.0 ? static_cast<double>(bytes) / timing.median_s / 1e9 : 0.0;
  return v;
}

void BenchReport::add(std::string name, std::string role, const TimingStats& timing, std::size_t bytes, double flops) {
  variants.push_back(make_variant(std::move(name), std::move(role), timing, bytes, flops));
}

const Variant* BenchReport::find_role(const std::string& role) const {
  for (const Variant& v : variants) {
    if (v.role.find(role) != std::string::npos) return &v;
  }
  return nullptr;
}

void BenchReport::finish() {
  const Variant* ref = find_role("reference");
  copy_bandwidth_gbps = ref ? ref->gbps : 0.0;
  for (Variant& v : variants) v.fraction_of_copy = copy_bandwidth_gbps > 0.0 ? v.gbps / copy_bandwidth_gbps : 0.0;
}

nlohmann::ordered_json to_json(const BenchReport& r) {
  nlohmann::ordered_json j;
  j["benchmark"] = r.benchmark;
  j["device"] = r.device;
  j["backend"] = r.backend;
  j["precision"] = r.precision;
  j["size"] = r.size;
  if (r.size_unit != "elements") j["size_unit"] = r.size_unit;
  j["repeat"] = r.repeat;
  j["warmup"] = r.warmup;
  j["command_line"] = r.command_line;
  j["copy_bandwidth_GBps"] = r.copy_bandwidth_gbps;
  nlohmann::ordered_json variants = nlohmann::ordered_json::array();
  for (const Variant& v : r.variants) {
    variants.push_back({{"name", v.name},
                        {"role", v.role},
                        {"median_s", v.timing.median_s},
                        {"min_s", v.timing.min_s},
                        {"max_s", v.timing.max_s},
                        {"bytes", v.bytes},
                        {"GBps", v.gbps},
                        {"flops", v.flops},
                        {"fraction_of_copy_bandwidth", v.fraction_of_copy}});
  }
  j["variants"] = std::move(variants);
  j["notes"] = r.notes;
  for (auto it = r.extra.begin(); it != r.extra.end(); ++it) j[it.key()] = it.value();
  return j;
}

void print_table(const BenchReport& r, std::ostream& out) {
  bool bandwidth = r.copy_bandwidth_gbps > 0.0;
  for (const Variant& v : r.variants) bandwidth = bandwidth || v.bytes > 0;
  out << "voltaic-bench " << r.benchmark << "\n"
      << "  device:    " << r.device << " (" << r.backend << " backend)\n"
      << "  size:      " << r.size << " " << r.size_unit << ", " << r.precision << "\n"
      << "  timing:    median of " << r.repeat << " repetitions after " << r.warmup << " warm-up runs\n";
  if (bandwidth) out << "  copy bandwidth (reference): " << format("%.1f", r.copy_bandwidth_gbps) << " GB/s\n";
  out << '\n';

  std::size_t name_width = 7;
  for (const Variant& v : r.variants) name_width = std::max(name_width, v.name.size());
  name_width += 2;
  out << pad_right("variant", name_width) << pad_right("role", 20) << pad_left("median ms", 11)
      << pad_left("min ms", 11) << pad_left("max ms", 11);
  if (bandwidth) out << pad_left("GB/s", 10) << pad_left("% copy", 9);
  out << '\n' << std::string(name_width + 20 + 11 * 3 + (bandwidth ? 10 + 9 : 0), '-') << '\n';
  for (const Variant& v : r.variants) {
    out << pad_right(v.name, name_width) << pad_right(v.role, 20)
        << pad_left(format("%.4f", v.timing.median_s * 1e3), 11) << pad_left(format("%.4f", v.timing.min_s * 1e3), 11)
        << pad_left(format("%.4f", v.timing.max_s * 1e3), 11);
    if (bandwidth) {
      out << pad_left(format("%.1f", v.gbps), 10) << pad_left(format("%.1f", 100.0 * v.fraction_of_copy), 9);
    }
    out << '\n';
  }
  if (!r.notes.empty()) {
    out << "\nnotes:\n";
    for (const std::string& n : r.notes) out << "  " << n << '\n';
  }
  if (!r.extra.empty()) {
    out << "\ndetails:\n";
    flatten(r.extra, "", out);
  }
}

std::string host_cpu_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) break;
    const std::size_t begin = line.find_first_not_of(" \t", colon + 1);
    return begin == std::string::npos ? std::string("unknown") : line.substr(begin);
  }
  return "unknown";
}

}  // namespace voltaic_bench
