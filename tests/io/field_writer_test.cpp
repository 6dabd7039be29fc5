#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "io/hdf5_test_read.hpp"
#include "io/mini_xml.hpp"
#include "io/output_test_support.hpp"
#include "voltaic/io/output_writers.hpp"

using voltaic::io::FieldDescription;
using voltaic::io::FieldGrid;
using voltaic::io::FieldWriter;
using voltaic::io::FileError;
using voltaic::test::entries_of;
using voltaic::test::fresh_dir;
using voltaic::test::read_text;
namespace h5 = voltaic::test::h5;
namespace xml = voltaic::test::xml;
using Names = std::set<std::string>;

namespace {

/// 3 x 2 x 2 cells; x runs through negative electrode, separator, positive.
FieldGrid small_grid() {
  FieldGrid g;
  g.x_nodes = {0.0, 8.5e-5, 1.1e-4, 1.9e-4};
  g.y_nodes = {0.0, 0.01, 0.02};
  g.z_nodes = {0.0, 0.03, 0.065};
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 3; ++i) g.region.push_back(i);
  return g;
}

std::vector<FieldDescription> two_fields() {
  return {{"temperature", "Cell temperature [K]", "K"}, {"phi_e", "Electrolyte potential [V]", "V"}};
}

/// A value that tells frame, field and cell apart.
double value(std::size_t frame, std::size_t field, std::size_t cell) {
  return 1000.0 * frame + 100.0 * field + cell + 0.25;
}

struct Frames {
  std::vector<std::vector<double>> per_field;
  std::vector<const double*> pointers() const {
    std::vector<const double*> p;
    for (const auto& v : per_field) p.push_back(v.data());
    return p;
  }
};

Frames frame_data(std::size_t frame, std::size_t fields, std::size_t cells) {
  Frames f;
  for (std::size_t k = 0; k < fields; ++k) {
    f.per_field.emplace_back(cells);
    for (std::size_t c = 0; c < cells; ++c) f.per_field[k][c] = value(frame, k, c);
  }
  return f;
}

/// Writes `frames` frames (times 0, 10, 20, ...) of two_fields() on small_grid().
void write_frames(FieldWriter& w, std::size_t frames) {
  for (std::size_t t = 0; t < frames; ++t) w.write(10.0 * t, frame_data(t, 2, 12).pointers());
}

}  // namespace

TEST(FieldWriter, RootAttributesAndGrid) {
  const auto d = fresh_dir("fields_grid");
  const FieldGrid grid = small_grid();
  {
    FieldWriter w((d / "fields.h5").string(), grid, two_fields());
    write_frames(w, 1);
    w.commit();
  }
  const auto file = h5::open((d / "fields.h5").string());
  EXPECT_EQ(h5::string_attribute(file.get(), "format"), "voltaic-fields-1");
  EXPECT_EQ(h5::int64_attribute(file.get(), "nx"), 3);
  EXPECT_EQ(h5::int64_attribute(file.get(), "ny"), 2);
  EXPECT_EQ(h5::int64_attribute(file.get(), "nz"), 2);
  // The whole plane: it starts at column (0, 0) of a plane of its own size.
  EXPECT_EQ(h5::int64_attribute(file.get(), "i_begin"), 0);
  EXPECT_EQ(h5::int64_attribute(file.get(), "j_begin"), 0);
  EXPECT_EQ(h5::int64_attribute(file.get(), "plane_nx"), 3);
  EXPECT_EQ(h5::int64_attribute(file.get(), "plane_ny"), 2);

  const std::pair<const char*, const std::vector<double>*> axes[] = {
      {"/grid/x_nodes", &grid.x_nodes}, {"/grid/y_nodes", &grid.y_nodes}, {"/grid/z_nodes", &grid.z_nodes}};
  for (const auto& [path, nodes] : axes) {
    const auto ds = h5::dataset(file.get(), path);
    EXPECT_EQ(h5::stored_type(ds.get()), std::make_pair(H5T_FLOAT, std::size_t{8})) << path;
    EXPECT_EQ(h5::values<double>(ds.get(), H5T_NATIVE_DOUBLE), *nodes) << path;
    EXPECT_EQ(h5::string_attribute(ds.get(), "units"), "m") << path;
  }
  const auto region = h5::dataset(file.get(), "/grid/region");
  EXPECT_EQ(h5::stored_type(region.get()), std::make_pair(H5T_INTEGER, std::size_t{4}));
  EXPECT_EQ(h5::shape(region.get()), std::vector<hsize_t>{12});
  const auto regions = h5::values<std::int32_t>(region.get(), H5T_NATIVE_INT32);
  EXPECT_EQ(std::vector<int>(regions.begin(), regions.end()), grid.region);
}

