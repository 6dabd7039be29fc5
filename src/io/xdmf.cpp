#include "xdmf.hpp"

#include "number_format.hpp"

namespace voltaic::io {

namespace {

/// `text` with the five XML special characters replaced by entities, so that
/// it is safe both as an attribute value and as element content.
std::string xml_escaped(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string heavy_item(const std::string& dimensions, const char* number_type, int precision,
                       const std::string& h5_path) {
  return "<DataItem Dimensions=\"" + dimensions + "\" NumberType=\"" + number_type + "\" Precision=\"" +
         std::to_string(precision) + "\" Format=\"HDF\">" + h5_path + "</DataItem>";
}

/// The cell shape of a mesh: cells per direction in z y x order, the
/// Dimensions of its HyperSlab items.
struct CellShape {
  std::size_t nx, ny, nz;
  std::string zyx() const { return std::to_string(nz) + " " + std::to_string(ny) + " " + std::to_string(nx); }
  std::string cells() const { return std::to_string(nx * ny * nz); }
};

/// A HyperSlab DataItem selecting `selection` (start, stride and count for
/// each of the `rank` dimensions of `source`, the HDF DataItem of a whole
/// dataset) and presenting it in the grid's cell shape "nz ny nx". ParaView's
/// XDMF (2) reader needs that shape: it cuts structured cell data by extents
/// in z y x order, so a flat [cells] or [1, cells] item would lose all but a
/// few values. The XDMF 3 reader only counts the values.
std::string cell_slab(const CellShape& shape, int rank, const std::string& selection, const std::string& source) {
  std::string xml = "          <DataItem ItemType=\"HyperSlab\" Dimensions=\"" + shape.zyx() + "\">\n";
  xml += "            <DataItem Dimensions=\"3 " + std::to_string(rank) + "\" NumberType=\"UInt\" Format=\"XML\">" +
         selection + "</DataItem>\n";
  xml += "            " + source + "\n";
  xml += "          </DataItem>\n";
  return xml;
}

/// Topology and geometry of a 3D rectilinear mesh of `shape` cells with the
/// node coordinates /grid/x_nodes, /grid/y_nodes and /grid/`z_nodes` of `h5`.
std::string mesh_of(const CellShape& shape, const std::string& h5, const char* z_nodes) {
  // ParaView's XDMF readers take a 3DRectMesh's Dimensions as node counts,
  // slowest direction first (z y x); the VXVYVZ arrays come in x, y, z order.
  std::string xml = "        <Topology TopologyType=\"3DRectMesh\" Dimensions=\"" + std::to_string(shape.nz + 1) + " " +
                    std::to_string(shape.ny + 1) + " " + std::to_string(shape.nx + 1) + "\"/>\n";
  xml += "        <Geometry GeometryType=\"VXVYVZ\">\n";
  xml += "          " + heavy_item(std::to_string(shape.nx + 1), "Float", 8, h5 + ":/grid/x_nodes") + "\n";
  xml += "          " + heavy_item(std::to_string(shape.ny + 1), "Float", 8, h5 + ":/grid/y_nodes") + "\n";
  xml += "          " + heavy_item(std::to_string(shape.nz + 1), "Float", 8, h5 + ":/grid/" + z_nodes) + "\n";
  xml += "        </Geometry>\n";
  return xml;
}

/// The shape of one frame: topology, geometry and the region attribute.
/// Identical for every frame; built once per document.
std::string frame_shape(const XdmfSeries& s, const std::string& h5) {
  const CellShape shape{s.nx, s.ny, s.nz};
  std::string xml = mesh_of(shape, h5, "z_nodes");
  xml += "        <Attribute Name=\"region\" AttributeType=\"Scalar\" Center=\"Cell\">\n";
  xml += cell_slab(shape, 1, "0 1 " + shape.cells(), heavy_item(shape.cells(), "Int", 4, h5 + ":/grid/region"));
  xml += "        </Attribute>\n";
  return xml;
}

/// A field at frame `frame`: row `frame` of the [frames, cells] dataset
/// `group`/`key` (start frame 0, stride 1 1, count 1 cells) on a mesh of `shape`.
std::string field_attribute(const XdmfSeries& s, const CellShape& shape, const std::string& h5, const char* group,
                            const std::string& key, const std::string& name, std::size_t frame) {
  const std::string cells = shape.cells();
  const std::string frames = std::to_string(s.times.size());
  std::string xml = "        <Attribute Name=\"" + xml_escaped(name) + "\" AttributeType=\"Scalar\" Center=\"Cell\">\n";
  xml += cell_slab(shape, 2, std::to_string(frame) + " 0 1 1 1 " + cells,
                   heavy_item(frames + " " + cells, "Float", 8, h5 + ":/" + group + "/" + xml_escaped(key)));
  xml += "        </Attribute>\n";
  return xml;
}

/// One frame's grid, named `name`: the time, then `content` (a uniform
/// grid's topology, geometry and attributes, or a spatial collection's grids).
std::string frame_grid(const std::string& name, const char* type, double time, const std::string& content) {
  std::string xml = "      <Grid Name=\"" + name + "\" " + type + ">\n";
  xml += "        <Time Value=\"" + format_double(time) + "\"/>\n";
  return xml + content + "      </Grid>\n";
}

/// A temporal collection `name`: per frame a grid "`frame_name` N" holding
/// each piece's mesh (`shape`, its topology, geometry and fixed attributes)
/// with the attributes `attributes` makes: the mesh itself for one piece, a
/// spatial collection of grids "`frame_name` N piece R" for several. Frame
/// names are unique in the document (ParaView's XDMF reader lists them by name).
template <class Shape, class Attributes>
std::string temporal_collection(const std::vector<XdmfSeries>& pieces, const char* name, const char* frame_name,
                                Shape&& shape, Attributes&& attributes) {
  std::vector<std::string> shapes;
  for (const XdmfSeries& p : pieces) shapes.push_back(shape(p));
  std::string xml =
      std::string("    <Grid Name=\"") + name + "\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
  const std::vector<double>& times = pieces.front().times;
  for (std::size_t frame = 0; frame < times.size(); ++frame) {
    const std::string grid = std::string(frame_name) + " " + std::to_string(frame);
    if (pieces.size() == 1) {
      xml += frame_grid(grid, "GridType=\"Uniform\"", times[frame], shapes[0] + attributes(pieces[0], frame));
      continue;
    }
    std::string blocks;
    for (std::size_t r = 0; r < pieces.size(); ++r) {
      blocks += "      <Grid Name=\"" + grid + " piece " + std::to_string(r) + "\" GridType=\"Uniform\">\n";
      blocks += shapes[r] + attributes(pieces[r], frame) + "      </Grid>\n";
    }
    xml += frame_grid(grid, "GridType=\"Collection\" CollectionType=\"Spatial\"", times[frame], blocks);
  }
  xml += "    </Grid>\n";
  return xml;
}

}  // namespace

std::string xdmf_document(const XdmfSeries& series) { return xdmf_document(std::vector<XdmfSeries>{series}); }

std::string xdmf_document(const std::vector<XdmfSeries>& pieces) {
  std::string xml =
      "<?xml version=\"1.0\" ?>\n"
      "<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
      "<Xdmf Version=\"3.0\" xmlns:xi=\"http://www.w3.org/2001/XInclude\">\n"
      "  <Domain>\n";
  const auto cells = [](const XdmfSeries& s) { return CellShape{s.nx, s.ny, s.nz}; };
  const auto columns = [](const XdmfSeries& s) { return CellShape{s.nx, s.ny, 1}; };
  const auto h5 = [](const XdmfSeries& s) { return xml_escaped(s.h5_file); };
  xml += temporal_collection(
      pieces, "fields", "frame", [&](const XdmfSeries& s) { return frame_shape(s, h5(s)); },
      [&](const XdmfSeries& s, std::size_t frame) {
        std::string a;
        for (std::size_t f = 0; f < s.keys.size(); ++f)
          a += field_attribute(s, cells(s), h5(s), "fields", s.keys[f], s.names[f], frame);
        return a;
      });
  // The column fields: a second collection at the same times, which ParaView
  // shows beside the cell grid (a block of its own, named "planes").
  if (!pieces.front().plane_keys.empty()) {
    xml += temporal_collection(
        pieces, "planes", "planes frame",
        [&](const XdmfSeries& s) { return mesh_of(columns(s), h5(s), "plane_z_nodes"); },
        [&](const XdmfSeries& s, std::size_t frame) {
          std::string a;
          for (std::size_t f = 0; f < s.plane_keys.size(); ++f)
            a += field_attribute(s, columns(s), h5(s), "planes", s.plane_keys[f], s.plane_names[f], frame);
          return a;
        });
  }
  xml +=
      "  </Domain>\n"
      "</Xdmf>\n";
  return xml;
}

}  // namespace voltaic::io
