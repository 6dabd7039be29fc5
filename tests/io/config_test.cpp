#include "voltaic/io/config.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "io/error_corpus.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/io/atomic_file.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/model/parameter_table.hpp"
#include "voltaic/solver/field_catalog.hpp"
#include "voltaic/solver/simulation.hpp"
#include "voltaic/solver/solver_options.hpp"

namespace fs = std::filesystem;
using voltaic::io::ConfigError;
using voltaic::io::load_config;
using voltaic::io::parse_config;
using voltaic::io::RunConfig;

namespace {

const fs::path kGood = fs::path(VOLTAIC_TEST_DATA_DIR) / "configs";
const fs::path kBad = fs::path(VOLTAIC_TEST_DATA_DIR) / "bad_configs";

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

/// The message of the ConfigError that parse_config throws for `text` ("" if none).
std::string error_of(const std::string& text) {
  try {
    parse_config(text, "test.toml");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

const std::string kCell = "[cell]\nparameter_set = \"Chen2020\"\n";
const std::string kExperiment = "[experiment]\nsteps = [\"Discharge at 1C until 2.5 V\"]\n";

std::vector<std::pair<std::string, std::string>> expected_errors() { return voltaic::test::read_expected_errors(kBad); }

/// Every path under `dir`, to see that loading a config creates nothing.
std::set<std::string> tree(const fs::path& dir) {
  std::set<std::string> paths;
  for (const auto& e : fs::recursive_directory_iterator(dir)) paths.insert(e.path().string());
  return paths;
}

}  // namespace

TEST(ConfigGood, Chen2020OneCLumped) {
  const RunConfig c = load_config((kGood / "chen2020_1c.toml").string());
  EXPECT_EQ(c.path, (kGood / "chen2020_1c.toml").string());
  EXPECT_EQ(c.cell_source, "Chen2020");
  EXPECT_EQ(c.parameters.negative_electrode.thickness,
            voltaic::parameter_sets::chen2020().negative_electrode.thickness);
  EXPECT_EQ(c.simulation.thermal, voltaic::ThermalModel::lumped);
  EXPECT_EQ(c.simulation.grid.negative_cells, 20);
  EXPECT_EQ(c.simulation.grid.nx, 1);
  EXPECT_EQ(c.parameters.thermal.ambient_temperature, 298.15);
  EXPECT_EQ(c.parameters.thermal.heat_transfer_coefficient, 10.0);  // an integer where a float is expected
  EXPECT_EQ(c.backend, voltaic::io::BackendChoice::automatic);
  EXPECT_EQ(c.experiment_steps, std::vector<std::string>{"Discharge at 1C until 2.5 V"});
  EXPECT_EQ(c.cycles, 1);
  EXPECT_EQ(c.output.directory, "chen2020_1c");
  EXPECT_TRUE(c.output.field_times.empty());
  EXPECT_EQ(c.output.fields.size(), 7u);
  EXPECT_EQ(c.output.field_period, 60.0);
  EXPECT_EQ(c.output.checkpoint_period, 600.0);
  EXPECT_TRUE(c.simulation.field_times.empty());
  EXPECT_EQ(c.experiment().cycle().at(0).until_voltage_v, 2.5);
}

TEST(ConfigGood, Pouch3dConductionSetsEverySolverKey) {
  const RunConfig c = load_config((kGood / "pouch_3d_conduction.toml").string());
  EXPECT_EQ(c.parameters.negative_electrode.thickness, 8.0e-5);
  EXPECT_EQ(c.parameters.thermal.heat_transfer_coefficient, 25.0);
  EXPECT_EQ(c.parameters.thermal.initial_temperature, 303.15);
  const voltaic::SimulationOptions& s = c.simulation;
  EXPECT_EQ(s.thermal, voltaic::ThermalModel::conduction);
  EXPECT_EQ(s.grid.nx, 4);
  EXPECT_EQ(s.grid.ny, 3);
  EXPECT_EQ(s.grid.separator_cells, 5);
  EXPECT_EQ(s.grid.radial_shells, 10);
  EXPECT_EQ(c.backend, voltaic::io::BackendChoice::cpu);
  EXPECT_EQ(s.steps.initial_dt, 0.5);
  EXPECT_EQ(s.steps.min_dt, 1e-5);
  EXPECT_EQ(s.steps.max_dt, 30.0);
  EXPECT_EQ(s.steps.relative_tolerance, 1e-4);
  EXPECT_EQ(s.steps.absolute_tolerance, 1e-6);
  EXPECT_EQ(s.steps.max_growth, 1.5);
  EXPECT_EQ(s.steps.max_retries, 8);
  EXPECT_EQ(s.steps.event_tolerance, 1e-6);
  EXPECT_EQ(s.steps.max_split_iterations, 8);
  EXPECT_EQ(s.potential.tolerance, 1e-8);
  EXPECT_EQ(s.potential.max_iterations, 30);
  EXPECT_EQ(s.potential.max_update, 0.1);
  EXPECT_EQ(s.potential.electrolyte_face_mean, voltaic::FaceMean::arithmetic);
  EXPECT_EQ(c.experiment_steps.size(), 4u);
  EXPECT_EQ(c.cycles, 2);
  EXPECT_EQ(c.experiment().total_steps(), 8u);
  EXPECT_EQ(c.output.field_period, 300.0);
  EXPECT_EQ(c.output.checkpoint_period, 3600.0);
  EXPECT_EQ(c.output.fields, (std::vector<std::string>{"temperature", "heating"}));
}

// Every option of the table is read at its key: a value outside its range
// is refused there, naming the key.
TEST(ConfigErrors, EverySolverOptionIsCheckedAtItsKey) {
  for (const voltaic::SolverOption& opt : voltaic::solver_option_table()) {
    const std::string bad = opt.kind == voltaic::SolverOption::Kind::choice ? "\"none\"" : "-1";
    const std::string e = error_of(kCell + "[solver]\n" + opt.key + " = " + bad + "\n" + kExperiment);
    EXPECT_NE(e.find("test.toml:4: solver." + opt.key + ": "), std::string::npos) << e;
  }
}

TEST(ConfigGood, MinimalConfigTakesTheDefaults) {
  const RunConfig c = load_config((kGood / "minimal.toml").string());
  const voltaic::SimulationOptions defaults;
  EXPECT_EQ(c.simulation.grid.negative_cells, defaults.grid.negative_cells);
  EXPECT_EQ(c.simulation.grid.radial_shells, defaults.grid.radial_shells);
  EXPECT_EQ(c.simulation.grid.nx, 1);
  EXPECT_EQ(c.simulation.thermal, voltaic::ThermalModel::isothermal);
  EXPECT_EQ(c.simulation.steps.initial_dt, defaults.steps.initial_dt);
  EXPECT_EQ(c.simulation.steps.max_dt, defaults.steps.max_dt);
  EXPECT_EQ(c.simulation.potential.tolerance, defaults.potential.tolerance);
  EXPECT_EQ(c.simulation.potential.electrolyte_face_mean, voltaic::FaceMean::arithmetic);
  EXPECT_EQ(c.backend, voltaic::io::BackendChoice::automatic);
  EXPECT_EQ(c.cycles, 1);
  const voltaic::ParameterSet chen = voltaic::parameter_sets::chen2020();
  EXPECT_EQ(c.parameters.thermal.ambient_temperature, chen.thermal.ambient_temperature);
  EXPECT_EQ(c.output.directory, "voltaic-output");
  EXPECT_TRUE(c.output.field_times.empty());
  EXPECT_TRUE(c.output.fields.empty());
  EXPECT_EQ(c.output.checkpoint_period, 0.0);
}

TEST(ConfigGood, InlineTablesDottedKeysAndCaseOfTheSetName) {
  const RunConfig c = load_config((kGood / "marquis2019_cycles.toml").string());
  EXPECT_EQ(c.cell_source, "Marquis2019");
  EXPECT_EQ(c.parameters.negative_electrode.thickness,
            voltaic::parameter_sets::marquis2019().negative_electrode.thickness);
  EXPECT_EQ(c.simulation.grid.radial_shells, 8);
  EXPECT_EQ(c.simulation.grid.separator_cells, 6);
  EXPECT_EQ(c.cycles, 3);
}

TEST(ConfigGood, EveryGoodConfigBuildsASimulation) {
  for (const auto& entry : fs::directory_iterator(kGood)) {
    // sweep_*.toml are load_sweep_config's (sweep_config_test.cpp); their tables are CSV files.
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".toml" || name.rfind("sweep_", 0) == 0) continue;
    SCOPED_TRACE(entry.path().string());
    const RunConfig c = load_config(entry.path().string());
    EXPECT_NO_THROW(voltaic::Simulation(c.parameters, c.simulation, voltaic::CpuExecutor::create()));
  }
}

TEST(ConfigGood, TheReadmeDemoDischargesTo2_5V) {
  const RunConfig c = load_config((kGood / "chen2020_1c.toml").string());
  voltaic::SimulationOptions options = c.simulation;
  options.field_period = c.output.field_period;
  voltaic::Simulation sim(c.parameters, options, voltaic::CpuExecutor::create());
  const voltaic::Solution s = sim.run(c.experiment());
  ASSERT_TRUE(s.completed) << s.termination;
  EXPECT_NEAR(s["Voltage [V]"].back(), 2.5, 1e-6);
  EXPECT_NEAR(s["Discharge capacity [A.h]"].back(), 4.95, 0.1);              // the LG M50 is a 5 A.h cell
  EXPECT_GT(s["Maximum cell temperature [K]"].back(), 298.15 + 5.0);         // lumped: it warms up
  EXPECT_EQ(s.fields.size(), std::size_t(s["Time [s]"].back() / 60.0) + 1);  // every minute from t = 0
}

TEST(ConfigGood, ADriveCycleConfigLoadsItsTable) {
  const RunConfig c = load_config((kGood / "chen2020_drive_cycle.toml").string());
  EXPECT_EQ(c.simulation.thermal, voltaic::ThermalModel::isothermal);
  ASSERT_EQ(c.drive_cycles.size(), 1u);
  const auto& table = c.drive_cycles.at("pulses");
  ASSERT_TRUE(table);
  EXPECT_EQ(table->name(), "pulses");
  EXPECT_EQ(table->rows(), 41u);
  EXPECT_EQ(table->duration(), 300.0);
  const voltaic::Experiment e = c.experiment();
  const voltaic::ExperimentStep& run = e.step(0);
  EXPECT_EQ(run.mode, voltaic::StepMode::current);
  EXPECT_EQ(run.drive_cycle, table);  // shared with the config, not copied
  EXPECT_EQ(*run.duration_s, 300.0);
  EXPECT_EQ(*run.until_voltage_v, 2.5);
}

TEST(ConfigGood, PowerStepsAreAccepted) {
  const RunConfig c = parse_config(
      kCell + "[experiment]\nsteps = [\"Discharge at 12 W until 2.5 V\", \"Charge at 5 W for 10 minutes\"]\n",
      "inline");
  const voltaic::Experiment e = c.experiment();
  EXPECT_EQ(e.step(0).mode, voltaic::StepMode::power);
  EXPECT_EQ(e.step(0).power_w, 12.0);
  EXPECT_EQ(e.step(1).power_w, -5.0);
  EXPECT_EQ(*e.step(1).duration_s, 600.0);
  EXPECT_TRUE(c.drive_cycles.empty());
}

TEST(ConfigCorpus, EveryMalformedConfigGivesItsOneLineError) {
  const auto rows = expected_errors();
  EXPECT_GE(rows.size(), 16u);
  for (const auto& [file, expected] : rows) {
    SCOPED_TRACE(file);
    try {
      load_config((kBad / file).string());
      ADD_FAILURE() << file << " loaded";
    } catch (const ConfigError& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
      EXPECT_NE(message.find(expected), std::string::npos) << "message:  " << message << "\nexpected: " << expected;
      // FILE:LINE: KEY: WHY, with the parts as ConfigError keeps them.
      EXPECT_EQ(message, e.where() + ": " + e.what_failed() + ": " + e.why());
      EXPECT_EQ(e.where(), (kBad / file).string() + ":" + std::to_string(e.line()));
      EXPECT_GE(e.line(), 1);
    }
  }
}

TEST(ConfigCorpus, EveryFileOfTheCorpusIsListed) { voltaic::test::expect_every_file_listed(kBad, expected_errors()); }

TEST(ConfigCorpus, ABpxPathIsRelativeToTheConfigsDirectory) {
  try {
    load_config((kBad / "missing_bpx.toml").string());
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.what_failed(), "cell.bpx");
    EXPECT_NE(e.why().find((kBad / "no_such_cell.json").lexically_normal().string()), std::string::npos) << e.why();
  }
  const std::string text = "[cell]\nbpx = \"cells/x.json\"\n" + kExperiment;
  try {
    parse_config(text, "inline", "/nonexistent/base");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(e.why().find("/nonexistent/base/cells/x.json"), std::string::npos) << e.why();
  }
}

