#include "io/xdmf.hpp"

#include <gtest/gtest.h>

#include <string>

#include "io/mini_xml.hpp"

using voltaic::io::xdmf_document;
using voltaic::io::XdmfSeries;
namespace xml = voltaic::test::xml;

namespace {

XdmfSeries two_frames() {
  XdmfSeries s;
  s.h5_file = "fields.h5";
  s.nx = 4;
  s.ny = 3;
  s.nz = 2;
  s.keys = {"temperature", "phi_e"};
  s.names = {"Cell temperature [K]", "Electrolyte potential [V]"};
  s.times = {0.0, 12.5};
  return s;
}

}  // namespace

TEST(FieldWriterXdmf, IsATemporalCollectionOfRectilinearGrids) {
  const xml::Element root = xml::parse(xdmf_document(two_frames()));
  EXPECT_EQ(root.name, "Xdmf");
  EXPECT_EQ(root.attr("Version"), "3.0");
  const xml::Element& collection = root.first("Domain").first("Grid");
  EXPECT_EQ(collection.attr("GridType"), "Collection");
  EXPECT_EQ(collection.attr("CollectionType"), "Temporal");
  const auto frames = collection.all("Grid");
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[1]->first("Time").attr("Value"), "12.5");

  const xml::Element& topology = frames[0]->first("Topology");
  EXPECT_EQ(topology.attr("TopologyType"), "3DRectMesh");
  EXPECT_EQ(topology.attr("Dimensions"), "3 4 5");  // nodes, z y x

  const xml::Element& geometry = frames[0]->first("Geometry");
  EXPECT_EQ(geometry.attr("GeometryType"), "VXVYVZ");
  const auto axes = geometry.all("DataItem");
  ASSERT_EQ(axes.size(), 3u);
  EXPECT_EQ(axes[0]->text, "fields.h5:/grid/x_nodes");
  EXPECT_EQ(axes[0]->attr("Dimensions"), "5");
  EXPECT_EQ(axes[1]->text, "fields.h5:/grid/y_nodes");
  EXPECT_EQ(axes[1]->attr("Dimensions"), "4");
  EXPECT_EQ(axes[2]->text, "fields.h5:/grid/z_nodes");
  EXPECT_EQ(axes[2]->attr("Dimensions"), "3");
  for (const auto* axis : axes) {
    EXPECT_EQ(axis->attr("Format"), "HDF");
    EXPECT_EQ(axis->attr("NumberType"), "Float");
    EXPECT_EQ(axis->attr("Precision"), "8");
  }
}

TEST(FieldWriterXdmf, EachFrameReadsItsOwnRowOfEveryField) {
  const xml::Element root = xml::parse(xdmf_document(two_frames()));
  const auto frames = root.first("Domain").first("Grid").all("Grid");
  ASSERT_EQ(frames.size(), 2u);
  for (std::size_t frame = 0; frame < frames.size(); ++frame) {
    const auto attributes = frames[frame]->all("Attribute");
    ASSERT_EQ(attributes.size(), 3u);  // region + 2 fields
    EXPECT_EQ(attributes[0]->attr("Name"), "region");
    EXPECT_EQ(attributes[0]->attr("Center"), "Cell");
    const xml::Element& region = attributes[0]->first("DataItem");
    EXPECT_EQ(region.attr("ItemType"), "HyperSlab");
    EXPECT_EQ(region.attr("Dimensions"), "2 3 4");  // cells, z y x
    ASSERT_EQ(region.all("DataItem").size(), 2u);
    EXPECT_EQ(region.all("DataItem")[0]->attr("Dimensions"), "3 1");
    EXPECT_EQ(region.all("DataItem")[0]->text, "0 1 24");
    EXPECT_EQ(region.all("DataItem")[1]->text, "fields.h5:/grid/region");
    EXPECT_EQ(region.all("DataItem")[1]->attr("NumberType"), "Int");
    EXPECT_EQ(region.all("DataItem")[1]->attr("Precision"), "4");
    EXPECT_EQ(region.all("DataItem")[1]->attr("Dimensions"), "24");

    const char* keys[] = {"temperature", "phi_e"};
    const char* names[] = {"Cell temperature [K]", "Electrolyte potential [V]"};
    for (int f = 0; f < 2; ++f) {
      const xml::Element& a = *attributes[f + 1];
      EXPECT_EQ(a.attr("Name"), names[f]);
      EXPECT_EQ(a.attr("Center"), "Cell");
      EXPECT_EQ(a.attr("AttributeType"), "Scalar");
      const xml::Element& slab = a.first("DataItem");
      EXPECT_EQ(slab.attr("ItemType"), "HyperSlab");
      // ParaView's XDMF (2) reader cuts cell data by z y x extents: the
      // selected row must come in the grid's cell shape.
      EXPECT_EQ(slab.attr("Dimensions"), "2 3 4");
      const auto items = slab.all("DataItem");
      ASSERT_EQ(items.size(), 2u);
      EXPECT_EQ(items[0]->attr("Dimensions"), "3 2");
      EXPECT_EQ(items[0]->attr("Format"), "XML");
      // start (frame, 0), stride (1, 1), count (1, cells)
      EXPECT_EQ(items[0]->text, std::to_string(frame) + " 0 1 1 1 24");
      EXPECT_EQ(items[1]->attr("Dimensions"), "2 24");  // the whole dataset: frames x cells
      EXPECT_EQ(items[1]->text, std::string("fields.h5:/fields/") + keys[f]);
    }
  }
}

