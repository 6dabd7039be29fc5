// BatchCellResult's status as text: what summary files and messages show.
#include "voltaic/solver/batch_simulation.hpp"

namespace voltaic {

const char* to_string(BatchCellResult::Status s) {
  switch (s) {
    case BatchCellResult::Status::not_run: return "not run";
    case BatchCellResult::Status::completed: return "completed";
    case BatchCellResult::Status::stopped: return "stopped";
    case BatchCellResult::Status::failed: return "failed";
    case BatchCellResult::Status::interrupted: return "interrupted";
  }
  return "unknown";
}

}  // namespace voltaic