TEST(ConfigSuggest, NearestKeysSectionsParametersAndFields) {
  EXPECT_NE(error_of(kCell + "[grid]\nnegative_cell = 3\n" + kExperiment)
                .find("unknown key 'negative_cell'; did you mean 'negative_cells'?"),
            std::string::npos);
  // A swap of two letters is one edit; case is ignored in the distance.
  EXPECT_NE(error_of(kCell + "[grid]\nnegaitve_cells = 3\n" + kExperiment).find("did you mean 'negative_cells'?"),
            std::string::npos);
  EXPECT_NE(error_of(kCell + "[grid]\nNX = 3\n" + kExperiment).find("did you mean 'nx'?"), std::string::npos);
  EXPECT_NE(error_of(kCell + "[solvr]\n" + kExperiment).find("did you mean '[solver]'?"), std::string::npos);
  EXPECT_NE(error_of(kCell + "[overrides]\n\"Separator porosity\" = 0.5\n" + kExperiment)
                .find("did you mean '[cell.overrides]'?"),
            std::string::npos);
  EXPECT_NE(error_of(kCell + "[thermal]\ninitial_dt = 1\n" + kExperiment).find("did you mean 'solver.initial_dt'?"),
            std::string::npos);
  EXPECT_NE(error_of(kCell + "[cell.overrides]\n\"negative electrode porosity\" = 0.3\n" + kExperiment)
                .find("did you mean 'Negative electrode porosity'?"),
            std::string::npos);
  EXPECT_NE(error_of(kCell + kExperiment + "[output]\nfields = [\"temprature\"]\n").find("did you mean 'temperature'?"),
            std::string::npos);
  // Nothing near: no guess, only the allowed keys.
  const std::string far = error_of(kCell + "[grid]\nresolution = 3\n" + kExperiment);
  EXPECT_EQ(far.find("did you mean"), std::string::npos) << far;
  EXPECT_NE(far.find("unknown key 'resolution'; allowed: negative_cells, separator_cells"), std::string::npos) << far;
}

