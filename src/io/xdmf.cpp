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

/// A HyperSlab DataItem selecting `selection` (start, stride and count for
/// each of the `rank` dimensions of `source`, the HDF DataItem of a whole
/// dataset) and presenting it in the grid's cell shape "nz ny nx". ParaView's
/// XDMF (2) reader needs that shape: it cuts structured cell data by extents
/// in z y x order, so a flat [cells] or [1, cells] item would lose all but a
/// few values. The XDMF 3 reader only counts the values.
std::string cell_slab(const XdmfSeries& s, int rank, const std::string& selection, const std::string& source) {
  std::string xml = "          <DataItem ItemType=\"HyperSlab\" Dimensions=\"" + std::to_string(s.nz) + " " +
                    std::to_string(s.ny) + " " + std::to_string(s.nx) + "\">\n";
  xml += "            <DataItem Dimensions=\"3 " + std::to_string(rank) + "\" NumberType=\"UInt\" Format=\"XML\">" +
         selection + "</DataItem>\n";
  xml += "            " + source + "\n";
  xml += "          </DataItem>\n";
  return xml;
}

/// The shape of one frame: topology, geometry and the region attribute.
/// Identical for every frame; built once per document.
std::string frame_shape(const XdmfSeries& s, const std::string& h5) {
  const std::string cells = std::to_string(s.nx * s.ny * s.nz);
  // ParaView's XDMF readers take a 3DRectMesh's Dimensions as node counts,
  // slowest direction first (z y x); the VXVYVZ arrays come in x, y, z order.
  std::string xml = "        <Topology TopologyType=\"3DRectMesh\" Dimensions=\"" + std::to_string(s.nz + 1) + " " +
                    std::to_string(s.ny + 1) + " " + std::to_string(s.nx + 1) + "\"/>\n";
  xml += "        <Geometry GeometryType=\"VXVYVZ\">\n";
  xml += "          " + heavy_item(std::to_string(s.nx + 1), "Float", 8, h5 + ":/grid/x_nodes") + "\n";
  xml += "          " + heavy_item(std::to_string(s.ny + 1), "Float", 8, h5 + ":/grid/y_nodes") + "\n";
  xml += "          " + heavy_item(std::to_string(s.nz + 1), "Float", 8, h5 + ":/grid/z_nodes") + "\n";
  xml += "        </Geometry>\n";
  xml += "        <Attribute Name=\"region\" AttributeType=\"Scalar\" Center=\"Cell\">\n";
  xml += cell_slab(s, 1, "0 1 " + cells, heavy_item(cells, "Int", 4, h5 + ":/grid/region"));
  xml += "        </Attribute>\n";
  return xml;
}

/// Field `f` at frame `frame`: row `frame` of the [frames, cells] dataset
/// (start frame 0, stride 1 1, count 1 cells).
std::string field_attribute(const XdmfSeries& s, const std::string& h5, std::size_t f, std::size_t frame) {
  const std::string cells = std::to_string(s.nx * s.ny * s.nz);
  const std::string frames = std::to_string(s.times.size());
  std::string xml =
      "        <Attribute Name=\"" + xml_escaped(s.names[f]) + "\" AttributeType=\"Scalar\" Center=\"Cell\">\n";
  xml += cell_slab(s, 2, std::to_string(frame) + " 0 1 1 1 " + cells,
                   heavy_item(frames + " " + cells, "Float", 8, h5 + ":/fields/" + xml_escaped(s.keys[f])));
  xml += "        </Attribute>\n";
  return xml;
}

}  // namespace

std::string xdmf_document(const XdmfSeries& s) {
  const std::string h5 = xml_escaped(s.h5_file);
  const std::string shape = frame_shape(s, h5);
  std::string xml =
      "<?xml version=\"1.0\" ?>\n"
      "<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
      "<Xdmf Version=\"3.0\" xmlns:xi=\"http://www.w3.org/2001/XInclude\">\n"
      "  <Domain>\n"
      "    <Grid Name=\"fields\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
  for (std::size_t frame = 0; frame < s.times.size(); ++frame) {
    xml += "      <Grid Name=\"frame " + std::to_string(frame) + "\" GridType=\"Uniform\">\n";
    xml += "        <Time Value=\"" + format_double(s.times[frame]) + "\"/>\n";
    xml += shape;
    for (std::size_t f = 0; f < s.keys.size(); ++f) xml += field_attribute(s, h5, f, frame);
    xml += "      </Grid>\n";
  }
  xml +=
      "    </Grid>\n"
      "  </Domain>\n"
      "</Xdmf>\n";
  return xml;
}

}  // namespace voltaic::io
