// Fast charging and lithium plating: the config's cell (OKane2022 with SEI
// growth and partially reversible plating) cycled with its charge step at
// every C-rate of [fast_charge] at every ambient temperature, each pair a
// Simulation of its own, the pairs on CPU threads. Writes every cycle's
// summary of every pair to cycles.csv, and each pair's plating onset (the
// first cycle whose lithium lost to plating reaches onset_threshold % of the
// initial lithium inventory) to onset.csv, and prints the onsets as a C-rate x
// temperature table. plot.py draws both files.
//
//   voltaic-fast-charge [CONFIG.toml] [OUTPUT_DIR]
#include <toml++/toml.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <numeric>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "voltaic/io/atomic_file.hpp"
#include "voltaic/io/config.hpp"
#include "voltaic/model/parameter_table.hpp"
#include "voltaic/voltaic.hpp"

namespace {

/// The study's own keys, [fast_charge] of the config.
struct Study {
  std::vector<double> c_rates;       // of the charge step
  std::vector<double> temperatures;  // [K] ambient, and the cell's at t = 0
  double onset_threshold = 0.5;      // [%] of the initial lithium inventory lost to plating
  unsigned threads = 0;              // 0: every hardware thread
};

/// One C-rate at one temperature, and what its run did.
struct Pair {
  double c_rate = 0.0, temperature = 0.0;
  std::vector<voltaic::CycleSummary> cycles;
  bool completed = false;
  std::string termination;
  double seconds = 0.0;  // wall time
};

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) throw std::runtime_error(path + ": cannot be read");
  return text.str();
}

int line_of(const toml::node& n) { return static_cast<int>(n.source().begin.line); }

/// A list of finite numbers > 0 (at least one), at fast_charge.KEY.
std::vector<double> positive_numbers(const toml::table& t, const std::string& key, const std::string& file) {
  const toml::node* n = t.get(key);
  const std::string where = "fast_charge." + key, allowed = "; allowed: a list of numbers > 0";
  if (!n) throw voltaic::io::ConfigError(file, line_of(t), where, "is missing" + allowed);
  const toml::array* a = n->as_array();
  if (!a || a->empty()) throw voltaic::io::ConfigError(file, line_of(*n), where, "is not a list of numbers" + allowed);
  std::vector<double> out;
  for (const toml::node& e : *a) {
    const std::optional<double> v = e.value<double>();
    if (!v || !std::isfinite(*v) || *v <= 0)
      throw voltaic::io::ConfigError(file, line_of(e), where, "has an entry that is not a number > 0" + allowed);
    out.push_back(*v);
  }
  return out;
}

/// Reads [fast_charge], the keys the library's reader does not know.
Study read_study(const toml::table& t, const std::string& file) {
  for (auto&& [key, node] : t)
    if (key.str() != "c_rates" && key.str() != "ambient_temperatures" && key.str() != "onset_threshold" &&
        key.str() != "threads")
      throw voltaic::io::ConfigError(file, line_of(node), "fast_charge." + std::string(key.str()),
                                     "unknown key; allowed: c_rates, ambient_temperatures, onset_threshold, threads");
  Study s;
  s.c_rates = positive_numbers(t, "c_rates", file);
  s.temperatures = positive_numbers(t, "ambient_temperatures", file);
  if (const toml::node* n = t.get("onset_threshold")) {
    const std::optional<double> v = n->value<double>();
    if (!v || !std::isfinite(*v) || *v <= 0 || *v >= 100)
      throw voltaic::io::ConfigError(file, line_of(*n), "fast_charge.onset_threshold",
                                     "is not a number in (0, 100); allowed: a percentage of the lithium inventory");
    s.onset_threshold = *v;
  }
  if (const toml::node* n = t.get("threads")) {
    const std::optional<int64_t> v = n->is_integer() ? n->value<int64_t>() : std::nullopt;
    if (!v || *v < 0 || *v > 1024)
      throw voltaic::io::ConfigError(file, line_of(*n), "fast_charge.threads",
                                     "is not an integer in [0, 1024]; allowed: 0 (every hardware thread) or a count");
    s.threads = static_cast<unsigned>(*v);
  }
  return s;
}

/// The start of a "Charge at <x>C ..." step: each pair charges at its own C-rate.
const std::regex& charge_step() {
  static const std::regex r(R"(^Charge at [0-9.]+([eE][-+]?[0-9]+)?C)");
  return r;
}

/// The cycle's steps with every "Charge at <x>C" step charging at `rate`.
std::vector<std::string> charge_at(const std::vector<std::string>& steps, double rate) {
  char with[64];
  std::snprintf(with, sizeof with, "Charge at %gC", rate);
  std::vector<std::string> out;
  for (const std::string& s : steps) out.push_back(std::regex_replace(s, charge_step(), with));
  return out;
}

