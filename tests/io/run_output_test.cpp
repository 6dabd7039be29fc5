// RunOutput: the files a run leaves (time series, fields, checkpoints), a
// restart from the checkpoint file that ends bit for bit where the whole run
// ends, and a run that stops early keeping everything complete.
#include "voltaic/io/run_output.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "io/hdf5_test_read.hpp"
#include "io/mini_xml.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/io/checkpoint_file.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/solver/field_catalog.hpp"
#include "voltaic/solver/simulation.hpp"

namespace voltaic::io {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("voltaic_run_output_" + name);
  fs::remove_all(d);
  return d;
}

std::size_t lines_of(const fs::path& p) {
  std::ifstream in(p);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}

SimulationOptions small_cell() {
  SimulationOptions o;
  o.grid = {6, 4, 6, 6, 2, 1};
  o.thermal = ThermalModel::lumped;
  return o;
}

/// Whatever is left in `dir` that is not a committed file: a temporary, a staging directory.
bool has_temporaries(const fs::path& dir) {
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() == ".part" || name.rfind(OutputDirectory::kStagingPrefix, 0) == 0) return true;
  }
  return false;
}

TEST(RunOutput, LeavesTimeSeriesFieldsAndACheckpointThatContinuesBitForBit) {
  const fs::path dir = fresh_dir("restart");
  OutputConfig out;
  out.directory = (dir / "whole").string();
  out.field_period = 300.0;
  out.fields = {"temperature", "electrolyte_concentration"};
  out.checkpoint_period = 500.0;
  SimulationOptions o = small_cell();
  o.field_period = out.field_period;
  const Experiment experiment({"Discharge at 1C until 3.4 V", "Rest for 5 minutes"});

  Simulation whole(parameter_sets::chen2020(), o, CpuExecutor::create());
  RunOutput output(out, whole.layout());
  const Solution a = whole.run(experiment, &output);
  output.finish(a);
  ASSERT_TRUE(a.completed) << a.termination;
  EXPECT_EQ(lines_of(dir / "whole" / "timeseries.csv"), a.rows() + 1);
  for (const char* f : {"timeseries.csv", "fields.h5", "fields.xdmf", "checkpoint.h5"})
    EXPECT_TRUE(fs::exists(dir / "whole" / f)) << f;
  EXPECT_FALSE(has_temporaries(dir / "whole"));

  const Checkpoint c = read_checkpoint((dir / "whole" / "checkpoint.h5").string());
  ASSERT_GT(c.scalars.at("time"), 500.0);
  Simulation resumed(parameter_sets::chen2020(), o, CpuExecutor::create());
  resumed.load_checkpoint(c);
  OutputConfig out2 = out;
  out2.directory = (dir / "restarted").string();
  RunOutput output2(out2, resumed.layout(), resumed.time());
  const Solution b = resumed.run(experiment, &output2);
  output2.finish(b);
  ASSERT_EQ(a.rows(), b.rows());
  for (const std::string& name : Solution::variable_names()) EXPECT_EQ(a[name], b[name]) << name;
  EXPECT_EQ(whole.lithium_inventory(), resumed.lithium_inventory());
  std::ifstream x(dir / "whole" / "timeseries.csv"), y(dir / "restarted" / "timeseries.csv");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(x), {}), std::string(std::istreambuf_iterator<char>(y), {}));
}

TEST(RunOutput, ARunThatStopsEarlyKeepsEveryCompleteRow) {
  const fs::path dir = fresh_dir("failure");
  OutputConfig out;
  out.directory = dir.string();
  out.field_period = 20.0;
  SimulationOptions o = small_cell();
  o.field_period = out.field_period;
  o.potential.max_iterations = 2;  // too few for the first step after a rest
  o.steps.max_retries = 2;
  Simulation sim(parameter_sets::chen2020(), o, CpuExecutor::create());
  RunOutput output(out, sim.layout());
  const Solution s = sim.run(Experiment({"Rest for 1 minute", "Discharge at 3C until 2.5 V"}), &output);
  output.finish(s);
  ASSERT_FALSE(s.completed);
  EXPECT_EQ(lines_of(dir / "timeseries.csv"), s.rows() + 1);
  EXPECT_TRUE(fs::exists(dir / "fields.h5"));
  EXPECT_TRUE(fs::exists(dir / "fields.xdmf"));
  EXPECT_FALSE(has_temporaries(dir));
}