TEST(FieldWriter, EveryWriteAppendsOneFrameToEveryFieldAndToTime) {
  const auto d = fresh_dir("fields_values");
  {
    FieldWriter w((d / "fields.h5").string(), small_grid(), two_fields());
    EXPECT_EQ(w.frames(), 0u);
    write_frames(w, 3);
    EXPECT_EQ(w.frames(), 3u);
    w.commit();
  }
  const auto file = h5::open((d / "fields.h5").string());
  const auto time = h5::dataset(file.get(), "/time");
  EXPECT_EQ(h5::values<double>(time.get(), H5T_NATIVE_DOUBLE), (std::vector<double>{0.0, 10.0, 20.0}));
  EXPECT_EQ(h5::shape(time.get(), true), std::vector<hsize_t>{H5S_UNLIMITED});
  EXPECT_FALSE(h5::chunk_shape(time.get()).empty());
  EXPECT_EQ(h5::string_attribute(time.get(), "units"), "s");

  const auto fields = two_fields();
  for (std::size_t k = 0; k < fields.size(); ++k) {
    const auto ds = h5::dataset(file.get(), "/fields/" + fields[k].key);
    EXPECT_EQ(h5::stored_type(ds.get()), std::make_pair(H5T_FLOAT, std::size_t{8}));
    EXPECT_EQ(h5::shape(ds.get()), (std::vector<hsize_t>{3, 12}));
    EXPECT_EQ(h5::shape(ds.get(), true), (std::vector<hsize_t>{H5S_UNLIMITED, 12}));
    EXPECT_EQ(h5::chunk_shape(ds.get()), (std::vector<hsize_t>{1, 12}));
    EXPECT_EQ(h5::string_attribute(ds.get(), "name"), fields[k].name);
    EXPECT_EQ(h5::string_attribute(ds.get(), "units"), fields[k].unit);
    const auto stored = h5::values<double>(ds.get(), H5T_NATIVE_DOUBLE);
    ASSERT_EQ(stored.size(), 36u);
    for (std::size_t t = 0; t < 3; ++t)
      for (std::size_t c = 0; c < 12; ++c) EXPECT_EQ(stored[t * 12 + c], value(t, k, c)) << t << " " << c;
  }
}

TEST(FieldWriter, ARowOfMoreThan4MiBIsChunkedInEqualPieces) {
  const auto d = fresh_dir("fields_chunks");
  FieldGrid g;
  for (int i = 0; i <= 100; ++i) g.x_nodes.push_back(i), g.y_nodes.push_back(i), g.z_nodes.push_back(i);
  g.region.assign(1000000, 1);
  std::vector<double> row(1000000);
  for (std::size_t c = 0; c < row.size(); ++c) row[c] = 0.5 * c;
  {
    FieldWriter w((d / "fields.h5").string(), g, {{"c_e", "Electrolyte concentration [mol.m-3]", "mol.m-3"}});
    w.write(1.0, {row.data()});
    w.write(2.0, {row.data()});
    w.commit();
  }
  const auto file = h5::open((d / "fields.h5").string());
  const auto ds = h5::dataset(file.get(), "/fields/c_e");
  // 8 MB per row: two chunks of 500000 cells (4 MB each), one frame per chunk.
  EXPECT_EQ(h5::chunk_shape(ds.get()), (std::vector<hsize_t>{1, 500000}));
  const auto stored = h5::values<double>(ds.get(), H5T_NATIVE_DOUBLE);
  ASSERT_EQ(stored.size(), 2000000u);
  EXPECT_EQ(stored[999999], 0.5 * 999999);
  EXPECT_EQ(stored[1000000 + 123456], 0.5 * 123456);
}

