// PackOutput: pack.csv and pack.h5 of a small made-up 2p2s solution read
// back (the HDF5 file with the plain C API), a solution that stopped early
// written all the same, and one whose sizes do not match refused with
// nothing published.
#include "voltaic/io/pack_output.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "io/hdf5_test_read.hpp"
#include "io/output_test_support.hpp"
#include "voltaic/core/error.hpp"

namespace fs = std::filesystem;
namespace h5 = voltaic::test::h5;
using voltaic::PackSolution;
using voltaic::io::PackOutput;
using voltaic::io::PackRunConfig;
using voltaic::test::entries_of;
using voltaic::test::read_text;
using voltaic::test::TempDir;

namespace {

/// A 2p2s pack (cells 0, 1 in group 0; 2, 3 in group 1) over 3 rows.
PackRunConfig config_2p2s() {
  PackRunConfig c;
  c.run.cell_source = "Chen2020";
  c.run.experiment_steps = {"Discharge at 1C until 5.0 V"};
  c.layout.parallel = 2;
  c.layout.series = 2;
  return c;
}

PackSolution solution_2p2s() {
  PackSolution s;
  s.cells = 4;
  s.time = {0.0, 10.0, 20.0};
  s.voltage = {8.2, 8.1, 8.05};
  s.current = {5.0, 5.0, 5.0};
  for (int r = 0; r < 3; ++r) {
    for (int k = 0; k < 4; ++k) {
      s.cell_current.push_back(2.5 + 0.1 * (k % 2 == 0 ? 1 : -1) * r);
      s.cell_voltage.push_back(4.1 - 0.01 * r - 0.001 * k);
      s.cell_temperature.push_back(298.15 + 0.1 * r + 0.01 * k);
      s.cell_heat.push_back(0.5 + 0.1 * k);
    }
  }
  s.completed = true;
  s.termination = "event: Discharge at 1C until 5.0 V";
  s.steps_taken = 2;
  return s;
}

}  // namespace

TEST(PackOutput, WritesThePackAndEveryCell) {
  const TempDir dir("pack_output");
  PackRunConfig config = config_2p2s();
  config.cells.names = {"Negative electrode thickness [m]"};
  config.cells.values = {8e-5, 8.5e-5, 9e-5, 9.5e-5};
  PackSolution s = solution_2p2s();
  s.coolant_outlet = {298.15, 298.2, 298.3};
  {
    PackOutput out(dir.string());
    out.write(config, s);
    EXPECT_EQ(out.files(), (std::vector<std::string>{(dir / "pack.csv").string(), (dir / "pack.h5").string()}));
  }
  EXPECT_EQ(entries_of(dir), (std::set<std::string>{"pack.csv", "pack.h5"}));  // no lock, no staging left
  EXPECT_EQ(read_text(dir / "pack.csv"), "Time [s],Voltage [V],Current [A]\n0,8.2,5\n10,8.1,5\n20,8.05,5\n");

  const auto file = h5::open((dir / "pack.h5").string());
  const hid_t f = file.get();
  EXPECT_EQ(h5::int64_attribute(f, "parallel"), 2);
  EXPECT_EQ(h5::int64_attribute(f, "series"), 2);
  EXPECT_EQ(h5::int64_attribute(f, "completed"), 1);
  EXPECT_EQ(h5::string_attribute(f, "termination"), s.termination);
  EXPECT_EQ(h5::string_attribute(f, "format"), "voltaic-pack-1");
  EXPECT_FALSE(h5::string_attribute(f, "voltaic_version").empty());
  EXPECT_EQ(h5::string_attribute(f, "parameter_set"), "Chen2020");
  for (const char* name : {"/time", "/voltage", "/current", "/coolant_outlet"}) {
    const auto d = h5::dataset(f, name);
    EXPECT_EQ(h5::shape(d.get()), (std::vector<hsize_t>{3})) << name;
  }
  EXPECT_EQ(h5::values<double>(h5::dataset(f, "/voltage").get(), H5T_NATIVE_DOUBLE), s.voltage);
  EXPECT_EQ(h5::values<double>(h5::dataset(f, "/coolant_outlet").get(), H5T_NATIVE_DOUBLE), s.coolant_outlet);
  const std::pair<const char*, const std::vector<double>*> cells[] = {{"/cells/current", &s.cell_current},
                                                                      {"/cells/voltage", &s.cell_voltage},
                                                                      {"/cells/temperature", &s.cell_temperature},
                                                                      {"/cells/heat", &s.cell_heat}};
  for (const auto& [name, expected] : cells) {
    const auto d = h5::dataset(f, name);
    EXPECT_EQ(h5::shape(d.get()), (std::vector<hsize_t>{3, 4})) << name;
    EXPECT_EQ(h5::values<double>(d.get(), H5T_NATIVE_DOUBLE), *expected) << name;  // row-major: row r, cell k
    EXPECT_EQ(h5::string_attribute(d.get(), "units").empty(), false) << name;
  }
  EXPECT_EQ(h5::values<std::int64_t>(h5::dataset(f, "/cells/series_index").get(), H5T_NATIVE_INT64),
            (std::vector<std::int64_t>{0, 0, 1, 1}));
  EXPECT_EQ(h5::values<std::int64_t>(h5::dataset(f, "/cells/parallel_index").get(), H5T_NATIVE_INT64),
            (std::vector<std::int64_t>{0, 1, 0, 1}));
  const auto parameters = h5::dataset(f, "/cells/parameters");
  EXPECT_EQ(h5::shape(parameters.get()), (std::vector<hsize_t>{4, 1}));
  EXPECT_EQ(h5::values<double>(parameters.get(), H5T_NATIVE_DOUBLE), config.cells.values);
}

// No heat reported, no coolant flow, identical cells: those datasets are
// left out; a pack that stopped early is written as it is.
TEST(PackOutput, LeavesOutWhatTheSolutionHasNot) {
  const TempDir dir("pack_output_partial");
  PackSolution s = solution_2p2s();
  s.cell_heat.clear();
  s.completed = false;
  s.termination = "cell 3 (series 1, parallel 1): step 1 failed";
  PackOutput(dir.string()).write(config_2p2s(), s);
  const auto file = h5::open((dir / "pack.h5").string());
  for (const char* name : {"/coolant_outlet", "/cells/heat", "/cells/parameters"})
    EXPECT_LT(H5Lexists(file.get(), name, H5P_DEFAULT), 1) << name;
  EXPECT_EQ(h5::int64_attribute(file.get(), "completed"), 0);
  EXPECT_EQ(h5::string_attribute(file.get(), "termination"), s.termination);
}

TEST(PackOutput, RefusesValuesThatAreNotOnePerCellAndRow) {
  const TempDir dir("pack_output_mismatch");
  PackSolution s = solution_2p2s();
  s.cell_temperature.pop_back();
  PackOutput out(dir.string());
  EXPECT_THROW(out.write(config_2p2s(), s), voltaic::SizeMismatch);
  PackSolution other = solution_2p2s();
  PackRunConfig three = config_2p2s();
  three.layout.parallel = 3;
  EXPECT_THROW(out.write(three, other), voltaic::SizeMismatch);
  out.abandon();
  EXPECT_FALSE(fs::exists(dir / "pack.csv"));
  EXPECT_FALSE(fs::exists(dir / "pack.h5"));
}