TEST(ConfigSuggest, TheFirstProblemInTheFileIsReported) {
  // toml++ sorts keys by name; the report follows the file.
  const std::string e = error_of(kCell + "[grid]\nzz = 1\naa = 2\n" + kExperiment);
  EXPECT_NE(e.find("test.toml:4: grid.zz:"), std::string::npos) << e;
  const std::string o =
      error_of(kCell + "[cell.overrides]\n\"Separator porosity\" = 2\n\"Cell volume [m3]\" = -1\n" + kExperiment);
  EXPECT_NE(o.find("test.toml:4: cell.overrides.\"Separator porosity\": is 2"), std::string::npos) << o;
  // Unknown names come before bad values, wherever they are.
  const std::string n = error_of(kCell + "[grid]\nnx = 0\n" + kExperiment + "[output]\nfolder = \"x\"\n");
  EXPECT_NE(n.find("output.folder: unknown key"), std::string::npos) << n;
}

TEST(ConfigErrors, OverridesAndThermalKeysSetTheCell) {
  const RunConfig c =
      parse_config(kCell +
                       "[cell.overrides]\n\"Separator thickness [m]\" = 2e-5\n\"Cell volume [m3]\" = 1\n"
                       "[thermal]\nambient_temperature = 280\nheat_transfer_coefficient = 0\n" +
                       kExperiment,
                   "inline");
  EXPECT_EQ(c.parameters.separator.thickness, 2e-5);
  EXPECT_EQ(c.parameters.thermal.cell_volume, 1.0);
  EXPECT_EQ(c.parameters.thermal.ambient_temperature, 280.0);
  EXPECT_EQ(c.parameters.thermal.heat_transfer_coefficient, 0.0);
  EXPECT_EQ(c.path, "");
}

