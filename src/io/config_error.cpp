// ConfigError: "FILE:LINE: KEY: WHY" on one line, whatever the file held.
#include <string>

#include "voltaic/io/config.hpp"

namespace voltaic::io {

ConfigError::ConfigError(const std::string& file, int line, const std::string& key, const std::string& why)
    : InvalidArgument(one_line(key), one_line(file) + ":" + std::to_string(line), one_line(why)),
      file_(file),
      line_(line),
      message_(where() + ": " + what_failed() + ": " + this->why()) {}

}  // namespace voltaic::io