/// The config: a run config plus [fast_charge]. The library's reader refuses
/// sections it does not know, so it gets the text with the lines of
/// [fast_charge] blanked: its messages keep their line numbers.
std::pair<Study, voltaic::io::RunConfig> load_study(const std::string& path) {
  std::string text = read_text(path);
  toml::table doc;
  try {
    doc = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    throw voltaic::io::ConfigError(path, static_cast<int>(e.source().begin.line), "syntax",
                                   std::string(e.description()));
  }
  const toml::table* t = doc["fast_charge"].as_table();
  if (!t)
    throw voltaic::io::ConfigError(path, 1, "fast_charge",
                                   "missing section [fast_charge]; allowed: c_rates, ambient_temperatures, ...");
  const Study study = read_study(*t, path);

  std::vector<bool> blank;  // by line, from 1
  auto cover = [&blank](toml::source_index first, toml::source_index last) {
    if (blank.size() <= last) blank.resize(last + 1);
    for (auto l = first; l <= last; ++l) blank[l] = true;
  };
  cover(t->source().begin.line, t->source().end.line);  // the header, or an inline table
  for (auto&& [key, node] : *t) cover(key.source().begin.line, node.source().end.line);
  std::istringstream lines(text);
  std::string kept, line;
  for (std::size_t l = 1; std::getline(lines, line); ++l) kept += (l < blank.size() && blank[l] ? "" : line) + "\n";

  const std::string dir = std::filesystem::path(path).parent_path().string();
  voltaic::io::RunConfig config = voltaic::io::parse_config(kept, path, dir.empty() ? "." : dir);
  const std::vector<std::string>& steps = config.experiment_steps;
  if (std::none_of(steps.begin(), steps.end(),
                   [](const std::string& s) { return std::regex_search(s, charge_step()); })) {
    const toml::node* n = doc.at_path("experiment.steps").node();
    throw voltaic::io::ConfigError(path, n ? line_of(*n) : 1, "experiment.steps",
                                   "no step 'Charge at <x>C ...' to charge at the C-rates of [fast_charge]; allowed: "
                                   "steps with one such step, e.g. \"Charge at 1C until 4.2 V\"");
  }
  return {study, config};
}

/// Lithium lost to plating (plated and dead) as a percentage of the initial
/// lithium inventory, the basis of "Loss of lithium inventory [%]".
double plating_percent(const voltaic::CycleSummary& c) {
  const double initial = c.particle_lithium / (1.0 - c.lithium_inventory_lost_percent / 100.0);
  return 100.0 * c.plating_lithium_lost / initial;
}

/// The first cycle whose plating loss reaches the threshold, or 0.
int onset_cycle(const Pair& p, double threshold) {
  for (const voltaic::CycleSummary& c : p.cycles)
    if (plating_percent(c) >= threshold) return c.cycle;
  return 0;
}