TEST(ConfigErrors, PouchCoolingKeysSetTheFacesAndANegativeOneIsRefusedByName) {
  const RunConfig c = parse_config(kCell +
                                       "[thermal]\nmodel = \"conduction\"\nedge_heat_transfer_coefficient = 2.5\n"
                                       "positive_tab_heat_transfer_coefficient = 40\n" +
                                       kExperiment,
                                   "inline");
  EXPECT_EQ(c.parameters.thermal.edge_heat_transfer_coefficient, 2.5);
  EXPECT_EQ(c.parameters.thermal.positive_tab_heat_transfer_coefficient, 40.0);
  EXPECT_TRUE(std::isnan(c.parameters.thermal.negative_tab_heat_transfer_coefficient));  // Chen2020 sets none
  const std::string e =
      error_of(kCell + "[thermal]\nnegative_collector_heat_transfer_coefficient = -1\n" + kExperiment);
  EXPECT_NE(e.find("thermal.negative_collector_heat_transfer_coefficient"), std::string::npos) << e;
  EXPECT_NE(e.find(">= 0"), std::string::npos) << e;
}

TEST(ConfigErrors, ASweepIsRefusedBeforeAnythingElse) {
  // Even beside an unknown key: the command is what is wrong.
  const std::string e = error_of(kCell + kExperiment + "[grid]\nnx_ = 1\n[sweep]\nmethod = \"grid\"\n");
  EXPECT_NE(e.find("test.toml:7: sweep: [sweep] makes this a sweep of many cells"), std::string::npos) << e;
  EXPECT_NE(e.find("allowed: run it with voltaic sweep CONFIG, or remove [sweep]"), std::string::npos) << e;
  const std::string dotted = error_of("sweep.method = \"grid\"\n" + kCell + kExperiment);
  EXPECT_NE(dotted.find("test.toml:1: sweep: [sweep] makes this a sweep"), std::string::npos) << dotted;
}

