// [sweep]: the good configs of each method, the corpus of malformed ones
// (tests/data/bad_sweep_configs, each with its expected error), and the CSV
// table's format.
#include "voltaic/io/sweep_config.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "io/csv_text.hpp"
#include "io/error_corpus.hpp"
#include "io/sweep_sampling.hpp"
#include "io/sweep_table.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/io/config.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/model/parameter_table.hpp"

namespace fs = std::filesystem;
using voltaic::InvalidArgument;
using voltaic::io::ConfigError;
using voltaic::io::load_sweep_config;
using voltaic::io::parse_sweep_config;
using voltaic::io::SweepConfig;
using voltaic::io::SweepRunConfig;
using Kind = voltaic::io::detail::Distribution::Kind;

namespace {

const fs::path kGood = fs::path(VOLTAIC_TEST_DATA_DIR) / "configs";
const fs::path kBad = fs::path(VOLTAIC_TEST_DATA_DIR) / "bad_sweep_configs";

const std::string kBase =
    "[cell]\nparameter_set = \"Chen2020\"\n[experiment]\nsteps = [\"Discharge at 1C until 2.5 V\"]\n";
const std::string kThickness = "Negative electrode thickness [m]";
const std::string kRadius = "Positive particle radius [m]";

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

/// The message of the ConfigError that parse_sweep_config throws for kBase + `sweep` ("" if none).
std::string error_of(const std::string& sweep) {
  try {
    parse_sweep_config(kBase + sweep, "test.toml");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::vector<std::pair<std::string, std::string>> expected_errors() { return voltaic::test::read_expected_errors(kBad); }

/// `n` values 1, 2, ..., n as a TOML array.
std::string values_list(int n) {
  std::string s = "values = [";
  for (int i = 1; i <= n; ++i) s += (i == 1 ? "" : ", ") + std::to_string(i);
  return s + "]\n";
}

}  // namespace

TEST(SweepConfigGood, ListTakesEntryIOfEachList) {
  const SweepRunConfig c = load_sweep_config((kGood / "sweep_list.toml").string());
  EXPECT_EQ(c.sweep.method, SweepConfig::Method::list);
  EXPECT_EQ(c.sweep.cells.names, (std::vector<std::string>{kThickness, kRadius}));
  EXPECT_EQ(c.sweep.cells.values, (std::vector<double>{7e-5, 4e-6, 8.5e-5, 5e-6, 1e-4, 6e-6}));
  EXPECT_EQ(c.sweep.cells.num_cells(), 3u);
  // The rest is the run config, overrides included.
  EXPECT_EQ(c.run.parameters.separator.thickness, 1.5e-5);
  EXPECT_EQ(c.run.experiment_steps.size(), 1u);
  EXPECT_EQ(c.run.path, (kGood / "sweep_list.toml").string());
}

TEST(SweepConfigGood, GridVariesTheFirstParameterSlowest) {
  const SweepRunConfig c = load_sweep_config((kGood / "sweep_grid.toml").string());
  EXPECT_EQ(c.sweep.method, SweepConfig::Method::grid);
  EXPECT_EQ(c.sweep.cells.names, (std::vector<std::string>{kThickness, "Negative electrode porosity"}));
  EXPECT_EQ(c.sweep.cells.values,
            (std::vector<double>{7e-5, 0.2, 7e-5, 0.25, 8.5e-5, 0.2, 8.5e-5, 0.25, 1e-4, 0.2, 1e-4, 0.25}));
}

// The example sweeps (docs/config.md shows them) are cells that can run: each
// cell's parameters pass the checks a Simulation makes (issue 34: the grid
// example's porosity 0.3 beside Chen2020's active fraction 0.75 failed 3 of its
// 6 cells, the random one's porosities about 0.25 half of its 100).
TEST(SweepConfigGood, EveryCellOfTheExamplesIsAValidCell) {
  for (const char* file : {"sweep_list.toml", "sweep_grid.toml", "sweep_latin_hypercube.toml", "sweep_random.toml",
                           "sweep_table.toml", "sweep_power.toml", "sweep_drive_cycle.toml"}) {
    const SweepRunConfig c = load_sweep_config((kGood / file).string());
    const voltaic::CellParameters& cells = c.sweep.cells;
    for (std::size_t i = 0; i < cells.num_cells(); ++i) {
      voltaic::ParameterSet p = c.run.parameters;
      for (std::size_t k = 0; k < cells.names.size(); ++k)
        voltaic::find_parameter(cells.names[k])->set(p, cells.value(i, k));
      EXPECT_NO_THROW(p.validate()) << file << ", cell " << i;
    }
  }
}

TEST(SweepConfigGood, RandomDrawsWithTheSeedInTheFilesOrder) {
  const SweepRunConfig c = load_sweep_config((kGood / "sweep_random.toml").string());
  EXPECT_EQ(c.sweep.method, SweepConfig::Method::random);
  EXPECT_EQ(c.sweep.seed, 42u);
  EXPECT_EQ(c.sweep.cells.names,
            (std::vector<std::string>{"Negative particle diffusivity [m2.s-1]", "Negative electrode porosity"}));
  const std::vector<double> expected =
      voltaic::io::detail::sample_random({{Kind::log_uniform, 1e-14, 1e-13}, {Kind::normal, 0.22, 0.01}}, 100, 42);
  EXPECT_EQ(c.sweep.cells.values, expected);
  EXPECT_EQ(load_sweep_config((kGood / "sweep_random.toml").string()).sweep.cells.values, expected);
}

TEST(SweepConfigGood, LatinHypercubeSpreadsAroundTheCellsOwnValues) {
  const SweepRunConfig c = load_sweep_config((kGood / "sweep_latin_hypercube.toml").string());
  EXPECT_EQ(c.sweep.method, SweepConfig::Method::latin_hypercube);
  EXPECT_EQ(c.run.simulation.thermal, voltaic::ThermalModel::lumped);
  const double l = c.run.parameters.negative_electrode.thickness,
               r = c.run.parameters.positive_electrode.particle_radius;
  EXPECT_EQ(l, 8.52e-5);  // Chen2020's
  const std::vector<double> expected = voltaic::io::detail::sample_latin_hypercube(
      {{Kind::uniform, l * (1 - 0.2), l * (1 + 0.2)}, {Kind::normal, r, 0.05 * r}}, 50, 7);
  EXPECT_EQ(c.sweep.cells.values, expected);
  EXPECT_EQ(c.sweep.cells.num_cells(), 50u);
}

TEST(SweepConfigGood, TableReadsTheCsvBesideTheConfig) {
  const SweepRunConfig c = load_sweep_config((kGood / "sweep_table.toml").string());
  EXPECT_EQ(c.sweep.method, SweepConfig::Method::table);
  EXPECT_EQ(c.sweep.table_path, (kGood / "sweep_table.csv").lexically_normal().string());
  EXPECT_EQ(c.sweep.cells.names, (std::vector<std::string>{kThickness, kRadius}));
  EXPECT_EQ(c.sweep.cells.values, (std::vector<double>{7e-5, 4e-6, 8.5e-5, 5e-6, 1e-4, 6e-6}));
}

TEST(SweepConfigGood, EveryOneDimensionalRunConfigWithASweepIsAccepted) {
  for (const auto& entry : fs::directory_iterator(kGood)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".toml" || name.rfind("sweep_", 0) == 0) continue;
    SCOPED_TRACE(name);
    std::string text = read(entry.path());
    text +=
        "\n[sweep]\nmethod = \"list\"\n[sweep.parameters.\"Negative electrode double-layer capacity [F.m-2]\"]\n"
        "values = [0.1, 0.2]\n";
    const voltaic::io::RunConfig alone = voltaic::io::load_config(entry.path().string());
    if (alone.simulation.grid.nx * alone.simulation.grid.ny > 1) {  // a sweep's cells are 1D: refused at the key
      try {
        parse_sweep_config(text, name, entry.path().parent_path().string());
        ADD_FAILURE() << "a 3D grid accepted in a sweep";
      } catch (const ConfigError& e) {
        EXPECT_TRUE(has(e.what(), "grid.n")) << e.what();
      }
      continue;
    }
    const SweepRunConfig c = parse_sweep_config(text, name, entry.path().parent_path().string());
    EXPECT_EQ(c.run.cell_source, alone.cell_source);
    EXPECT_EQ(c.run.experiment_steps, alone.experiment_steps);
    EXPECT_EQ(c.sweep.cells.num_cells(), 2u);
  }
}

TEST(SweepConfigGood, TheFilesOrderWhateverTomlSortsAndDottedKeys) {
  // toml++ keeps keys sorted ("Negative..." before "Positive..."); the file's order is kept.
  const SweepRunConfig c = parse_sweep_config(kBase + "[sweep]\nmethod = \"list\"\n[sweep.parameters]\n\"" + kRadius +
                                                  "\".values = [1, 2]\n\"" + kThickness + "\" = { values = [3, 4] }\n",
                                              "inline");
  EXPECT_EQ(c.sweep.cells.names, (std::vector<std::string>{kRadius, kThickness}));
  EXPECT_EQ(c.sweep.cells.values, (std::vector<double>{1, 3, 2, 4}));
  EXPECT_EQ(c.sweep.seed, 1u);  // the default, unused by a list
}

TEST(SweepConfigGood, DefaultsAndShortcuts) {
  const std::string p = "[sweep.parameters.\"" + kThickness + "\"]\n";
  const SweepRunConfig c =
      parse_sweep_config(kBase + "[sweep]\nmethod = \"random\"\nsamples = 3\n" + p + "low = 1\nhigh = 2\n", "inline");
  EXPECT_EQ(c.sweep.seed, 1u);
  EXPECT_EQ(c.sweep.cells.values, voltaic::io::detail::sample_random({{Kind::uniform, 1, 2}}, 3, 1));
  // A normal spread and a log-uniform one around Chen2020's 8.52e-5 m.
  const SweepRunConfig n = parse_sweep_config(
      kBase + "[sweep]\nmethod = \"random\"\nsamples = 3\nseed = 0\n" + p + "distribution = \"normal\"\nspread = 0.1\n",
      "inline");
  EXPECT_EQ(n.sweep.cells.values, voltaic::io::detail::sample_random({{Kind::normal, 8.52e-5, 0.1 * 8.52e-5}}, 3, 0));
  const SweepRunConfig g = parse_sweep_config(
      kBase + "[sweep]\nmethod = \"random\"\nsamples = 3\n" + p + "distribution = \"log_uniform\"\nspread = 0.5\n",
      "inline");
  EXPECT_EQ(g.sweep.cells.values,
            voltaic::io::detail::sample_random({{Kind::log_uniform, 8.52e-5 * 0.5, 8.52e-5 * 1.5}}, 3, 1));
  // Values outside a parameter's range are the batch's to report, not the config's.
  EXPECT_EQ(error_of("[sweep]\nmethod = \"list\"\n" + p + "values = [-1, 1e9]\n"), "");
}

TEST(SweepConfigGood, MethodNames) {
  EXPECT_STREQ(to_string(SweepConfig::Method::list), "list");
  EXPECT_STREQ(to_string(SweepConfig::Method::grid), "grid");
  EXPECT_STREQ(to_string(SweepConfig::Method::random), "random");
  EXPECT_STREQ(to_string(SweepConfig::Method::latin_hypercube), "latin_hypercube");
  EXPECT_STREQ(to_string(SweepConfig::Method::table), "table");
}

TEST(SweepConfigCorpus, EveryMalformedSweepGivesItsOneLineError) {
  const auto rows = expected_errors();
  EXPECT_GE(rows.size(), 30u);
  for (const auto& [file, expected] : rows) {
    SCOPED_TRACE(file);
    try {
      load_sweep_config((kBad / file).string());
      ADD_FAILURE() << file << " loaded";
    } catch (const ConfigError& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
      EXPECT_TRUE(has(message, expected)) << "message:  " << message << "\nexpected: " << expected;
      EXPECT_EQ(e.where(), (kBad / file).string() + ":" + std::to_string(e.line()));
    }
  }
}

TEST(SweepConfigCorpus, EveryFileOfTheCorpusIsListed) {
  voltaic::test::expect_every_file_listed(kBad, expected_errors());
}

TEST(SweepConfigErrors, AGridOverTheCapNamesItsCount) {
  std::string grid = "[sweep]\nmethod = \"grid\"\n";
  const char* names[] = {"Separator porosity", "Negative electrode porosity", "Positive electrode porosity"};
  const int lengths[] = {10, 1000, 1001};
  for (int k = 0; k < 3; ++k)
    grid += "[sweep.parameters.\"" + std::string(names[k]) + "\"]\n" + values_list(lengths[k]);
  const std::string e = error_of(grid);
  EXPECT_TRUE(has(e, "sweep.parameters: the grid has 10 x 1000 x 1001 = 10010000 cells")) << e;
  EXPECT_TRUE(has(e, "allowed: at most 10000000 cells in a sweep")) << e;
  // Beyond 2^64 the product is not computed in integers: no overflow, an approximate count.
  std::string huge = "[sweep]\nmethod = \"grid\"\n";
  int k = 0;
  for (const voltaic::ParameterInfo& p : voltaic::parameter_table()) {
    if (k++ == 8) break;
    huge += "[sweep.parameters.\"" + p.name + "\"]\n" + values_list(300);
  }
  const std::string h = error_of(huge);
  EXPECT_TRUE(has(h, "300 x 300 x 300 x 300 x 300 x 300 x 300 x 300 = about 6.561e+19 cells")) << h;
}

TEST(SweepConfigErrors, AMissingSectionOrWrongTypes) {
  EXPECT_TRUE(has(error_of(""), "test.toml:1: sweep: there is no [sweep] section")) << error_of("");
  std::string s;
  try {
    parse_sweep_config("sweep = 3\n" + kBase, "test.toml");
  } catch (const ConfigError& e) {
    s = e.what();
  }
  EXPECT_TRUE(has(s, "test.toml:1: sweep: is an integer (3); allowed: a section")) << s;
  const std::string p = error_of("[sweep]\nmethod = \"grid\"\nparameters = 1\n");
  EXPECT_TRUE(has(p, "test.toml:7: sweep.parameters: is an integer (1); allowed: a table of parameters")) << p;
  const std::string empty = error_of("[sweep]\nmethod = \"grid\"\nparameters = {}\n");
  EXPECT_TRUE(has(empty, "sweep.parameters: is empty")) << empty;
  const std::string none = error_of("[sweep]\nmethod = \"grid\"\n");
  EXPECT_TRUE(has(none, "sweep.parameters: is missing")) << none;
}

TEST(SweepConfigErrors, UnknownNamesComeFirstAndNearestIsNamed) {
  // An unknown key of [sweep] is reported before a bad value elsewhere.
  const std::string e = error_of("[grid]\nnx = 0\n[sweep]\nmethd = \"grid\"\n");
  EXPECT_TRUE(has(e, "sweep.methd: unknown key 'methd'; did you mean 'method'?")) << e;
  const std::string k =
      error_of("[sweep]\nmethod = \"random\"\n[sweep.parameters.\"" + kThickness + "\"]\nstdev = 1\n");
  EXPECT_TRUE(has(k, "unknown key 'stdev'; allowed: values, distribution, low, high, mean, std, spread")) << k;
  // A sweep key outside [sweep] is pointed there.
  const std::string out = error_of("[grid]\nsamples = 3\n");
  EXPECT_TRUE(has(out, "did you mean 'sweep.samples'?")) << out;
}

TEST(SweepTable, QuotedFieldsCommentsAndLineEnds) {
  std::vector<std::string> f;
  EXPECT_EQ(voltaic::io::detail::split_fields(" \"a, b\" , c ,\"say \"\"x\"\"\",", f), "");
  EXPECT_EQ(f, (std::vector<std::string>{"a, b", "c", "say \"x\"", ""}));
  EXPECT_EQ(voltaic::io::detail::split_fields("\"open, 1", f), "the quote at column 1 is not closed");
  EXPECT_EQ(voltaic::io::detail::split_fields("\"a\" b, 1", f), "text after the closing quote at column 5");
  const auto t = voltaic::io::detail::parse_sweep_table(
      "\xEF\xBB\xBF# note\r\n\r\n  Separator porosity , \"" + kRadius + "\"\r\n0.4,+5e-6\r\n  # a comment\n0.5 , 6E-6",
      "t.csv", 100);
  EXPECT_EQ(t.header_line, 3);
  EXPECT_EQ(t.cells.names, (std::vector<std::string>{"Separator porosity", kRadius}));
  EXPECT_EQ(t.cells.values, (std::vector<double>{0.4, 5e-6, 0.5, 6e-6}));
}

TEST(SweepTable, ErrorsNameTheFileLineAndColumn) {
  const auto error = [](const std::string& csv, std::uint64_t cap = 100) -> std::string {
    try {
      voltaic::io::detail::parse_sweep_table(csv, "t.csv", cap);
    } catch (const InvalidArgument& e) {
      return e.what_failed() + ": " + e.why();
    }
    return "";
  };
  const std::string h = "Separator porosity,Cell volume [m3]\n";
  EXPECT_EQ(error(""),
            "t.csv:1: holds no header; allowed: a first line of parameter names exactly as PyBaMM writes "
            "them, separated by commas, then one row of numbers per cell");
  EXPECT_TRUE(has(error(h + "0.4,1\n0.5,1\n0.6,1\n", 2), "t.csv:1: holds 3 rows, more cells than a sweep may have"));
  EXPECT_TRUE(has(error(h + "0.4,nan\n"),
                  "t.csv:2: column 2 ('Cell volume [m3]'): is nan; allowed: any finite "
                  "number [m3]"));
  EXPECT_TRUE(has(error(h + "0.4,1,2\n"), "t.csv:2: '0.4,1,2' has 3 fields, the header 2"));
  EXPECT_TRUE(has(error("Separator porosity,,Cell volume [m3]\n"), "t.csv:1: column 2 is empty"));
  EXPECT_TRUE(has(error("\"Separator porosity\nx"), "t.csv:1: the quote at column 1 is not closed"));
  EXPECT_TRUE(has(error("Separator porosity\n0.4\n0x10\n"), "t.csv:3: column 1 ('Separator porosity'): '0x10' is not"));
}

TEST(SweepConfigErrors, AnIsothermalSweepOfTheInitialTemperatureIsRefused) {
  const std::string list =
      error_of("[sweep]\nmethod = \"list\"\n[sweep.parameters.\"Initial temperature [K]\"]\nvalues = [280, 300]\n");
  EXPECT_TRUE(has(list,
                  "sweeps \"Initial temperature [K]\", but an isothermal cell is held at the ambient "
                  "temperature"))
      << list;
  EXPECT_EQ(error_of("[sweep]\nmethod = \"list\"\n[sweep.parameters.\"Ambient temperature [K]\"]\n"
                     "values = [280, 300]\n"),
            "");
  // A lumped cell starts at its initial temperature.
  EXPECT_EQ(error_of("[thermal]\nmodel = \"lumped\"\n[sweep]\nmethod = \"list\"\n"
                     "[sweep.parameters.\"Initial temperature [K]\"]\nvalues = [280, 300]\n"),
            "");
}