TEST(FieldWriterXdmf, EscapesMarkupInNames) {
  XdmfSeries s = two_frames();
  s.names[0] = "a<b & \"c\"";
  s.h5_file = "run&1.h5";
  const xml::Element root = xml::parse(xdmf_document(s));
  const auto frame = root.first("Domain").first("Grid").all("Grid")[0];
  EXPECT_EQ(frame->all("Attribute")[1]->attr("Name"), "a<b & \"c\"");
  EXPECT_EQ(frame->first("Geometry").first("DataItem").text, "run&1.h5:/grid/x_nodes");
}

TEST(FieldWriterXdmf, WithoutFramesIsAnEmptyCollection) {
  XdmfSeries s = two_frames();
  s.times.clear();
  const xml::Element root = xml::parse(xdmf_document(s));
  EXPECT_TRUE(root.first("Domain").first("Grid").children.empty());
}

TEST(FieldWriterXdmf, WithoutColumnFieldsTheDomainHasOneCollection) {
  const xml::Element root = xml::parse(xdmf_document(two_frames()));
  EXPECT_EQ(root.first("Domain").all("Grid").size(), 1u);
}

// Column fields: a second temporal collection, at the same times, of slabs
// one cell thick over the x-y columns, whose attributes read rows of /planes.
TEST(FieldWriterXdmf, ColumnFieldsAreASecondCollectionOfOneLayerSlabs) {
  XdmfSeries s = two_frames();
  s.plane_keys = {"collector_current_density", "negative_stoichiometry"};
  s.plane_names = {"Current collector current density [A.m-2]", "Negative electrode stoichiometry"};
  const xml::Element root = xml::parse(xdmf_document(s));
  const auto collections = root.first("Domain").all("Grid");
  ASSERT_EQ(collections.size(), 2u);
  EXPECT_EQ(collections[0]->attr("Name"), "fields");
  EXPECT_EQ(collections[0]->all("Grid")[0]->all("Attribute").size(), 3u);  // unchanged: region + 2 cell fields
  const xml::Element& planes = *collections[1];
  EXPECT_EQ(planes.attr("Name"), "planes");
  EXPECT_EQ(planes.attr("GridType"), "Collection");
  EXPECT_EQ(planes.attr("CollectionType"), "Temporal");
  const auto frames = planes.all("Grid");
  ASSERT_EQ(frames.size(), 2u);
  for (std::size_t frame = 0; frame < frames.size(); ++frame) {
    const xml::Element& g = *frames[frame];
    EXPECT_EQ(g.attr("GridType"), "Uniform");
    EXPECT_EQ(g.attr("Name"), "planes frame " + std::to_string(frame));  // unique beside the cells' "frame N"
    EXPECT_EQ(g.first("Time").attr("Value"), frame == 0 ? "0" : "12.5");
    EXPECT_EQ(g.first("Topology").attr("TopologyType"), "3DRectMesh");
    EXPECT_EQ(g.first("Topology").attr("Dimensions"), "2 4 5");  // nodes, z y x: one layer of cells
    const auto axes = g.first("Geometry").all("DataItem");
    ASSERT_EQ(axes.size(), 3u);
    EXPECT_EQ(axes[0]->text, "fields.h5:/grid/x_nodes");
    EXPECT_EQ(axes[1]->text, "fields.h5:/grid/y_nodes");
    EXPECT_EQ(axes[2]->text, "fields.h5:/grid/plane_z_nodes");
    EXPECT_EQ(axes[2]->attr("Dimensions"), "2");
    const auto attributes = g.all("Attribute");
    ASSERT_EQ(attributes.size(), 2u);  // no region: the slab is not a cell layer
    for (std::size_t f = 0; f < 2; ++f) {
      EXPECT_EQ(attributes[f]->attr("Name"), s.plane_names[f]);
      EXPECT_EQ(attributes[f]->attr("Center"), "Cell");
      const xml::Element& slab = attributes[f]->first("DataItem");
      EXPECT_EQ(slab.attr("ItemType"), "HyperSlab");
      EXPECT_EQ(slab.attr("Dimensions"), "1 3 4");  // cells, z y x
      const auto items = slab.all("DataItem");
      ASSERT_EQ(items.size(), 2u);
      EXPECT_EQ(items[0]->attr("Dimensions"), "3 2");
      EXPECT_EQ(items[0]->text, std::to_string(frame) + " 0 1 1 1 12");
      EXPECT_EQ(items[1]->attr("Dimensions"), "2 12");  // frames x columns
      EXPECT_EQ(items[1]->text, "fields.h5:/planes/" + s.plane_keys[f]);
    }
  }
}