TEST(ConfigErrors, AMissingOrUnreadableConfigIsAFileError) {
  const fs::path missing = kBad / "there_is_no_such_config.toml";
  try {
    load_config(missing.string());
    FAIL();
  } catch (const voltaic::io::FileError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(missing.string()), std::string::npos) << m;
    EXPECT_NE(m.find("does not exist"), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos);
  }
  EXPECT_THROW(load_config(kBad.string()), voltaic::io::FileError);
}

TEST(ConfigErrors, LoadingCreatesNoFiles) {
  // Per process: suites of other checkouts may run at the same time.
  const fs::path scratch = fs::temp_directory_path() / ("voltaic_config_no_files_" + std::to_string(::getpid()));
  fs::remove_all(scratch);
  fs::create_directories(scratch);
  fs::copy_file(kGood / "chen2020_1c.toml", scratch / "run.toml");
  const fs::path cwd = fs::current_path();
  fs::current_path(scratch);  // the output directory is relative to it
  const std::set<std::string> before = tree(scratch), good = tree(kGood), bad = tree(kBad);
  EXPECT_NO_THROW(load_config("run.toml"));
  for (const auto& entry : fs::directory_iterator(kBad)) {
    if (entry.path().extension() == ".toml") {
      EXPECT_THROW(load_config(entry.path().string()), ConfigError);
    }
  }
  EXPECT_EQ(tree(scratch), before);
  EXPECT_EQ(tree(kGood), good);
  EXPECT_EQ(tree(kBad), bad);
  EXPECT_FALSE(fs::exists(scratch / "chen2020_1c"));
  fs::current_path(cwd);
  fs::remove_all(scratch);
}

TEST(ConfigErrors, KeysWithSpacesAreQuotedInTheKeyPath) {
  try {
    parse_config(kCell + "[cell.overrides]\n\"Separator porosity\" = 0\n" + kExperiment, "inline");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.what_failed(), "cell.overrides.\"Separator porosity\"");
    EXPECT_EQ(e.line(), 4);
    EXPECT_EQ(e.file(), "inline");
    EXPECT_EQ(e.why(), "is 0; allowed: a number (0, 1]");
  }
}

TEST(ConfigErrors, LongNamesAreKeptWholeAndLongValuesCut) {
  const std::string name = "Positive electrode reaction rate constant [A.m-2.(m3.mol-1)1.5]";
  try {
    parse_config(kCell + "[cell.overrides]\n\"" + name + "\" = -1\n" + kExperiment, "inline");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.what_failed(), "cell.overrides.\"" + name + "\"");
  }
  const std::string value(200, 'x');
  const std::string e = error_of(kCell + "[grid]\nnx = \"" + value + "\"\n" + kExperiment);
  EXPECT_NE(e.find("is a string (\"" + value.substr(0, 57) + "...\")"), std::string::npos) << e;
}

