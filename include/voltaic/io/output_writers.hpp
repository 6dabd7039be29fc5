#pragma once
/// @file output_writers.hpp
/// @brief What a run leaves in its output directory: timeseries.csv (one row
/// per output time, PyBaMM's variable names as headers) and fields.h5 with
/// fields.xdmf (ParaView opens it), each written under a temporary name and
/// renamed when complete.

#include <memory>
#include <string>
#include <vector>

#include "voltaic/io/atomic_file.hpp"

namespace voltaic::io {

struct XdmfSeries;  // src/io/xdmf.hpp: what an XDMF file describes

/// timeseries.csv: a header of column names, then rows appended as they come.
class TimeseriesCsvWriter {
 public:
  /// @throws FileError when the temporary file cannot be created
  TimeseriesCsvWriter(const std::string& path, std::vector<std::string> columns);
  ~TimeseriesCsvWriter();
  TimeseriesCsvWriter(const TimeseriesCsvWriter&) = delete;
  TimeseriesCsvWriter& operator=(const TimeseriesCsvWriter&) = delete;

  /// One row, values in column order, each printed so that it reads back to the same double.
  void append(const std::vector<double>& row);
  /// Flushes, closes and renames the file into place.
  void commit();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The grid a FieldWriter describes: a rectilinear mesh with cells x fastest,
/// z slowest, and each cell's region (0 negative electrode, 1 separator, 2 positive).
struct FieldGrid {
  std::vector<double> x_nodes, y_nodes, z_nodes;  ///< [m], cells + 1 each
  std::vector<int> region;                        ///< per cell
  /// [m], 2 values: the one-cell-thick slab over the x-y columns on which
  /// ParaView shows the column fields (the positive collector foil, z from
  /// the cell's top to the foil's thickness above it). Empty: a slab as thick
  /// as the grid's last layer, on top of the grid.
  std::vector<double> plane_z_nodes;
  /// Where the grid lies in its cell's plane when it is one rank's piece of
  /// a plane cut over ranks: the plane's column of its first column, and the
  /// plane's columns (0: the grid is the whole plane).
  int i_begin = 0, j_begin = 0, plane_nx = 0, plane_ny = 0;
};

/// Where a field a FieldWriter stores lives.
enum class FieldMesh {
  cells,    ///< one value per cell: /fields/KEY [frames, nx ny nz]
  columns,  ///< one value per in-plane column, x fastest: /planes/KEY [frames, nx ny]
};

/// One field a FieldWriter stores.
struct FieldDescription {
  std::string key;   ///< dataset name: "temperature"
  std::string name;  ///< PyBaMM's name, shown in ParaView: "Cell temperature [K]"
  std::string unit;  ///< "K"
  FieldMesh mesh = FieldMesh::cells;
};

/// fields.h5 + fields.xdmf. The HDF5 file holds /grid (node coordinates and
/// regions; plane_z_nodes, the slab of the column fields), /time, and per
/// field one chunked dataset that grows by one row per write: /fields/KEY
/// [time, cell] for a cell field, /planes/KEY [time, column] for a column
/// field. The XDMF file is a temporal collection ("fields") of 3D rectilinear
/// grids referring to the cell fields' rows and, when there are column
/// fields, a second one ("planes") of one-cell-thick slabs over x-y
/// referring to theirs: ParaView shows both, at the same times.
class FieldWriter {
 public:
  /// @param h5_path the HDF5 file; the XDMF file is the same path with ".xdmf"
  /// @param xdmf false: no XDMF file (a piece of a plane cut over ranks,
  /// which one XDMF file joins with the others)
  /// @throws FileError when the temporary files cannot be created
  FieldWriter(const std::string& h5_path, const FieldGrid& grid, std::vector<FieldDescription> fields,
              bool xdmf = true);
  ~FieldWriter();
  FieldWriter(const FieldWriter&) = delete;
  FieldWriter& operator=(const FieldWriter&) = delete;

  /// One output time: data[i] holds fields[i], per cell or per column as its
  /// mesh says (host memory, e.g. pinned).
  void write(double time, const std::vector<const double*>& data);
  std::size_t frames() const;
  /// The XDMF series this writer describes (its frames so far).
  const XdmfSeries& series() const;
  /// Closes both files and renames them into place.
  void commit();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace voltaic::io
