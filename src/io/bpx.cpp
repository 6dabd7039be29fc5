// Placeholder until the BPX reader lands: refuses every file clearly.
#include "voltaic/io/bpx.hpp"

namespace voltaic::io {

ParameterSet parse_bpx(const std::string& /*json_text*/, const std::string& origin) {
  throw BpxError(origin, "parse_bpx", "BPX import is not built yet");
}

ParameterSet load_bpx(const std::string& path) { return parse_bpx("", path); }

}  // namespace voltaic::io