TEST(ConfigDocs, EveryKeyIsDocumentedInItsSection) {
  const std::string doc = read(fs::path(VOLTAIC_SOURCE_DIR) / "docs" / "config.md");
  ASSERT_FALSE(doc.empty());
  for (const std::string& key : voltaic::io::config_keys()) {
    // "sweep.parameters.NAME.values" is the key values of the section [sweep.parameters.NAME].
    const std::string section = key.substr(0, key.rfind('.')), name = key.substr(key.rfind('.') + 1);
    const std::size_t begin = doc.find("\n## [" + section + "]");
    ASSERT_NE(begin, std::string::npos) << "no heading \"## [" << section << "]\"";
    const std::size_t end = doc.find("\n## ", begin + 1);
    EXPECT_NE(doc.substr(begin, end - begin).find("\n| `" + name + "` |"), std::string::npos)
        << key << " has no row in the section [" << section << "] of docs/config.md";
  }
}

TEST(ConfigDocs, EveryDocumentedKeyIsAccepted) {
  const std::string doc = read(fs::path(VOLTAIC_SOURCE_DIR) / "docs" / "config.md");
  const std::vector<std::string> keys = voltaic::io::config_keys();
  std::string section;
  std::istringstream in(doc);
  int rows = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) section = line.rfind("## [", 0) == 0 ? line.substr(4, line.find(']') - 4) : "";
    if (line.rfind("| `", 0) != 0 || section.empty() || section == "cell.overrides") continue;
    const std::string key = section + "." + line.substr(3, line.find('`', 3) - 3);
    EXPECT_NE(std::find(keys.begin(), keys.end(), key), keys.end()) << key << " is documented but not accepted";
    ++rows;
  }
  EXPECT_EQ(rows, static_cast<int>(keys.size()));
}

TEST(ConfigDocs, EveryParameterNameIsListed) {
  const std::string doc = read(fs::path(VOLTAIC_SOURCE_DIR) / "docs" / "config.md");
  for (const voltaic::ParameterInfo& p : voltaic::parameter_table())
    EXPECT_NE(doc.find("| `" + p.name + "` |"), std::string::npos) << p.name;
}

// The [output] fields row names every key of field_catalog(), the column
// fields' too.
TEST(ConfigDocs, EveryFieldKeyIsListed) {
  const std::string doc = read(fs::path(VOLTAIC_SOURCE_DIR) / "docs" / "config.md");
  const std::size_t row = doc.find("\n| `fields` |");
  ASSERT_NE(row, std::string::npos);
  const std::string line = doc.substr(row + 1, doc.find('\n', row + 1) - row - 1);
  for (const voltaic::FieldInfo& f : voltaic::field_catalog())
    EXPECT_NE(line.find("`" + f.key + "`"), std::string::npos) << f.key << " is not listed in the fields row";
}

// The column fields (maps over the electrode plane) are keys like the others.
TEST(ConfigGood, ColumnFieldKeysAreAccepted) {
  const RunConfig c = parse_config(kCell + kExperiment +
                                       "[output]\nfield_period = 60\nfields = [\"temperature\", "
                                       "\"collector_current_density\", \"negative_stoichiometry\", "
                                       "\"column_temperature\", \"negative_collector_potential\", "
                                       "\"positive_collector_potential\"]\n",
                                   "test.toml");
  EXPECT_EQ(c.output.fields.size(), 6u);
  EXPECT_EQ(c.output.fields[1], "collector_current_density");
  EXPECT_NE(error_of(kCell + kExperiment + "[output]\nfields = [\"collector_current_densty\"]\n")
                .find("did you mean 'collector_current_density'?"),
            std::string::npos);
}

TEST(ConfigDocs, TheExampleConfigLoads) {
  const std::string doc = read(fs::path(VOLTAIC_SOURCE_DIR) / "docs" / "config.md");
  const std::size_t begin = doc.find("```toml\n");
  ASSERT_NE(begin, std::string::npos);
  const std::size_t end = doc.find("```", begin + 8);
  const RunConfig c = parse_config(doc.substr(begin + 8, end - begin - 8), "docs/config.md");
  EXPECT_FALSE(c.experiment_steps.empty());
}

namespace {

/// A directory of this process's own with a config's drive-cycle tables.
class ConfigDriveCycles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("voltaic_config_drive_cycles_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "tables");
    std::ofstream(dir_ / "tables" / "us06.csv") << "# time [s], current [A]\n0, 1\n60, 2\n120, 0\n";
  }
  void TearDown() override { fs::remove_all(dir_); }
  /// The ConfigError that parsing `tables` (the body of [experiment.drive_cycles]) and `steps` gives.
  ConfigError error_of(const std::string& tables, const std::string& steps = "\"Run US06 (A)\"") const {
    try {
      parse(tables, steps);
    } catch (const ConfigError& e) {
      return e;
    }
    ADD_FAILURE() << tables << " loaded";
    return ConfigError("", 0, "", "");
  }
  RunConfig parse(const std::string& tables, const std::string& steps = "\"Run US06 (A)\"") const {
    return parse_config(kCell + "[experiment]\nsteps = [" + steps + "]\n\n[experiment.drive_cycles]\n" + tables,
                        "run.toml", dir_.string());
  }
  fs::path dir_;
};

}  // namespace

