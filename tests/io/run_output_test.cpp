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
#include "voltaic/io/checkpoint_pieces.hpp"
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

/// A block's piece of a whole-plane field of `layers` layers (x fastest).
std::vector<double> block_values(const std::vector<double>& whole, int nx, int ny, const PlaneBlock& b, int layers) {
  std::vector<double> v;
  for (int k = 0; k < layers; ++k)
    for (int j = b.j_begin; j < b.j_end; ++j)
      for (int i = b.i_begin; i < b.i_end; ++i) v.push_back(whole[i + nx * (j + ny * k)]);
  return v;
}

// A plane cut over two ranks, both played here: each rank's RunOutput writes
// its block's fields and checkpoint piece into rank 0's staging directory;
// rank 0 publishes them with one XDMF and one manifest, replacing the pieces
// an earlier run on more ranks left.
TEST(RunOutput, RanksOfACutPlaneWriteTheirPiecesJoinedByOneXdmfAndOneManifest) {
  const fs::path dir = fresh_dir("pieces");
  fs::create_directories(dir);
  for (const char* stale : {"fields.rank-2.h5", "checkpoint.g1.rank-3.h5", "checkpoint.gold.h5"})
    std::ofstream(dir / stale) << "old";
  OutputConfig out;
  out.directory = dir.string();
  out.field_period = 60.0;
  out.fields = {"temperature", "collector_current_density"};
  out.checkpoint_period = 1.0;
  SimulationOptions o;
  o.grid = {6, 4, 6, 6, 6, 4};
  o.thermal = ThermalModel::lumped;
  Simulation sim(parameter_sets::chen2020(), o, CpuExecutor::create());
  const CellLayout& layout = sim.layout();
  const int nx = 6, ny = 4, nz = static_cast<int>(layout.grid()->nz());
  const std::vector<PlaneBlock> blocks = {PlaneBlock{0, 2, 0, 4}, PlaneBlock{2, 6, 0, 4}};

  RunOutput root(out, layout, 0.0, RankShare{0, blocks, ""});
  RunOutput other(out, layout, 0.0, RankShare{1, blocks, root.directory().staging_path()});
  EXPECT_TRUE(root.takes_blocks());
  std::vector<double> t(static_cast<std::size_t>(nx * ny * nz)), current(static_cast<std::size_t>(nx * ny));
  for (std::size_t c = 0; c < t.size(); ++c) t[c] = 298.0 + 0.001 * double(c);
  for (std::size_t c = 0; c < current.size(); ++c) current[c] = 10.0 + double(c);
  for (double time : {0.0, 60.0}) {
    for (RunOutput* r : {&root, &other}) {
      const PlaneBlock& b = blocks[r == &root ? 0 : 1];
      const std::vector<double> tb = block_values(t, nx, ny, b, nz), cb = block_values(current, nx, ny, b, 1);
      r->on_fields(time, {tb.data(), cb.data()});
    }
  }
  for (RunOutput* r : {&root, &other}) {
    Checkpoint c;
    c.arrays["state/T"] = block_values(t, nx, ny, blocks[r == &root ? 0 : 1], nz);
    c.arrays["solution/Time [s]"] = {0.0, 60.0};
    c.scalars["time"] = 60.0;
    c.integers["step index"] = 1;
    set_window(c, {nx, ny, blocks[r == &root ? 0 : 1]});
    r->on_checkpoint(c);
  }
  root.seal_checkpoint();
  other.seal_checkpoint();
  other.close();
  root.close();
  root.publish();

  for (const char* f : {"timeseries.csv", "fields.xdmf", "fields.rank-0.h5", "fields.rank-1.h5", "checkpoint.h5",
                        "checkpoint.g0.rank-0.h5", "checkpoint.g0.rank-1.h5"})
    EXPECT_TRUE(fs::exists(dir / f)) << f;
  for (const char* f : {"fields.h5", "fields.rank-2.h5", "checkpoint.g1.rank-3.h5"})
    EXPECT_FALSE(fs::exists(dir / f)) << f;
  EXPECT_TRUE(fs::exists(dir / "checkpoint.gold.h5"));  // not a name a run writes: the user's
  EXPECT_FALSE(has_temporaries(dir));
  {
    const auto file = test::h5::open((dir / "fields.rank-1.h5").string());
    const auto x = test::h5::values<double>(test::h5::dataset(file.get(), "/grid/x_nodes").get(), H5T_NATIVE_DOUBLE);
    ASSERT_EQ(x.size(), 5u);
    EXPECT_NEAR(x[0], 2 * layout.grid()->dx(), 1e-15);
    const auto ds = test::h5::dataset(file.get(), "/fields/temperature");
    EXPECT_EQ(test::h5::shape(ds.get()), (std::vector<hsize_t>{2, hsize_t(4 * 4 * nz)}));
    const auto v = test::h5::values<double>(ds.get(), H5T_NATIVE_DOUBLE);
    EXPECT_EQ(std::vector<double>(v.begin() + 4 * 4 * nz, v.end()), block_values(t, nx, ny, blocks[1], nz));
  }
  namespace xml = test::xml;
  std::ifstream in(dir / "fields.xdmf");
  const xml::Element doc = xml::parse(std::string(std::istreambuf_iterator<char>(in), {}));
  const auto frames = doc.first("Domain").first("Grid").all("Grid");
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[1]->attr("CollectionType"), "Spatial");
  ASSERT_EQ(frames[1]->all("Grid").size(), 2u);
  EXPECT_EQ(frames[1]->all("Grid")[1]->first("Topology").attr("Dimensions"),
            std::to_string(nz + 1) + " 5 5");  // nodes z y x of the 4 x 4 block

  // The manifest assembles the whole plane, and any block, from the pieces.
  const Checkpoint whole = read_checkpoint_for((dir / "checkpoint.h5").string(), sim.state_window());
  EXPECT_EQ(whole.arrays.at("state/T"), t);
}

}  // namespace
}  // namespace voltaic::io
