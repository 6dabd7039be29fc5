#include <atomic>
#include <cstdlib>
#include <cstring>

#include "voltaic/config.hpp"
#include "voltaic/core/executor.hpp"

namespace voltaic {

namespace {
bool initial_debug_sync() {
  const char* env = std::getenv("VOLTAIC_DEBUG_SYNC");
  if (env && *env) return std::strcmp(env, "0") != 0;
  return VOLTAIC_DEBUG_SYNC_DEFAULT != 0;
}
std::atomic<bool>& debug_sync_flag() {
  static std::atomic<bool> flag{initial_debug_sync()};
  return flag;
}
}  // namespace

bool debug_sync() { return debug_sync_flag().load(std::memory_order_relaxed); }
void set_debug_sync(bool on) { debug_sync_flag().store(on, std::memory_order_relaxed); }

}  // namespace voltaic
