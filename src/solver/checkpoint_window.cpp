// The window of a checkpoint's state arrays, kept as integers so that every
// checkpoint reader stores it with no change.
#include <string>

#include "voltaic/core/error.hpp"
#include "voltaic/solver/checkpoint.hpp"

namespace voltaic {

namespace {
constexpr const char* kKeys[] = {"window plane nx", "window plane ny", "window i_begin",
                                 "window i_end",    "window j_begin",  "window j_end"};
}  // namespace

std::string CheckpointWindow::describe() const {
  return "columns [" + std::to_string(columns.i_begin) + ", " + std::to_string(columns.i_end) + ") x [" +
         std::to_string(columns.j_begin) + ", " + std::to_string(columns.j_end) + ") of " + std::to_string(plane_nx) +
         " x " + std::to_string(plane_ny);
}

std::optional<CheckpointWindow> window_of(const Checkpoint& c) {
  int v[6];
  int found = 0;
  for (int k = 0; k < 6; ++k) {
    const auto it = c.integers.find(kKeys[k]);
    if (it == c.integers.end()) continue;
    if (it->second < 0 || it->second > (1 << 30))
      throw InvalidArgument(std::string("checkpoint '") + kKeys[k] + "'", "window_of",
                            "is " + std::to_string(it->second) + "; allowed: 0 to 2^30");
    v[k] = static_cast<int>(it->second);
    ++found;
  }
  if (found == 0) return std::nullopt;
  if (found != 6) throw InvalidArgument("checkpoint window", "window_of", "only some of its six integers are stored");
  CheckpointWindow w{v[0], v[1], PlaneBlock{v[2], v[3], v[4], v[5]}};
  if (w.plane_nx < 1 || w.plane_ny < 1 || w.columns.i_begin >= w.columns.i_end ||
      w.columns.j_begin >= w.columns.j_end || w.columns.i_end > w.plane_nx || w.columns.j_end > w.plane_ny)
    throw InvalidArgument("checkpoint window", "window_of", w.describe() + " is not a block of its plane");
  return w;
}

void set_window(Checkpoint& c, const CheckpointWindow& w) {
  const int v[6] = {w.plane_nx, w.plane_ny, w.columns.i_begin, w.columns.i_end, w.columns.j_begin, w.columns.j_end};
  for (int k = 0; k < 6; ++k) c.integers[kKeys[k]] = v[k];
}

void clear_window(Checkpoint& c) {
  for (const char* key : kKeys) c.integers.erase(key);
}

}  // namespace voltaic
