// PackOutput: a pack's pack.csv and pack.h5, written once the pack has run
// (a pack's rows are few: one per accepted step) into the staging directory
// and published as one set. pack.h5 keeps each cell quantity as one 2D
// dataset [rows, cells], PackSolution's row-major vectors as they are.
#include "voltaic/io/pack_output.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "hdf5_attributes.hpp"
#include "hdf5_datasets.hpp"
#include "hdf5_error.hpp"
#include "hdf5_handle.hpp"
#include "io/csv_text.hpp"
#include "number_format.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/core/version.hpp"

namespace voltaic::io {

namespace fs = std::filesystem;

namespace {

using hdf5::ErrorContext;

constexpr const char* kFormat = "voltaic-pack-1";
constexpr const char* kCsv = "pack.csv";
constexpr const char* kH5 = "pack.h5";

/// A time series of the pack or one value per row and cell, with its
/// dataset's name, PyBaMM's name and units.
struct Quantity {
  const char* key;
  const char* name;
  const char* units;
  const std::vector<double>& values;
};

/// Every vector of cell values has rows x cells entries (an optional one may be empty).
void check_sizes(const PackSolution& s, const PackLayout& layout, const std::string& path) {
  const auto fail = [&](const std::string& why) {
    throw SizeMismatch("pack solution", "PackOutput", path + ": " + why);
  };
  if (s.cells != layout.cells()) {
    fail("the solution has " + std::to_string(s.cells) + " cells, the layout " + std::to_string(layout.cells()));
  }
  const std::size_t rows = s.time.size();
  const auto expect = [&](const char* name, const std::vector<double>& v, std::size_t n, bool optional) {
    if (v.size() != n && !(optional && v.empty()))
      fail(std::string(name) + " has " + std::to_string(v.size()) + " values for " + std::to_string(n));
  };
  expect("voltage", s.voltage, rows, false);
  expect("current", s.current, rows, false);
  expect("coolant_outlet", s.coolant_outlet, rows, true);
  expect("cell_current", s.cell_current, rows * s.cells, false);
  expect("cell_voltage", s.cell_voltage, rows * s.cells, false);
  expect("cell_temperature", s.cell_temperature, rows * s.cells, false);
  expect("cell_heat", s.cell_heat, rows * s.cells, true);
  expect("node_voltage", s.node_voltage, rows * s.node_names.size(), false);
}

std::string pack_csv(const PackSolution& s) {
  std::string text = csv_header_line({"Time [s]", "Voltage [V]", "Current [A]"});
  for (std::size_t r = 0; r < s.time.size(); ++r) {
    append_shortest(text, s.time[r]);
    text += ',';
    append_shortest(text, s.voltage[r]);
    text += ',';
    append_shortest(text, s.current[r]);
    text += '\n';
  }
  return text;
}

void write_series(hid_t parent, const Quantity& q, const std::vector<hsize_t>& dims, const ErrorContext& ctx) {
  const hdf5::Dataset d =
      hdf5::write_array(parent, q.key, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, q.values.data(), dims, ctx);
  hdf5::write_string_attribute(d.get(), "name", q.name, ctx);
  hdf5::write_string_attribute(d.get(), "units", q.units, ctx);
}

void write_h5(const std::string& path, const PackRunConfig& config, const PackSolution& s) {
  const ErrorContext ctx(path, "PackOutput");
  hdf5::PropertyList access(ctx.require(H5Pcreate(H5P_FILE_ACCESS), "create the file"));
  // Closing the file closes whatever is still open in it: it is closed (and
  // flushed) before it is published.
  ctx.check(H5Pset_fclose_degree(access.get(), H5F_CLOSE_STRONG), "create the file");
  hdf5::File file(ctx.require(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get()), "create the file"));
  const hid_t root = file.get();
  const PackLayout& l = config.layout;
  hdf5::write_string_attribute(root, "format", kFormat, ctx);
  hdf5::write_string_attribute(root, "voltaic_version", version(), ctx);
  hdf5::write_string_attribute(root, "parameter_set", config.run.cell_source, ctx);
  hdf5::write_string_array_attribute(root, "experiment", config.run.experiment_steps, ctx);
  hdf5::write_string_attribute(root, "layout", l.netlist.empty() ? "grid" : "netlist", ctx);
  if (l.netlist.empty()) {
    hdf5::write_int64_attribute(root, "parallel", l.parallel, ctx);
    hdf5::write_int64_attribute(root, "series", l.series, ctx);
  }
  hdf5::write_string_attribute(root, "termination", s.termination, ctx);
  hdf5::write_int64_attribute(root, "completed", s.completed ? 1 : 0, ctx);
  hdf5::write_int64_attribute(root, "interrupted", s.interrupted ? 1 : 0, ctx);
  hdf5::write_int64_attribute(root, "steps_taken", s.steps_taken, ctx);
  hdf5::write_int64_attribute(root, "steps_rejected", s.steps_rejected, ctx);
  hdf5::write_int64_attribute(root, "circuit_iterations", s.circuit_iterations, ctx);

