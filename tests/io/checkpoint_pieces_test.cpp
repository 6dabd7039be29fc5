// Checkpoints written per rank: the pieces assembled for any window of the
// plane give the values the whole plane holds there, bit for bit; a missing,
// foreign or overlapping piece is a FileError naming the file.
#include "voltaic/io/checkpoint_pieces.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "voltaic/io/checkpoint_file.hpp"

namespace voltaic::io {
namespace {

namespace fs = std::filesystem;

constexpr int kNx = 10, kNy = 6;

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("voltaic_checkpoint_pieces_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

/// Value of array `a` at column (i, j), layer k of the whole plane: distinct everywhere.
double value(int a, int i, int j, int k) { return 1000.0 * a + 100.0 * k + 10.0 * j + i + 0.25; }

/// Array `a` (of `layers` layers) over the columns of `b`.
std::vector<double> over(const PlaneBlock& b, int a, int layers) {
  std::vector<double> v;
  for (int k = 0; k < layers; ++k)
    for (int j = b.j_begin; j < b.j_end; ++j)
      for (int i = b.i_begin; i < b.i_end; ++i) v.push_back(value(a, i, j, k));
  return v;
}

/// A run's checkpoint as a rank of a cut holding `b` would give it.
Checkpoint rank_checkpoint(const PlaneBlock& b, double time = 12.5) {
  Checkpoint c;
  c.texts["format"] = "a simulation's";
  c.arrays["state/c_e"] = over(b, 1, 3);
  c.arrays["state/T@0"] = over(b, 2, 1);
  c.arrays["solution/Time [s]"] = {0.0, time};
  c.scalars["time"] = time;
  c.integers["step index"] = 4;
  set_window(c, {kNx, kNy, b});
  return c;
}

/// The plane cut in 2 x 2 blocks.
std::vector<PlaneBlock> four_blocks() {
  return {PlaneBlock{0, 4, 0, 3}, PlaneBlock{4, 10, 0, 3}, PlaneBlock{0, 4, 3, 6}, PlaneBlock{4, 10, 3, 6}};
}

/// Writes every block's piece and the manifest; returns the manifest's path.
std::string write_set(const fs::path& dir, const std::vector<PlaneBlock>& blocks, int generation = 0) {
  const std::string manifest = (dir / "checkpoint.h5").string();
  std::vector<std::string> names;
  std::vector<CheckpointWindow> windows;
  for (std::size_t r = 0; r < blocks.size(); ++r) {
    names.push_back(checkpoint_piece_path(manifest, generation, static_cast<int>(r)));
    write_checkpoint_piece(names.back(), rank_checkpoint(blocks[r]));
    windows.push_back({kNx, kNy, blocks[r]});
  }
  write_checkpoint_manifest(manifest, rank_checkpoint(blocks[0]), names, windows);
  return manifest;
}

TEST(CheckpointPieces, PieceNamesSitBesideTheManifest) {
  EXPECT_EQ(checkpoint_piece_path("out/checkpoint.h5", 1, 3), "out/checkpoint.g1.rank-3.h5");
}

TEST(CheckpointPieces, AnyWindowIsAssembledFromThePiecesBitForBit) {
  const std::string manifest = write_set(fresh_dir("windows"), four_blocks());
  // The whole plane (a serial restart), and the ghosted blocks of a 2-rank cut.
  for (const PlaneBlock& w :
       {PlaneBlock{0, kNx, 0, kNy}, PlaneBlock{0, 6, 0, kNy}, PlaneBlock{4, kNx, 0, kNy}, PlaneBlock{3, 7, 2, 5}}) {
    const Checkpoint c = read_checkpoint_for(manifest, {kNx, kNy, w});
    EXPECT_EQ(c.arrays.at("state/c_e"), over(w, 1, 3));
    EXPECT_EQ(c.arrays.at("state/T@0"), over(w, 2, 1));
    EXPECT_EQ(c.arrays.at("solution/Time [s]"), (std::vector<double>{0.0, 12.5}));
    EXPECT_EQ(c.texts.at("format"), "a simulation's");
    EXPECT_EQ(c.scalars.at("time"), 12.5);
    const std::optional<CheckpointWindow> recorded = window_of(c);
    ASSERT_TRUE(recorded.has_value());
    EXPECT_EQ(*recorded, (CheckpointWindow{kNx, kNy, w}));
    // Only the state's window and the simulation's own values remain.
    for (const auto& [name, v] : c.integers) EXPECT_TRUE(name == "step index" || name.rfind("window ", 0) == 0) << name;
    for (const auto& [name, v] : c.texts) EXPECT_EQ(name, "format");
  }
}

TEST(CheckpointPieces, AWholeCheckpointIsReadAsItIs) {
  const fs::path dir = fresh_dir("whole");
  Checkpoint whole = rank_checkpoint(PlaneBlock{0, kNx, 0, kNy});
  clear_window(whole);
  write_checkpoint((dir / "checkpoint.h5").string(), whole);
  const Checkpoint c = read_checkpoint_for((dir / "checkpoint.h5").string(), {kNx, kNy, PlaneBlock{0, 4, 0, 3}});
  EXPECT_EQ(c.arrays.at("state/c_e"), whole.arrays.at("state/c_e"));
  EXPECT_FALSE(window_of(c).has_value());
}

TEST(CheckpointPieces, TheManifestHoldsNoState) {
  const std::string manifest = write_set(fresh_dir("manifest"), four_blocks());
  const Checkpoint m = read_checkpoint(manifest);
  for (const auto& [name, v] : m.arrays) EXPECT_NE(name.rfind("state/", 0), 0u) << name;
  EXPECT_FALSE(window_of(m).has_value());
  EXPECT_EQ(checkpoint_pieces(m, manifest).size(), 4u);
}

/// The FileError read_checkpoint_for throws, or "" when it throws none.
std::string error_of(const std::string& manifest, const PlaneBlock& w) {
  try {
    read_checkpoint_for(manifest, {kNx, kNy, w});
  } catch (const FileError& e) {
    return e.what();
  }
  return "";
}

TEST(CheckpointPieces, AMissingPieceIsNamed) {
  const fs::path dir = fresh_dir("missing");
  const std::string manifest = write_set(dir, four_blocks());
  fs::remove(checkpoint_piece_path(manifest, 0, 3));
  const std::string e = error_of(manifest, PlaneBlock{0, kNx, 0, kNy});
  EXPECT_NE(e.find("checkpoint.g0.rank-3.h5"), std::string::npos) << e;
  EXPECT_NE(e.find("missing"), std::string::npos) << e;
  // A window that piece 3 does not touch is still assembled.
  EXPECT_EQ(error_of(manifest, PlaneBlock{0, 4, 0, 4}), "");
}

TEST(CheckpointPieces, APieceOfAnotherCheckpointIsRefused) {
  const fs::path dir = fresh_dir("foreign");
  const std::string manifest = write_set(dir, four_blocks());
  // Rank 1's piece of a later checkpoint (a crash between the pieces and the manifest would leave one).
  write_checkpoint_piece(checkpoint_piece_path(manifest, 0, 1), rank_checkpoint(four_blocks()[1], 13.0));
  const std::string e = error_of(manifest, PlaneBlock{0, kNx, 0, kNy});
  EXPECT_NE(e.find("rank-1"), std::string::npos) << e;
  EXPECT_NE(e.find("another checkpoint"), std::string::npos) << e;
}

TEST(CheckpointPieces, APieceWithOtherArraysIsRefused) {
  const fs::path dir = fresh_dir("other_arrays");
  const std::string manifest = write_set(dir, four_blocks());
  Checkpoint renamed = rank_checkpoint(four_blocks()[2]);
  renamed.arrays["state/c_s"] = renamed.arrays.at("state/c_e");  // as many arrays, one of another name
  renamed.arrays.erase("state/c_e");
  write_checkpoint_piece(checkpoint_piece_path(manifest, 0, 2), renamed);
  const std::string e = error_of(manifest, PlaneBlock{0, kNx, 0, kNy});
  EXPECT_NE(e.find("other state arrays"), std::string::npos) << e;
}

TEST(CheckpointPieces, PiecesThatDoNotTileTheWindowAreRefused) {
  // Two pieces both holding column 4 of every row; then a gap.
  std::vector<PlaneBlock> overlapping = {PlaneBlock{0, 5, 0, kNy}, PlaneBlock{4, kNx, 0, kNy}};
  EXPECT_NE(error_of(write_set(fresh_dir("overlap"), overlapping), PlaneBlock{0, kNx, 0, kNy}).find("held twice"),
            std::string::npos);
  std::vector<PlaneBlock> gap = {PlaneBlock{0, 4, 0, kNy}, PlaneBlock{5, kNx, 0, kNy}};
  EXPECT_NE(error_of(write_set(fresh_dir("gap"), gap), PlaneBlock{0, kNx, 0, kNy}).find("missing"), std::string::npos);
}

TEST(CheckpointPieces, AnotherPlaneIsRefused) {
  const std::string manifest = write_set(fresh_dir("plane"), four_blocks());
  try {
    read_checkpoint_for(manifest, {kNx + 2, kNy, PlaneBlock{0, kNx + 2, 0, kNy}});
    FAIL() << "a 12 x 6 run read a 10 x 6 checkpoint";
  } catch (const FileError& e) {
    EXPECT_NE(std::string(e.what()).find("10 x 6"), std::string::npos) << e.what();
  }
}

TEST(CheckpointPieces, APieceMustRecordItsWindow) {
  Checkpoint c = rank_checkpoint(four_blocks()[0]);
  clear_window(c);
  EXPECT_THROW(write_checkpoint_piece((fresh_dir("no_window") / "p.h5").string(), c), InvalidArgument);
}

}  // namespace
}  // namespace voltaic::io