// A plane cut over ranks: per frame a spatial collection of the pieces'
// grids (ParaView's multiblock), each its own block's shape and file.
TEST(FieldWriterXdmf, PiecesAreJoinedFramebyFrameInSpatialCollections) {
  std::vector<XdmfSeries> pieces(2, two_frames());
  pieces[0].h5_file = "fields.rank-0.h5";
  pieces[1].h5_file = "fields.rank-1.h5";
  pieces[1].nx = 5;
  pieces[1].plane_keys = pieces[0].plane_keys = {"collector_current_density"};
  pieces[1].plane_names = pieces[0].plane_names = {"Current collector current density [A.m-2]"};
  const xml::Element root = xml::parse(xdmf_document(pieces));
  const auto collections = root.first("Domain").all("Grid");
  ASSERT_EQ(collections.size(), 2u);  // fields, planes
  for (const xml::Element* collection : collections) {
    const auto frames = collection->all("Grid");
    ASSERT_EQ(frames.size(), 2u);
    for (std::size_t frame = 0; frame < 2; ++frame) {
      const xml::Element& f = *frames[frame];
      EXPECT_EQ(f.attr("GridType"), "Collection");
      EXPECT_EQ(f.attr("CollectionType"), "Spatial");
      EXPECT_EQ(f.first("Time").attr("Value"), frame == 0 ? "0" : "12.5");
      const auto blocks = f.all("Grid");
      ASSERT_EQ(blocks.size(), 2u);
      for (std::size_t r = 0; r < 2; ++r) {
        const std::string file = "fields.rank-" + std::to_string(r) + ".h5";
        EXPECT_EQ(blocks[r]->attr("GridType"), "Uniform");
        EXPECT_EQ(blocks[r]->first("Geometry").first("DataItem").text, file + ":/grid/x_nodes");
        EXPECT_EQ(blocks[r]->first("Geometry").first("DataItem").attr("Dimensions"), r == 0 ? "5" : "6");
        const xml::Element& last = *blocks[r]->all("Attribute").back();
        const xml::Element& slab = last.first("DataItem");
        const std::string cells = std::to_string((r == 0 ? 4 : 5) * 3 * (collection == collections[0] ? 2 : 1));
        EXPECT_EQ(slab.all("DataItem")[0]->text, std::to_string(frame) + " 0 1 1 1 " + cells);
        EXPECT_EQ(slab.all("DataItem")[1]->text.rfind(file + ":/", 0), 0u);
      }
    }
  }
}
