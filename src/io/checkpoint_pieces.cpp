// Checkpoints written per rank: pieces of the state, a manifest naming
// them, and the reader that assembles a window of the plane from them.
#include "voltaic/io/checkpoint_pieces.hpp"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "voltaic/io/checkpoint_file.hpp"

namespace voltaic::io {

namespace {

namespace fs = std::filesystem;

constexpr const char* kPieceFormat = "voltaic checkpoint piece 1";
constexpr const char* kPieces = "pieces";
constexpr const char* kWhere = "read_checkpoint_for";

std::string piece_key(std::size_t r) { return "piece " + std::to_string(r); }

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// The columns both blocks hold (empty when they do not meet).
PlaneBlock overlap(const PlaneBlock& a, const PlaneBlock& b) {
  PlaneBlock o{std::max(a.i_begin, b.i_begin), std::min(a.i_end, b.i_end), std::max(a.j_begin, b.j_begin),
               std::min(a.j_end, b.j_end)};
  if (o.i_begin >= o.i_end || o.j_begin >= o.j_end) return PlaneBlock{};
  return o;
}

/// The window a file records, as a file error naming it.
std::optional<CheckpointWindow> recorded_window(const Checkpoint& c, const std::string& path) {
  try {
    return window_of(c);
  } catch (const InvalidArgument& e) {
    throw FileError("'" + path + "'", kWhere, e.why());
  }
}

/// Copies the columns `o` of `piece` (an array over `from`) into `out` (over `to`), layer by layer.
void place(const std::vector<double>& piece, const PlaneBlock& from, std::vector<double>& out, const PlaneBlock& to,
           const PlaneBlock& o, std::size_t layers) {
  for (std::size_t k = 0; k < layers; ++k)
    for (int j = o.j_begin; j < o.j_end; ++j) {
      const std::size_t src = (static_cast<std::size_t>(o.i_begin - from.i_begin) + from.columns() * k +
                               static_cast<std::size_t>(from.nx()) * (j - from.j_begin));
      const std::size_t dst = (static_cast<std::size_t>(o.i_begin - to.i_begin) + to.columns() * k +
                               static_cast<std::size_t>(to.nx()) * (j - to.j_begin));
      std::memcpy(out.data() + dst, piece.data() + src, sizeof(double) * static_cast<std::size_t>(o.nx()));
    }
}

/// The pieces' windows a manifest lists, one per piece.
std::vector<CheckpointWindow> piece_windows(const Checkpoint& manifest, std::size_t pieces, const std::string& path) {
  std::vector<CheckpointWindow> windows;
  for (std::size_t r = 0; r < pieces; ++r) {
    Checkpoint one;
    for (const char* part : {"plane nx", "plane ny", "i_begin", "i_end", "j_begin", "j_end"}) {
      const auto it = manifest.integers.find(piece_key(r) + " " + part);
      if (it != manifest.integers.end()) one.integers[std::string("window ") + part] = it->second;
    }
    const std::optional<CheckpointWindow> w = recorded_window(one, path);
    if (!w) throw FileError("'" + path + "'", kWhere, "lists no window for " + piece_key(r));
    windows.push_back(*w);
  }
  return windows;
}

/// One piece, read and checked against the manifest.
Checkpoint read_piece(const std::string& path, const Checkpoint& manifest, const CheckpointWindow& listed) {
  std::error_code ec;
  if (!fs::exists(path, ec))
    throw FileError("'" + path + "'", kWhere, "is missing: the checkpoint's pieces are all needed");
  Checkpoint piece = read_checkpoint(path);
  const auto format = piece.texts.find("format");
  if (format == piece.texts.end() || format->second != kPieceFormat)
    throw FileError("'" + path + "'", kWhere, std::string("is not a checkpoint piece (format '") + kPieceFormat + "')");
  const std::optional<CheckpointWindow> w = recorded_window(piece, path);
  const auto time = piece.scalars.find("time");
  const auto step = piece.integers.find("step index");
  if (!w || *w != listed || time == piece.scalars.end() || step == piece.integers.end() ||
      !same_bits(time->second, manifest.scalars.at("time")) || step->second != manifest.integers.at("step index"))
    throw FileError("'" + path + "'", kWhere,
                    "belongs to another checkpoint than its manifest (its window, time or step index differ)");
  return piece;
}

}  // namespace

std::string checkpoint_piece_path(const std::string& manifest, int generation, int rank) {
  fs::path p(manifest);
  const std::string stem = p.stem().string();
  p.replace_filename(stem + ".g" + std::to_string(generation) + ".rank-" + std::to_string(rank) + ".h5");
  return p.string();
}

void write_checkpoint_piece(const std::string& path, const Checkpoint& c) {
  const std::optional<CheckpointWindow> w = window_of(c);
  if (!w) throw InvalidArgument("checkpoint", "write_checkpoint_piece", "records no window: it is not a rank's piece");
  Checkpoint piece;
  piece.texts["format"] = kPieceFormat;
  for (const auto& [name, values] : c.arrays)
    if (name.rfind("state/", 0) == 0) piece.arrays[name] = values;
  set_window(piece, *w);
  piece.scalars["time"] = c.scalars.at("time");
  piece.integers["step index"] = c.integers.at("step index");
  write_checkpoint(path, piece);
}

void write_checkpoint_manifest(const std::string& path, const Checkpoint& c, const std::vector<std::string>& pieces,
                               const std::vector<CheckpointWindow>& windows) {
  Checkpoint m = c;
  for (auto it = m.arrays.begin(); it != m.arrays.end();)
    it = it->first.rfind("state/", 0) == 0 ? m.arrays.erase(it) : std::next(it);
  clear_window(m);
  m.integers[kPieces] = static_cast<std::int64_t>(pieces.size());
  for (std::size_t r = 0; r < pieces.size(); ++r) {
    const CheckpointWindow& w = windows.at(r);
    m.texts[piece_key(r)] = fs::path(pieces[r]).filename().string();
    const int v[6] = {w.plane_nx, w.plane_ny, w.columns.i_begin, w.columns.i_end, w.columns.j_begin, w.columns.j_end};
    const char* parts[6] = {"plane nx", "plane ny", "i_begin", "i_end", "j_begin", "j_end"};
    for (int k = 0; k < 6; ++k) m.integers[piece_key(r) + " " + parts[k]] = v[k];
  }
  write_checkpoint(path, m);
}

std::vector<std::string> checkpoint_pieces(const Checkpoint& manifest, const std::string& path) {
  const auto count = manifest.integers.find(kPieces);
  if (count == manifest.integers.end()) return {};
  if (count->second < 1 || count->second > (1 << 20))
    throw FileError("'" + path + "'", kWhere, "lists " + std::to_string(count->second) + " pieces; allowed: 1 to 2^20");
  std::vector<std::string> names;
  for (std::size_t r = 0; r < static_cast<std::size_t>(count->second); ++r) {
    const auto name = manifest.texts.find(piece_key(r));
    if (name == manifest.texts.end() || name->second.empty() || fs::path(name->second).filename() != name->second)
      throw FileError("'" + path + "'", kWhere, "names no file (or one outside its directory) for " + piece_key(r));
    names.push_back(name->second);
  }
  return names;
}

Checkpoint read_checkpoint_for(const std::string& path, const CheckpointWindow& window) {
  Checkpoint c = read_checkpoint(path);
  const std::vector<std::string> names = checkpoint_pieces(c, path);
  if (names.empty()) return c;
  if (c.scalars.count("time") == 0 || c.integers.count("step index") == 0)
    throw FileError("'" + path + "'", kWhere, "is a manifest without 'time' or 'step index'");
  const std::vector<CheckpointWindow> windows = piece_windows(c, names.size(), path);
  const PlaneBlock& to = window.columns;
  std::vector<int> covered(to.columns(), 0);  // pieces holding each column (at most 2^20 pieces)
  std::map<std::string, std::vector<double>> state;
  std::map<std::string, std::size_t> layers_of;
  for (std::size_t r = 0; r < names.size(); ++r) {
    if (windows[r].plane_nx != window.plane_nx || windows[r].plane_ny != window.plane_ny)
      throw FileError("'" + path + "'", kWhere,
                      "holds a plane of " + std::to_string(windows[r].plane_nx) + " x " +
                          std::to_string(windows[r].plane_ny) + " columns; this run's has " +
                          std::to_string(window.plane_nx) + " x " + std::to_string(window.plane_ny));
    const PlaneBlock& from = windows[r].columns;
    const PlaneBlock o = overlap(from, to);
    if (o.columns() == 0) continue;
    const std::string piece_path = (fs::path(path).parent_path() / names[r]).string();
    const Checkpoint piece = read_piece(piece_path, c, windows[r]);
    // Every piece holds the same arrays, so that coverage by columns is coverage of every array.
    bool same_names = state.empty() || piece.arrays.size() == state.size();
    for (const auto& entry : piece.arrays) same_names = same_names && (state.empty() || state.count(entry.first) == 1);
    if (!same_names)
      throw FileError("'" + piece_path + "'", kWhere, "holds other state arrays than the pieces before it");
    for (const auto& [name, values] : piece.arrays) {
      const std::size_t layers = values.size() / from.columns();
      if (values.size() != layers * from.columns() || (layers_of.count(name) && layers_of[name] != layers))
        throw FileError("'" + piece_path + "'", kWhere,
                        "'" + name + "' has " + std::to_string(values.size()) + " values, not whole layers of " +
                            std::to_string(from.columns()) + " columns like the other pieces'");
      layers_of[name] = layers;
      std::vector<double>& out = state[name];
      out.resize(layers * to.columns(), std::numeric_limits<double>::quiet_NaN());
      place(values, from, out, to, o, layers);
    }
    for (int j = o.j_begin; j < o.j_end; ++j)
      for (int i = o.i_begin; i < o.i_end; ++i)
        ++covered[static_cast<std::size_t>(i - to.i_begin) + static_cast<std::size_t>(to.nx()) * (j - to.j_begin)];
  }
  for (const int n : covered)
    if (n != 1)
      throw FileError("'" + path + "'", kWhere,
                      "its pieces do not cover " + window.describe() + " exactly once (a column is " +
                          (n == 0 ? "missing" : "held twice") + ")");
  for (auto& [name, values] : state) c.arrays[name] = std::move(values);
  c.integers.erase(kPieces);
  for (auto it = c.integers.begin(); it != c.integers.end();)
    it = it->first.rfind("piece ", 0) == 0 ? c.integers.erase(it) : std::next(it);
  for (auto it = c.texts.begin(); it != c.texts.end();)
    it = it->first.rfind("piece ", 0) == 0 ? c.texts.erase(it) : std::next(it);
  set_window(c, window);
  return c;
}

}  // namespace voltaic::io