TEST_F(ConfigDriveCycles, PathsAreRelativeToTheConfigsDirectory) {
  const RunConfig c = parse("US06 = \"tables/us06.csv\"\nwltc = \"" + (dir_ / "tables" / "us06.csv").string() + "\"\n",
                            "\"Run US06 (A) until 2.5 V\", \"Run wltc (W) for 1 minute\"");
  ASSERT_EQ(c.drive_cycles.size(), 2u);
  EXPECT_EQ(c.drive_cycles.at("US06")->duration(), 120.0);
  EXPECT_EQ(c.drive_cycles.at("US06")->name(), "US06");
  const voltaic::Experiment e = c.experiment();
  EXPECT_EQ(e.step(1).mode, voltaic::StepMode::power);
  EXPECT_EQ(*e.step(1).duration_s, 60.0);
  // A config without Run steps may declare tables; an inline table works too.
  EXPECT_EQ(parse("US06 = \"tables/us06.csv\"\n", "\"Rest for 1 minute\"").drive_cycles.size(), 1u);
  const RunConfig inline_table =
      parse_config(kCell + "[experiment]\nsteps = [\"Run US06 (A)\"]\ndrive_cycles = { US06 = \"tables/us06.csv\" }\n",
                   "x", dir_.string());
  EXPECT_EQ(inline_table.experiment().step(0).drive_cycle, inline_table.drive_cycles.at("US06"));
}

TEST_F(ConfigDriveCycles, AMissingOrBadFileIsReportedAtItsKey) {
  const ConfigError missing = error_of("US06 = \"tables/none.csv\"\n");
  EXPECT_EQ(missing.file(), "run.toml");
  EXPECT_EQ(missing.line(), 7);
  EXPECT_EQ(missing.what_failed(), "experiment.drive_cycles.US06");
  EXPECT_NE(missing.why().find((dir_ / "tables" / "none.csv").string() + "': does not exist"), std::string::npos)
      << missing.what();

  std::ofstream(dir_ / "tables" / "bad.csv") << "Time,Current\n0,0\n10,1\n10,2\n";
  const ConfigError bad = error_of("\n\"US06\" = \"tables/bad.csv\"\n");
  EXPECT_EQ(bad.line(), 8);
  EXPECT_EQ(bad.what_failed(), "experiment.drive_cycles.US06");
  EXPECT_NE(bad.why().find((dir_ / "tables" / "bad.csv").string() + ":4: the time 10 is not after that of line 3"),
            std::string::npos)
      << bad.what();
  EXPECT_EQ(std::string(bad.what()).find('\n'), std::string::npos);

  // A FIFO is refused without blocking on it.
  ASSERT_EQ(::mkfifo((dir_ / "tables" / "pipe.csv").c_str(), 0600), 0);
  EXPECT_NE(error_of("US06 = \"tables/pipe.csv\"\n").why().find("is a FIFO"), std::string::npos);
  EXPECT_NE(error_of("US06 = \"tables\"\n").why().find("is a directory"), std::string::npos);
}

TEST_F(ConfigDriveCycles, BadNamesAndValues) {
  const ConfigError number = error_of("US06 = 3\n");
  EXPECT_EQ(number.what_failed(), "experiment.drive_cycles.US06");
  EXPECT_NE(number.why().find("is an integer (3); allowed: a CSV file"), std::string::npos) << number.what();
  const ConfigError spaced = error_of("\"US 06\" = \"tables/us06.csv\"\n");
  EXPECT_EQ(spaced.what_failed(), "experiment.drive_cycles.\"US 06\"");
  EXPECT_NE(spaced.why().find("holds a space"), std::string::npos) << spaced.what();
  EXPECT_NE(error_of("\"\" = \"tables/us06.csv\"\n").why().find("holds a space or a control character"),
            std::string::npos);
  EXPECT_NE(error_of("US06 = \"\"\n").why().find("is an empty string"), std::string::npos);
  const std::string nested = error_of("US06 = { file = \"tables/us06.csv\" }\n").why();
  EXPECT_NE(nested.find("is a table"), std::string::npos) << nested;
}