  const hsize_t rows = s.time.size(), cells = s.cells;
  for (const Quantity& q :
       {Quantity{"time", "Time [s]", "s", s.time}, Quantity{"voltage", "Voltage [V]", "V", s.voltage},
        Quantity{"current", "Current [A]", "A", s.current}})
    write_series(root, q, {rows}, ctx);
  if (!s.coolant_outlet.empty())
    write_series(root, {"coolant_outlet", "Coolant outlet temperature [K]", "K", s.coolant_outlet}, {rows}, ctx);

  const hdf5::Group group = hdf5::create_group(root, "cells", ctx);
  const hid_t g = group.get();
  for (const Quantity& q : {Quantity{"current", "Cell current [A]", "A", s.cell_current},
                            Quantity{"voltage", "Cell voltage [V]", "V", s.cell_voltage},
                            Quantity{"temperature", "Cell temperature [K]", "K", s.cell_temperature},
                            Quantity{"heat", "Cell heat generation [W]", "W", s.cell_heat}})
    if (!q.values.empty()) write_series(g, q, {rows, cells}, ctx);
  if (l.netlist.empty()) {
    std::vector<std::int64_t> series(cells), parallel(cells);
    for (hsize_t k = 0; k < cells; ++k) {
      series[k] = static_cast<std::int64_t>(k / static_cast<hsize_t>(l.parallel));
      parallel[k] = static_cast<std::int64_t>(k % static_cast<hsize_t>(l.parallel));
    }
    hdf5::write_array(g, "series_index", H5T_STD_I64LE, H5T_NATIVE_INT64, series.data(), {cells}, ctx);
    hdf5::write_array(g, "parallel_index", H5T_STD_I64LE, H5T_NATIVE_INT64, parallel.data(), {cells}, ctx);
  } else {  // each cell's V element, the netlist's name for it
    std::vector<std::string> names;
    for (const NetlistElement& e : l.netlist)
      if (!e.name.empty() && (e.name[0] == 'V' || e.name[0] == 'v')) names.push_back(e.name);
    hdf5::write_string_array_attribute(g, "elements", names, ctx);
  }
  // The cells' own parameters (a [sweep]'s), as a sweep's curves.h5 keeps them.
  if (config.cells.num_cells() == cells) {
    const hdf5::Dataset p = hdf5::write_array(g, "parameters", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                                              config.cells.values.data(), {cells, config.cells.names.size()}, ctx);
    hdf5::write_string_array_attribute(p.get(), "names", config.cells.names, ctx);
  }
  // The circuit's nodes: an Np x Ns pack's groups (the voltage across each),
  // a netlist's nodes (each against the negative terminal).
  const hdf5::Group nodes = hdf5::create_group(root, "nodes", ctx);
  const hsize_t n = s.node_names.size();
  write_series(nodes.get(),
               {"voltage", l.netlist.empty() ? "Group voltage [V]" : "Node voltage [V]", "V", s.node_voltage},
               {rows, n}, ctx);
  hdf5::write_string_array_attribute(nodes.get(), "names", s.node_names, ctx);
  if (!file.close()) ctx.fail("close");
}

}  // namespace

const std::vector<std::string>& PackOutput::file_names() {
  static const std::vector<std::string> names = {kCsv, kH5};
  return names;
}

PackOutput::PackOutput(const std::string& directory) : directory_(directory) {}

void PackOutput::write(const PackRunConfig& config, const PackSolution& solution) {
  check_sizes(solution, config.layout, "'" + directory_.path() + "'");
  {
    hdf5::QuietErrors quiet;
    write_h5(directory_.staged(kH5), config, solution);
  }
  write_file_atomically(directory_.staged(kCsv), pack_csv(solution));
  directory_.publish(file_names(), file_names());
}

std::vector<std::string> PackOutput::files() const {
  std::vector<std::string> f;
  for (const std::string& name : file_names()) f.push_back((fs::path(directory_.path()) / name).string());
  return f;
}

}  // namespace voltaic::io