TEST(FieldWriter, XdmfOfTheCommittedPairDescribesEveryFrame) {
  const auto d = fresh_dir("fields_xdmf");
  {
    FieldWriter w((d / "fields.h5").string(), small_grid(), two_fields());
    write_frames(w, 3);
    w.commit();
  }
  const xml::Element root = xml::parse(read_text(d / "fields.xdmf"));
  const auto frames = root.first("Domain").first("Grid").all("Grid");
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_EQ(frames[2]->first("Time").attr("Value"), "20");
  EXPECT_EQ(frames[2]->first("Topology").attr("Dimensions"), "3 3 4");
  const auto attributes = frames[2]->all("Attribute");
  ASSERT_EQ(attributes.size(), 3u);
  const xml::Element& slab = attributes[2]->first("DataItem");
  EXPECT_EQ(attributes[2]->attr("Name"), "Electrolyte potential [V]");
  EXPECT_EQ(slab.all("DataItem")[0]->text, "2 0 1 1 1 12");
  EXPECT_EQ(slab.all("DataItem")[1]->attr("Dimensions"), "3 12");
  // Relative, final name: the pair can be moved together.
  EXPECT_EQ(slab.all("DataItem")[1]->text, "fields.h5:/fields/phi_e");
}

// A column field (one value per x-y column) goes to /planes with rows of nx
// ny values, between cell fields in the writer's order; the XDMF shows it on
// a second collection.
TEST(FieldWriter, ColumnFieldsGoToPlanesWithOneValuePerColumn) {
  const auto d = fresh_dir("fields_planes");
  FieldGrid grid = small_grid();
  grid.plane_z_nodes = {0.065, 0.066};
  const std::vector<FieldDescription> fields = {
      {"temperature", "Cell temperature [K]", "K"},
      {"collector_current_density", "Current collector current density [A.m-2]", "A.m-2",
       voltaic::io::FieldMesh::columns},
      {"negative_stoichiometry", "Negative electrode stoichiometry", "", voltaic::io::FieldMesh::columns}};
  const std::size_t sizes[] = {12, 6, 6};
  {
    FieldWriter w((d / "fields.h5").string(), grid, fields);
    for (std::size_t t = 0; t < 2; ++t) {
      Frames f;
      for (std::size_t k = 0; k < 3; ++k) {
        f.per_field.emplace_back(sizes[k]);
        for (std::size_t c = 0; c < sizes[k]; ++c) f.per_field[k][c] = value(t, k, c);
      }
      w.write(5.0 * t, f.pointers());
    }
    w.commit();
  }
  const auto file = h5::open((d / "fields.h5").string());
  const auto plane = h5::dataset(file.get(), "/grid/plane_z_nodes");
  EXPECT_EQ(h5::values<double>(plane.get(), H5T_NATIVE_DOUBLE), grid.plane_z_nodes);
  EXPECT_EQ(h5::string_attribute(plane.get(), "units"), "m");
  for (std::size_t k = 0; k < 3; ++k) {
    const std::string path = (k == 0 ? "/fields/" : "/planes/") + fields[k].key;
    const auto ds = h5::dataset(file.get(), path);
    EXPECT_EQ(h5::shape(ds.get()), (std::vector<hsize_t>{2, sizes[k]})) << path;
    EXPECT_EQ(h5::string_attribute(ds.get(), "name"), fields[k].name);
    EXPECT_EQ(h5::string_attribute(ds.get(), "units"), fields[k].unit);
    const auto stored = h5::values<double>(ds.get(), H5T_NATIVE_DOUBLE);
    ASSERT_EQ(stored.size(), 2 * sizes[k]);
    for (std::size_t t = 0; t < 2; ++t)
      for (std::size_t c = 0; c < sizes[k]; ++c) EXPECT_EQ(stored[t * sizes[k] + c], value(t, k, c)) << path;
  }
  const xml::Element root = xml::parse(read_text(d / "fields.xdmf"));
  const auto collections = root.first("Domain").all("Grid");
  ASSERT_EQ(collections.size(), 2u);
  EXPECT_EQ(collections[0]->all("Grid")[1]->all("Attribute").size(), 2u);  // region, temperature
  const auto attributes = collections[1]->all("Grid")[1]->all("Attribute");
  ASSERT_EQ(attributes.size(), 2u);
  EXPECT_EQ(attributes[0]->attr("Name"), fields[1].name);
  EXPECT_EQ(attributes[1]->first("DataItem").all("DataItem")[1]->text, "fields.h5:/planes/negative_stoichiometry");
}

