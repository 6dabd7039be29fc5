#pragma once
/// @file xdmf.hpp
/// @brief The XDMF 3 text that lets ParaView open fields.h5: a temporal
/// collection of 3D rectilinear grids, one per stored frame, whose cell
/// attributes are rows of the /fields datasets; with column fields a second
/// one of one-cell-thick slabs over x-y whose attributes are rows of /planes.

#include <cstddef>
#include <string>
#include <vector>

namespace voltaic::io {

/// What the XDMF file describes; everything it refers to lives in `h5_file`.
struct XdmfSeries {
  std::string h5_file;                   ///< as the XDMF names it: relative, final name ("fields.h5")
  std::size_t nx = 0, ny = 0, nz = 0;    ///< cells per direction
  std::vector<std::string> keys;         ///< dataset names under /fields
  std::vector<std::string> names;        ///< attribute names shown in ParaView, one per key
  std::vector<std::string> plane_keys;   ///< dataset names under /planes (column fields)
  std::vector<std::string> plane_names;  ///< their attribute names, one per plane key
  std::vector<double> times;             ///< one per frame: row i of every field is frame i
};

/// The XDMF document for `series`. Per frame: a 3DRectMesh topology whose
/// Dimensions are the node counts in z y x order, VXVYVZ geometry from
/// /grid/{x,y,z}_nodes, the cell attribute "region" from /grid/region, and per
/// field a cell attribute reading row i of /fields/KEY through a HyperSlab.
/// With plane keys, a second temporal collection "planes" after it, per
/// frame a 3DRectMesh of nx ny cells and one layer (Dimensions "2 ny+1
/// nx+1"; VXVYVZ geometry from /grid/{x,y}_nodes and /grid/plane_z_nodes)
/// whose cell attributes read row i of /planes/KEY. Without plane keys the
/// document is the cell collection alone.
std::string xdmf_document(const XdmfSeries& series);
/// The document joining the pieces of a plane cut over ranks, each in its
/// own HDF5 file (nx ny nz its block's cells) with the same keys and times:
/// per frame a spatial collection of the pieces' grids, ParaView's
/// multiblock, in each collection.
std::string xdmf_document(const std::vector<XdmfSeries>& pieces);

}  // namespace voltaic::io