TEST_F(ConfigDriveCycles, AStepNamingAnUndeclaredTableGetsTheNearestName) {
  const ConfigError near = error_of("US06 = \"tables/us06.csv\"\n", "\"Rest for 1 minute\", \"Run US6 (A)\"");
  EXPECT_EQ(near.what_failed(), "experiment.steps");
  EXPECT_EQ(near.line(), 4);
  EXPECT_NE(near.why().find("step 2 'Run US6 (A)', column 5: unknown drive cycle 'US6'; did you mean 'US06'? "
                            "allowed: a table of [experiment.drive_cycles]: US06"),
            std::string::npos)
      << near.what();
  const ConfigError cased = error_of("US06 = \"tables/us06.csv\"\n", "\"Run us06 (A)\"");
  EXPECT_NE(cased.why().find("did you mean 'US06'?"), std::string::npos) << cased.what();
  const std::string none = ::error_of(kCell + "[experiment]\nsteps = [\"Run US06 (A)\"]\n");
  EXPECT_NE(none.find("unknown drive cycle 'US06': [experiment.drive_cycles] declares no tables"), std::string::npos)
      << none;
  // Other errors of a Run step say how a Run step is written.
  const std::string kind = error_of("US06 = \"tables/us06.csv\"\n", "\"Run US06 (X)\"").why();
  EXPECT_NE(kind.find("column 10: expected '(A)'"), std::string::npos) << kind;
  EXPECT_NE(kind.find("allowed: \"Run NAME (A)\" (a current table)"), std::string::npos) << kind;
  const std::string bare = error_of("US06 = \"tables/us06.csv\"\n", "\"run\"").why();
  EXPECT_NE(bare.find("drive cycle's name"), std::string::npos) << bare;
  EXPECT_NE(bare.find("allowed: \"Run NAME (A)\""), std::string::npos) << bare;
  const std::string longer = error_of("US06 = \"tables/us06.csv\"\n", "\"Run US06 (A) for 1 hour\"").why();
  EXPECT_NE(longer.find("the duration 3600 s is longer than drive cycle 'US06' (120 s)"), std::string::npos) << longer;
}

TEST(ConfigSuggest, DriveCyclesBelongToTheExperiment) {
  EXPECT_NE(
      error_of(kCell + "[grid]\ndrive_cycles = 3\n" + kExperiment).find("did you mean 'experiment.drive_cycles'?"),
      std::string::npos);
  const std::string not_table = error_of(kCell + kExperiment + "drive_cycles = \"x.csv\"\n");
  EXPECT_NE(not_table.find("experiment.drive_cycles: is a string (\"x.csv\"); allowed: a table"), std::string::npos)
      << not_table;
}

// An isothermal cell is held at the ambient temperature (PyBaMM's isothermal
// model): a file that names only the initial temperature means that one.
TEST(ConfigGood, AnIsothermalCellIsHeldAtTheTemperatureTheFileGives) {
  const auto thermal = [](const std::string& keys) {
    return parse_config(kCell + "[thermal]\n" + keys + kExperiment, "inline").parameters.thermal;
  };
  EXPECT_EQ(thermal("initial_temperature = 283.15\n").ambient_temperature, 283.15);
  EXPECT_EQ(thermal("ambient_temperature = 283.15\n").ambient_temperature, 283.15);
  EXPECT_EQ(thermal("ambient_temperature = 283.15\ninitial_temperature = 283.15\n").ambient_temperature, 283.15);
  // A lumped cell starts at one and is cooled towards the other.
  const auto lumped = thermal("model = \"lumped\"\nambient_temperature = 283.15\ninitial_temperature = 300\n");
  EXPECT_EQ(lumped.ambient_temperature, 283.15);
  EXPECT_EQ(lumped.initial_temperature, 300.0);
  EXPECT_EQ(thermal("model = \"lumped\"\ninitial_temperature = 300\n").ambient_temperature, 298.15);
}

TEST(ConfigErrors, AnIsothermalCellRefusesTwoTemperatures) {
  const std::string e =
      error_of(kCell + "[thermal]\nambient_temperature = 283.15\ninitial_temperature = 300\n" + kExperiment);
  EXPECT_NE(e.find("test.toml:5: thermal.initial_temperature: is 300 K, but an isothermal cell is held at one "
                   "temperature, the ambient one (thermal.ambient_temperature = 283.15 K, line 4)"),
            std::string::npos)
      << e;
}