TEST(FieldWriter, WithoutPlaneNodesTheSlabSitsOnTopOfTheGrid) {
  const auto d = fresh_dir("fields_default_plane");
  {
    FieldWriter w((d / "fields.h5").string(), small_grid(), two_fields());
    w.commit();
  }
  const auto file = h5::open((d / "fields.h5").string());
  const auto plane = h5::dataset(file.get(), "/grid/plane_z_nodes");
  const auto z = h5::values<double>(plane.get(), H5T_NATIVE_DOUBLE);
  ASSERT_EQ(z.size(), 2u);
  EXPECT_EQ(z[0], 0.065);
  EXPECT_NEAR(z[1], 0.1, 1e-15);  // the last layer's thickness (0.035) above it
  FieldGrid bad = small_grid();
  bad.plane_z_nodes = {0.0, 1.0, 2.0};
  EXPECT_THROW(FieldWriter((d / "other.h5").string(), bad, two_fields()), voltaic::SizeMismatch);
}

TEST(FieldWriter, BothFilesStayTemporaryUntilCommitAndTheXdmfFollowsEveryFrame) {
  const auto d = fresh_dir("fields_part");
  FieldWriter w((d / "fields.h5").string(), small_grid(), two_fields());
  EXPECT_EQ(entries_of(d), (Names{".fields.h5.part", ".fields.xdmf.part"}));
  for (std::size_t t = 0; t < 3; ++t) {
    w.write(10.0 * t, frame_data(t, 2, 12).pointers());
    EXPECT_EQ(entries_of(d), (Names{".fields.h5.part", ".fields.xdmf.part"}));
    const xml::Element root = xml::parse(read_text(d / ".fields.xdmf.part"));
    EXPECT_EQ(root.first("Domain").first("Grid").all("Grid").size(), t + 1);
  }
  w.commit();
  EXPECT_EQ(entries_of(d), (Names{"fields.h5", "fields.xdmf"}));
  EXPECT_EQ(h5::open_hdf5_objects(), 0);
  EXPECT_THROW(w.write(40.0, frame_data(4, 2, 12).pointers()), FileError);
  EXPECT_THROW(w.commit(), FileError);
}

TEST(FieldWriter, AbandonedWriterLeavesNoFiles) {
  const auto d = fresh_dir("fields_abandon");
  {
    FieldWriter w((d / "fields.h5").string(), small_grid(), two_fields());
    write_frames(w, 2);
  }
  EXPECT_TRUE(entries_of(d).empty());
}

TEST(FieldWriter, CommitReplacesAnOlderPair) {
  const auto d = fresh_dir("fields_replace");
  for (std::size_t frames : {3, 1}) {
    FieldWriter w((d / "fields.h5").string(), small_grid(), two_fields());
    write_frames(w, frames);
    w.commit();
  }
  EXPECT_EQ(entries_of(d), (Names{"fields.h5", "fields.xdmf"}));
  const auto file = h5::open((d / "fields.h5").string());
  EXPECT_EQ(h5::shape(h5::dataset(file.get(), "/time").get()), std::vector<hsize_t>{1});
  EXPECT_EQ(xml::parse(read_text(d / "fields.xdmf")).first("Domain").first("Grid").all("Grid").size(), 1u);
}

TEST(FieldWriter, WrongArgumentsAreRefusedBeforeAnyFileIsMade) {
  const auto d = fresh_dir("fields_arguments");
  const std::string path = (d / "fields.h5").string();
  FieldGrid bad_regions = small_grid();
  bad_regions.region.pop_back();
  EXPECT_THROW(FieldWriter(path, bad_regions, two_fields()), voltaic::SizeMismatch);
  FieldGrid flat = small_grid();
  flat.z_nodes = {0.0};
  EXPECT_THROW(FieldWriter(path, flat, two_fields()), voltaic::InvalidArgument);
  EXPECT_THROW(FieldWriter(path, small_grid(), {{"a/b", "A", "1"}}), voltaic::InvalidArgument);
  EXPECT_THROW(FieldWriter(path, small_grid(), {{"a", "A", "1"}, {"a", "B", "1"}}), voltaic::InvalidArgument);
  EXPECT_THROW(FieldWriter(path, small_grid(), {{"a", "A", "1"}, {"b", "A", "1"}}), voltaic::InvalidArgument);
  EXPECT_THROW(FieldWriter((d / "fields.xdmf").string(), small_grid(), two_fields()), voltaic::InvalidArgument);
  EXPECT_TRUE(entries_of(d).empty());

  FieldWriter w(path, small_grid(), two_fields());
  const auto one = frame_data(0, 1, 12);
  EXPECT_THROW(w.write(0.0, one.pointers()), voltaic::SizeMismatch);
  EXPECT_THROW(w.write(0.0, {one.per_field[0].data(), nullptr}), voltaic::InvalidArgument);
  write_frames(w, 1);  // refused arguments leave the writer usable
  w.commit();
  EXPECT_EQ(entries_of(d), (Names{"fields.h5", "fields.xdmf"}));
}