// A 3D cell's run writes every field by default: the cell fields under
// /fields [frames, cells], the column fields under /planes [frames, nx ny],
// and the XDMF shows the latter on the slab of the positive collector foil.
TEST(RunOutput, ColumnFieldsOfA3DCellGoToPlanes) {
  const fs::path dir = fresh_dir("planes");
  OutputConfig out;
  out.directory = dir.string();
  out.field_period = 60.0;
  SimulationOptions o;
  o.grid = {6, 4, 6, 6, 3, 4};
  o.thermal = ThermalModel::lumped;
  o.field_period = out.field_period;
  Simulation sim(parameter_sets::chen2020(), o, CpuExecutor::create());
  RunOutput output(out, sim.layout());
  const Solution s = sim.run(Experiment({"Discharge at 1C for 3 minutes"}), &output);
  output.finish(s);
  ASSERT_TRUE(s.completed) << s.termination;
  const hsize_t frames = 4, cells = sim.layout().num_cells(), columns = 12;

  std::vector<std::string> cell_names, column_names;
  {
    const auto file = test::h5::open((dir / "fields.h5").string());
    for (const FieldInfo& f : field_catalog()) {
      const bool column = f.kind == FieldKind::column;
      (column ? column_names : cell_names).push_back(f.name);
      const std::string path = (column ? "/planes/" : "/fields/") + f.key;
      const auto ds = test::h5::dataset(file.get(), path);
      EXPECT_EQ(test::h5::shape(ds.get()), (std::vector<hsize_t>{frames, column ? columns : cells})) << path;
      EXPECT_EQ(test::h5::string_attribute(ds.get(), "name"), f.name) << path;
    }
    const double top = sim.layout().grid()->thickness();
    const auto plane = test::h5::dataset(file.get(), "/grid/plane_z_nodes");
    const auto z = test::h5::values<double>(plane.get(), H5T_NATIVE_DOUBLE);
    ASSERT_EQ(z.size(), 2u);
    EXPECT_NEAR(z[0], top, 1e-15);
    EXPECT_NEAR(z[1] - z[0], parameter_sets::chen2020().positive_current_collector.thickness, 1e-15);
    const auto current = test::h5::dataset(file.get(), "/planes/collector_current_density");
    const auto values = test::h5::values<double>(current.get(), H5T_NATIVE_DOUBLE);
    double total = 0.0;
    for (hsize_t c = 0; c < columns; ++c) total += values[(frames - 1) * columns + c];
    const double i = parameter_sets::chen2020().electrical.nominal_capacity;
    EXPECT_NEAR(total * sim.layout().constants().map.face_area, i, 1e-12 * i);
  }
  namespace xml = test::xml;
  std::ifstream in(dir / "fields.xdmf");
  const xml::Element root = xml::parse(std::string(std::istreambuf_iterator<char>(in), {}));
  const auto collections = root.first("Domain").all("Grid");
  ASSERT_EQ(collections.size(), 2u);
  const std::pair<const xml::Element*, const std::vector<std::string>*> expected[] = {{collections[0], &cell_names},
                                                                                      {collections[1], &column_names}};
  for (const auto& [collection, names] : expected) {
    const auto grids = collection->all("Grid");
    ASSERT_EQ(grids.size(), frames);
    std::vector<std::string> shown;
    for (const auto* a : grids.back()->all("Attribute"))
      if (a->attr("Name") != "region") shown.push_back(a->attr("Name"));
    EXPECT_EQ(shown, *names);
  }
  EXPECT_EQ(collections[1]->all("Grid")[0]->first("Topology").attr("Dimensions"), "2 5 4");
}

TEST(RunOutput, TimeSeriesColumnsUsePyBaMMNames) {
  const std::vector<std::string> c = timeseries_columns();
  for (const char* name : {"Time [s]", "Voltage [V]", "Current [A]", "Discharge capacity [A.h]", "Cell temperature [K]",
                           "Minimum cell temperature [K]", "Maximum cell temperature [K]"})
    EXPECT_NE(std::find(c.begin(), c.end(), name), c.end()) << name;
}

}  // namespace
}  // namespace voltaic::io
