// [pack] and [pack.thermal]: a good config read back value by value, the
// defaults, a [sweep]'s cells as the pack's, the corpus of malformed packs
// (tests/data/bad_pack_configs, each with its expected error) and the keys
// each kind of error names.
#include "voltaic/io/pack_config.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "io/error_corpus.hpp"
#include "voltaic/io/config.hpp"
#include "voltaic/io/sweep_config.hpp"

namespace fs = std::filesystem;
using voltaic::PackThermal;
using voltaic::io::ConfigError;
using voltaic::io::load_pack_config;
using voltaic::io::PackRunConfig;
using voltaic::io::parse_pack_config;

namespace {

const fs::path kBad = fs::path(VOLTAIC_TEST_DATA_DIR) / "bad_pack_configs";

const std::string kCell = "[cell]\nparameter_set = \"Chen2020\"\n";
const std::string kLumped = "[thermal]\nmodel = \"lumped\"\n";
const std::string kExperiment = "[experiment]\nsteps = [\"Discharge at 1C until 5.0 V\"]\n";
const std::string kPack2p2s = "[pack]\nparallel = 2\nseries = 2\n";

/// The ConfigError parse_pack_config throws for `text` (FAIL when none).
ConfigError error_of(const std::string& text) {
  try {
    parse_pack_config(text, "test.toml");
  } catch (const ConfigError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return ConfigError("test.toml", 1, "", "");
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::vector<std::pair<std::string, std::string>> expected_errors() { return voltaic::test::read_expected_errors(kBad); }

}  // namespace

TEST(PackConfigGood, EveryKeyIsReadBack) {
  const std::string text = kCell + kLumped + kExperiment +
                           "[grid]\nnegative_cells = 6\n"
                           "[pack]\n"
                           "parallel = 3\n"
                           "series = 2\n"
                           "connection_resistances = [1e-3, 2e-3, 3e-3, 4e-3, 5e-3, 0]\n"
                           "busbar_resistance = 2.5e-3\n"
                           "lower_voltage_cutoff = 5.5\n"
                           "upper_voltage_cutoff = 8.3\n"
                           "[pack.thermal]\n"
                           "neighbour_conductance = 0.4\n"
                           "links = [{a = 0, b = 5, conductance = 0.25}, {a = 4, b = 1, conductance = 0}]\n"
                           "coolant = \"flow\"\n"
                           "coolant_conductances = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]\n"
                           "coolant_temperature = 293.15\n"
                           "coolant_capacity_rate = 12.5\n";
  const PackRunConfig c = parse_pack_config(text, "test.toml");
  EXPECT_EQ(c.layout.parallel, 3);
  EXPECT_EQ(c.layout.series, 2);
  EXPECT_EQ(c.layout.cells(), 6u);
  EXPECT_EQ(c.layout.connection_resistance, 0.0);
  EXPECT_EQ(c.layout.connection_resistances, (std::vector<double>{1e-3, 2e-3, 3e-3, 4e-3, 5e-3, 0.0}));
  EXPECT_EQ(c.layout.busbar_resistance, 2.5e-3);
  EXPECT_EQ(c.options.lower_voltage_cutoff, 5.5);
  EXPECT_EQ(c.options.upper_voltage_cutoff, 8.3);
  const PackThermal& t = c.options.thermal;
  EXPECT_EQ(t.neighbour_conductance, 0.4);
  ASSERT_EQ(t.links.size(), 2u);
  EXPECT_EQ(t.links[0].a, 0u);
  EXPECT_EQ(t.links[0].b, 5u);
  EXPECT_EQ(t.links[0].conductance, 0.25);
  EXPECT_EQ(t.links[1].a, 4u);
  EXPECT_EQ(t.links[1].b, 1u);
  EXPECT_EQ(t.links[1].conductance, 0.0);
  EXPECT_EQ(t.coolant, PackThermal::Coolant::flow);
  EXPECT_EQ(t.coolant_conductance, 0.0);
  EXPECT_EQ(t.coolant_conductances, (std::vector<double>{0.1, 0.2, 0.3, 0.4, 0.5, 0.6}));
  EXPECT_EQ(t.coolant_temperature, 293.15);
  EXPECT_EQ(t.coolant_capacity_rate, 12.5);
  // The cells' options are the run's: grid, thermal model, tolerances.
  EXPECT_EQ(c.options.cell.grid.negative_cells, 6);
  EXPECT_EQ(c.options.cell.thermal, voltaic::ThermalModel::lumped);
  EXPECT_EQ(c.options.cell.grid.negative_cells, c.run.simulation.grid.negative_cells);
  EXPECT_EQ(c.run.experiment_steps, (std::vector<std::string>{"Discharge at 1C until 5.0 V"}));
  EXPECT_TRUE(c.cells.names.empty());
  EXPECT_EQ(c.cells.num_cells(), 0u);
}

TEST(PackConfigGood, AbsentKeysTakeTheirDefaults) {
  const PackRunConfig c = parse_pack_config(kCell + kExperiment + kPack2p2s, "test.toml");
  EXPECT_EQ(c.layout.connection_resistance, 0.0);
  EXPECT_TRUE(c.layout.connection_resistances.empty());
  EXPECT_EQ(c.layout.busbar_resistance, 0.0);
  EXPECT_TRUE(std::isnan(c.options.lower_voltage_cutoff));
  EXPECT_TRUE(std::isnan(c.options.upper_voltage_cutoff));
  EXPECT_EQ(c.options.thermal.coolant, PackThermal::Coolant::none);
  EXPECT_EQ(c.options.thermal.neighbour_conductance, 0.0);
  EXPECT_TRUE(c.options.thermal.links.empty());
  EXPECT_EQ(c.run.path, "");
}

// A coolant's temperature is the ambient one unless given; one resistance
// for every cell; links written as an array of tables.
TEST(PackConfigGood, ACoolantIsAtTheAmbientTemperatureByDefault) {
  const PackRunConfig c = parse_pack_config(
      kCell + kExperiment + "[thermal]\nmodel = \"lumped\"\nambient_temperature = 303.15\n" + kPack2p2s +
          "connection_resistance = 1e-3\n"
          "[pack.thermal]\ncoolant = \"plate\"\ncoolant_conductance = 0.3\n"
          "[[pack.thermal.links]]\na = 1\nb = 2\nconductance = 0.1\n",
      "test.toml");
  EXPECT_EQ(c.layout.connection_resistance, 1e-3);
  EXPECT_EQ(c.options.thermal.coolant, PackThermal::Coolant::plate);
  EXPECT_EQ(c.options.thermal.coolant_conductance, 0.3);
  EXPECT_EQ(c.options.thermal.coolant_temperature, 303.15);
  ASSERT_EQ(c.options.thermal.links.size(), 1u);
  EXPECT_EQ(c.options.thermal.links[0].b, 2u);
}

// The pack's cells are the sweep's, read as `voltaic sweep` reads them: the
// same draws from the same seed.
TEST(PackConfigGood, ASweepsCellsAreThePacksCells) {
  const std::string sweep =
      "[sweep]\nmethod = \"latin_hypercube\"\nsamples = 4\nseed = 3\n"
      "[sweep.parameters.\"Negative electrode thickness [m]\"]\nspread = 0.05\n"
      "[sweep.parameters.\"Positive particle radius [m]\"]\nspread = 0.05\n";
  const PackRunConfig c = parse_pack_config(kCell + kExperiment + kPack2p2s + sweep, "test.toml");
  const voltaic::io::SweepRunConfig s = voltaic::io::parse_sweep_config(kCell + kExperiment + sweep, "sweep.toml");
  EXPECT_EQ(c.cells.names, s.sweep.cells.names);
  EXPECT_EQ(c.cells.values, s.sweep.cells.values);
  EXPECT_EQ(c.cells.num_cells(), 4u);
}

// examples/configs/pack_4p3s.toml (docs/getting_started.md, "Packs"): a
// 4p3s module whose 12 cells are within 5% of Chen2020's in both parameters.
TEST(PackConfigGood, TheExampleIsA4p3sModuleOfDifferentCells) {
  const PackRunConfig c =
      load_pack_config((fs::path(VOLTAIC_SOURCE_DIR) / "examples" / "configs" / "pack_4p3s.toml").string());
  EXPECT_EQ(c.layout.parallel, 4);
  EXPECT_EQ(c.layout.series, 3);
  EXPECT_EQ(c.layout.connection_resistance, 1e-3);
  EXPECT_EQ(c.layout.busbar_resistance, 2e-3);
  EXPECT_EQ(c.options.cell.thermal, voltaic::ThermalModel::lumped);
  EXPECT_EQ(c.options.thermal.neighbour_conductance, 0.5);
  EXPECT_EQ(c.run.experiment_steps, (std::vector<std::string>{"Discharge at 1C until 9.0 V", "Rest for 10 minutes",
                                                              "Charge at C/2 until 12.3 V"}));
  ASSERT_EQ(c.cells.num_cells(), 12u);
  ASSERT_EQ(c.cells.names,
            (std::vector<std::string>{"Negative electrode thickness [m]", "Positive particle radius [m]"}));
  const double base[] = {c.run.parameters.negative_electrode.thickness,
                         c.run.parameters.positive_electrode.particle_radius};
  for (std::size_t i = 0; i < 12; ++i) {
    for (std::size_t k = 0; k < 2; ++k) {
      EXPECT_GE(c.cells.value(i, k), 0.95 * base[k]) << "cell " << i;
      EXPECT_LE(c.cells.value(i, k), 1.05 * base[k]) << "cell " << i;
    }
  }
}

TEST(PackConfigGood, KeysAreListedForTheDocs) {
  const std::vector<std::string> keys = voltaic::io::config_keys();
  for (const char* key :
       {"pack.parallel", "pack.series", "pack.connection_resistance", "pack.connection_resistances",
        "pack.busbar_resistance", "pack.lower_voltage_cutoff", "pack.upper_voltage_cutoff", "pack.thermal",
        "pack.thermal.neighbour_conductance", "pack.thermal.links", "pack.thermal.coolant",
        "pack.thermal.coolant_conductance", "pack.thermal.coolant_conductances", "pack.thermal.coolant_temperature",
        "pack.thermal.coolant_capacity_rate"}) {
    EXPECT_NE(std::find(keys.begin(), keys.end(), key), keys.end()) << key;
  }
}

// Each kind of bad input is a ConfigError at its key.
TEST(PackConfigErrors, EachNamesItsKey) {
  struct Case {
    const char* what;
    std::string text;
    const char* key;
    const char* part;
  };
  const std::string sweep3 =
      "[sweep]\nmethod = \"list\"\n"
      "[sweep.parameters.\"Negative electrode thickness [m]\"]\nvalues = [8e-5, 8.5e-5, 9e-5]\n";
  const std::string sampled5 =
      "[sweep]\nmethod = \"random\"\nsamples = 5\n"
      "[sweep.parameters.\"Negative electrode thickness [m]\"]\nspread = 0.05\n";
  const Case cases[] = {
      {"Np = 0", "[pack]\nparallel = 0\nseries = 2\n", "pack.parallel", "is 0; allowed: an integer >= 1"},
      {"no Ns", "[pack]\nparallel = 2\n", "pack.series", "is missing"},
      {"a negative resistance", kPack2p2s + "connection_resistance = -1e-3\n", "pack.connection_resistance",
       "is -0.001; allowed: a number >= 0 [Ohm]"},
      {"a negative busbar", kPack2p2s + "busbar_resistance = -1\n", "pack.busbar_resistance", "is -1"},
      {"a wrong-length list", kPack2p2s + "connection_resistances = [1e-3, 1e-3, 1e-3]\n",
       "pack.connection_resistances", "has 3 values, but the pack has 2 x 2 = 4 cells"},
      {"a negative entry", kPack2p2s + "connection_resistances = [0, 0, 0, -1]\n", "pack.connection_resistances",
       "cell 3 (series 1, parallel 1) is -1"},
      {"a list of the wrong count", kPack2p2s + sweep3, "sweep.parameters",
       "gives 3 cells, but [pack] (line 5) has 2 x 2 = 4"},
      {"samples of the wrong count", kPack2p2s + sampled5, "sweep.samples", "gives 5 cells"},
      {"an unknown key", "[pack]\nparallel = 2\nseries = 2\nbusbar_resistence = 1e-3\n", "pack.busbar_resistence",
       "did you mean 'busbar_resistance'?"},
      {"an unknown thermal key", kLumped + kPack2p2s + "[pack.thermal]\ncoolant_temprature = 290\n",
       "pack.thermal.coolant_temprature", "did you mean 'coolant_temperature'?"},
      {"flow without its rate", kLumped + kPack2p2s + "[pack.thermal]\ncoolant = \"flow\"\ncoolant_conductance = 1\n",
       "pack.thermal.coolant_capacity_rate", "is missing"},
      {"a rate for a plate",
       kLumped + kPack2p2s +
           "[pack.thermal]\ncoolant = \"plate\"\ncoolant_conductance = 1\ncoolant_capacity_rate = 3\n",
       "pack.thermal.coolant_capacity_rate", "is read with coolant = \"flow\""},
      {"a link out of range", kLumped + kPack2p2s + "[pack.thermal]\nlinks = [{a = 4, b = 0, conductance = 1}]\n",
       "pack.thermal.links", "link 1: a is 4, not one of the pack's 2 x 2 = 4 cells"},
      {"a negative link", kLumped + kPack2p2s + "[pack.thermal]\nlinks = [{a = 1, b = 0, conductance = -1}]\n",
       "pack.thermal.links", "link 1: conductance is -1"},
      {"a network on isothermal cells", kPack2p2s + "[pack.thermal]\nneighbour_conductance = 1\n",
       "pack.thermal.neighbour_conductance", "the cells are isothermal"},
      {"reversed cut-offs", kPack2p2s + "lower_voltage_cutoff = 8\nupper_voltage_cutoff = 6\n",
       "pack.upper_voltage_cutoff", "is 6, not above lower_voltage_cutoff (8, line 8)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    const ConfigError e = error_of(kCell + kExperiment + c.text);
    EXPECT_EQ(e.what_failed(), c.key) << e.what();
    EXPECT_TRUE(has(e.why(), c.part)) << e.what();
  }
}

TEST(PackConfigErrors, RunAndSweepRefuseAPackByName) {
  const std::string text = kCell + kExperiment + kPack2p2s;
  for (int reader = 0; reader < 2; ++reader) {
    try {
      if (reader == 0) voltaic::io::parse_config(text, "test.toml");
      if (reader == 1) voltaic::io::parse_sweep_config(text, "test.toml");
      ADD_FAILURE() << "reader " << reader << " took a pack";
    } catch (const ConfigError& e) {
      EXPECT_EQ(e.what_failed(), "pack");
      EXPECT_EQ(e.line(), 5);
      EXPECT_TRUE(has(e.why(), "which voltaic pack reads")) << e.what();
    }
  }
}

TEST(PackConfigCorpus, EveryMalformedPackGivesItsOneLineError) {
  const auto rows = expected_errors();
  EXPECT_GE(rows.size(), 25u);
  for (const auto& [file, expected] : rows) {
    SCOPED_TRACE(file);
    try {
      load_pack_config((kBad / file).string());
      ADD_FAILURE() << file << " loaded";
    } catch (const ConfigError& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
      EXPECT_TRUE(has(message, expected)) << "message:  " << message << "\nexpected: " << expected;
      EXPECT_EQ(e.where(), (kBad / file).string() + ":" + std::to_string(e.line()));
    }
  }
}

TEST(PackConfigCorpus, EveryFileOfTheCorpusIsListed) {
  voltaic::test::expect_every_file_listed(kBad, expected_errors());
}