TEST(FieldWriter, UncreatableFileIsAFileErrorNamingThePathAndLeavesNothing) {
  const auto d = fresh_dir("fields_uncreatable");
  const std::string path = (d / "missing" / "fields.h5").string();
  try {
    FieldWriter w(path, small_grid(), two_fields());
    FAIL() << "no exception";
  } catch (const FileError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(path), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
  EXPECT_TRUE(entries_of(d).empty());
  EXPECT_EQ(h5::open_hdf5_objects(), 0);
}

TEST(FieldWriter, AFailedCommitLeavesNoTemporaries) {
  const auto d = fresh_dir("fields_failed_commit");
  // A directory where the HDF5 file should go: the rename cannot replace it.
  voltaic::test::fs::create_directory(d / "fields.h5");
  {
    FieldWriter w((d / "fields.h5").string(), small_grid(), two_fields());
    write_frames(w, 1);
    EXPECT_THROW(w.commit(), FileError);
    EXPECT_EQ(h5::open_hdf5_objects(), 0);  // closed before the rename was tried
    EXPECT_THROW(write_frames(w, 1), FileError);
  }
  EXPECT_EQ(entries_of(d), Names{"fields.h5"});
}

TEST(FieldWriter, AFailedWriteStopsTheWriterAndLeavesNoTemporaries) {
  const auto d = fresh_dir("fields_failed_write");
  {
    FieldWriter w((d / "fields.h5").string(), small_grid(), two_fields());
    write_frames(w, 1);
    // A directory in place of the XDMF temporary: its atomic rewrite fails.
    voltaic::test::fs::remove(d / ".fields.xdmf.part");
    voltaic::test::fs::create_directory(d / ".fields.xdmf.part");
    EXPECT_THROW(w.write(10.0, frame_data(1, 2, 12).pointers()), FileError);
    EXPECT_THROW(w.write(20.0, frame_data(2, 2, 12).pointers()), FileError);
    EXPECT_THROW(w.commit(), FileError);
  }
  EXPECT_TRUE(entries_of(d).empty());
  EXPECT_EQ(h5::open_hdf5_objects(), 0);
}

// A rank's piece of a cut plane: its place in the plane as root attributes,
// no XDMF file of its own (one joins the pieces), and a block that does not
// fit its plane refused.
TEST(FieldWriter, APieceRecordsWhereItLiesAndWritesNoXdmf) {
  const auto d = fresh_dir("fields_piece");
  FieldGrid grid = small_grid();  // 3 x 2 columns
  grid.i_begin = 4;
  grid.j_begin = 1;
  grid.plane_nx = 7;
  grid.plane_ny = 3;
  {
    FieldWriter w((d / "fields.rank-1.h5").string(), grid, two_fields(), false);
    write_frames(w, 2);
    w.commit();
  }
  EXPECT_EQ(entries_of(d), Names{"fields.rank-1.h5"});
  const auto file = h5::open((d / "fields.rank-1.h5").string());
  EXPECT_EQ(h5::int64_attribute(file.get(), "i_begin"), 4);
  EXPECT_EQ(h5::int64_attribute(file.get(), "j_begin"), 1);
  EXPECT_EQ(h5::int64_attribute(file.get(), "plane_nx"), 7);
  EXPECT_EQ(h5::int64_attribute(file.get(), "plane_ny"), 3);
  grid.i_begin = 5;  // columns 5..7 of a 7-column plane
  EXPECT_THROW(FieldWriter((d / "bad.h5").string(), grid, two_fields(), false), voltaic::InvalidArgument);
}