void run_pair(const voltaic::io::RunConfig& config, Pair& pair) {
  const auto start = std::chrono::steady_clock::now();
  try {
    voltaic::io::RunConfig c = config;
    c.experiment_steps = charge_at(config.experiment_steps, pair.c_rate);
    voltaic::set_parameter(c.parameters, "Ambient temperature [K]", pair.temperature);
    voltaic::set_parameter(c.parameters, "Initial temperature [K]", pair.temperature);
    c.parameters.validate();
    voltaic::Simulation sim(c.parameters, c.simulation, voltaic::CpuExecutor::create());
    voltaic::Solution s = sim.run(c.experiment());
    pair.cycles = std::move(s.cycles);
    pair.completed = s.completed;
    pair.termination = s.termination;
  } catch (const std::exception& e) {  // one pair that cannot run does not stop the others
    pair.completed = false;
    pair.termination = e.what();
  }
  pair.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Runs every pair, the hardest first (fastest charge, coldest) so that no
/// long one starts last. Separate Simulations may run on separate threads.
void run_all(const voltaic::io::RunConfig& config, std::vector<Pair>& pairs, unsigned threads) {
  std::vector<std::size_t> order(pairs.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return pairs[a].c_rate != pairs[b].c_rate ? pairs[a].c_rate > pairs[b].c_rate
                                              : pairs[a].temperature < pairs[b].temperature;
  });
  std::atomic<std::size_t> next{0};
  std::mutex print;
  auto work = [&] {
    for (std::size_t k; (k = next++) < order.size();) {
      Pair& p = pairs[order[k]];
      run_pair(config, p);
      const std::lock_guard<std::mutex> lock(print);
      std::printf("%gC at %g K: %zu cycles in %.1f s", p.c_rate, p.temperature, p.cycles.size(), p.seconds);
      if (!p.cycles.empty())
        std::printf(", plating %.4f %% of the lithium, capacity %.4f A.h", plating_percent(p.cycles.back()),
                    p.cycles.back().capacity);
      std::printf("%s%s\n", p.completed ? "" : ", stopped: ", p.completed ? "" : p.termination.c_str());
      std::fflush(stdout);
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
}

/// The shortest of 15 to 17 digits that reads back to the same double.
std::string number(double v) {
  char s[32];
  for (int digits = 15; digits <= 17; ++digits) {
    std::snprintf(s, sizeof s, "%.*g", digits, v);
    if (std::strtod(s, nullptr) == v) break;
  }
  return s;
}

std::string quoted(const std::string& s) {
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c == '\n' ? ' ' : c);
  return q + "\"";
}

/// One row per pair per cycle: the pair, the library's summary, plating's share.
std::string cycles_csv(const std::vector<Pair>& pairs) {
  std::string csv = "C-rate,Ambient temperature [K]";
  for (const std::string& n : voltaic::CycleSummary::names()) csv += "," + n;
  csv += ",Loss of lithium to plating [%]\n";
  for (const Pair& p : pairs)
    for (const voltaic::CycleSummary& c : p.cycles) {
      csv += number(p.c_rate) + "," + number(p.temperature);
      for (double v : c.values()) csv += "," + number(v);
      csv += "," + number(plating_percent(c)) + "\n";
    }
  return csv;
}

/// One row per pair; the onset is empty where the threshold was not reached.
std::string onset_csv(const std::vector<Pair>& pairs, double threshold, int cycles) {
  std::string csv =
      "C-rate,Ambient temperature [K],Onset threshold [%],Onset cycle,Cycles,Cycles run,"
      "Loss of lithium to plating [%],Capacity [A.h],Completed,Termination\n";
  for (const Pair& p : pairs) {
    const int onset = onset_cycle(p, threshold);
    csv += number(p.c_rate) + "," + number(p.temperature) + "," + number(threshold) + "," +
           (onset ? std::to_string(onset) : "") + "," + std::to_string(cycles) + "," + std::to_string(p.cycles.size()) +
           ",";
    csv += p.cycles.empty() ? ",,"
                            : number(plating_percent(p.cycles.back())) + "," + number(p.cycles.back().capacity) + ",";
    csv += std::string(p.completed ? "true" : "false") + "," + quoted(p.termination) + "\n";
  }
  return csv;
}

/// Onsets by C-rate (rows) and temperature (columns): the cycle, "none" when
/// every cycle ran below the threshold, ">N" when the run ended after N
/// cycles without reaching it.
void print_onsets(const Study& study, const std::vector<Pair>& pairs, int cycles) {
  std::printf("\nPlating onset: the first cycle whose lithium lost to plating reaches %g %% of the lithium inventory\n",
              study.onset_threshold);
  std::printf("%8s", "C-rate");
  for (double t : study.temperatures) std::printf(" %10g K", t);
  std::printf("\n");
  for (std::size_t r = 0; r < study.c_rates.size(); ++r) {
    std::printf("%7gC", study.c_rates[r]);
    for (std::size_t k = 0; k < study.temperatures.size(); ++k) {
      const Pair& p = pairs[r * study.temperatures.size() + k];
      const int onset = onset_cycle(p, study.onset_threshold);
      const int ran = static_cast<int>(p.cycles.size());
      const std::string cell = onset ? std::to_string(onset) : ran < cycles ? ">" + std::to_string(ran) : "none";
      std::printf(" %12s", cell.c_str());
    }
    std::printf("\n");
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    auto [study, config] = load_study(argc > 1 ? argv[1] : "config.toml");
    const std::string dir = argc > 2 ? argv[2] : config.output.directory;
    std::vector<Pair> pairs;  // C-rate slowest, temperature fastest
    for (double rate : study.c_rates)
      for (double t : study.temperatures) {
        pairs.emplace_back();
        pairs.back().c_rate = rate;
        pairs.back().temperature = t;
      }
    const unsigned threads = std::min<unsigned>(
        study.threads ? study.threads : std::max(1u, std::thread::hardware_concurrency()), pairs.size());
    std::printf("%zu pairs (C-rate x temperature), %d cycles each, %s, on %u CPU thread%s\n", pairs.size(),
                config.cycles, voltaic::describe(config.simulation.degradation).c_str(), threads,
                threads == 1 ? "" : "s");

    const auto start = std::chrono::steady_clock::now();
    run_all(config, pairs, threads);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    print_onsets(study, pairs, config.cycles);

    voltaic::io::create_directories(dir);
    voltaic::io::write_file_atomically(dir + "/cycles.csv", cycles_csv(pairs));
    voltaic::io::write_file_atomically(dir + "/onset.csv", onset_csv(pairs, study.onset_threshold, config.cycles));
    std::printf("\n%.1f s; wrote %s/cycles.csv and %s/onset.csv\n", seconds, dir.c_str(), dir.c_str());
    const bool all = std::all_of(pairs.begin(), pairs.end(), [](const Pair& p) { return p.completed; });
    return all ? 0 : 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
