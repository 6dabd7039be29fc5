#pragma once
// Shared by the fuzz targets: the input as text, and how a broken invariant
// is reported. libFuzzer counts an abort as a crash and keeps the input.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace voltaic::fuzz {

inline std::string text_of(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

/// A reader accepted or produced something it promises not to: a finding.
[[noreturn]] inline void finding(const std::string& what) {
  std::fprintf(stderr, "fuzz finding: %s\n", what.c_str());
  std::abort();
}

inline void require(bool ok, const std::string& what) {
  if (!ok) finding(what);
}

}  // namespace voltaic::fuzz
