// load_bpx / parse_bpx: the file's text, its JSON, its header (version and
// model), then the mapping (bpx_mapping.cpp) and validation. Every problem is
// one line naming the file, the field and what is wrong.
#include "voltaic/io/bpx.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>

#include "io/bpx_mapping.hpp"
#include "io/bpx_node.hpp"
#include "voltaic/io/atomic_file.hpp"

namespace voltaic::io {

namespace {

constexpr const char* kWhere = "voltaic::io::parse_bpx";

/// A control character that JSON text cannot hold outside a string (and not
/// inside one either): the file is binary, not JSON.
bool looks_binary(const std::string& text, std::size_t& at) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto u = static_cast<unsigned char>(text[i]);
    if ((u < 0x20 && u != '\t' && u != '\n' && u != '\r') || u == 0x7f) {
      at = i;
      return true;
    }
  }
  return false;
}

nlohmann::json parse_json(const std::string& text, const std::string& origin) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    throw BpxError(origin, kWhere, "the file is empty; expected a BPX JSON object");
  }
  std::size_t at = 0;
  if (looks_binary(text, at)) {
    std::ostringstream s;
    s << "not a JSON text file: byte " << at << " is a control character (0x" << std::hex
      << static_cast<int>(static_cast<unsigned char>(text[at])) << "); is it a binary file?";
    throw BpxError(origin, kWhere, s.str());
  }
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::out_of_range&) {  // a number beyond a double: 1e400 (found by fuzz_bpx)
    throw BpxError(origin, kWhere, "not valid JSON for BPX: a number is outside the range of a double");
  } catch (const nlohmann::json::parse_error& e) {
    // "[json.exception.parse_error.101] parse error at line 3, column 5: ..."
    std::string why = e.what();
    const std::size_t bracket = why.find("] ");
    if (bracket != std::string::npos) why = why.substr(bracket + 2);
    // Its "last read" quotes the file: bytes of a binary file shown as \xNN.
    std::string shown;
    for (const char ch : why) {
      const auto u = static_cast<unsigned char>(ch);
      if (u < 0x80) {
        shown += ch;
      } else {
        static const char* hex = "0123456789abcdef";
        shown += std::string("\\x") + hex[u >> 4] + hex[u & 15];
      }
    }
    throw BpxError(origin, kWhere, one_line("not valid JSON: " + shown));
  }
}

/// The major version of "MAJOR.MINOR" or "MAJOR.MINOR.PATCH" (digits each),
/// or "" when `version` is not one. Not std::regex: libstdc++'s matcher
/// recurses once per character and overflowed the stack on a version of
/// 200,000 digits (fuzz_bpx).
std::string major_version(const std::string& version) {
  std::size_t parts = 1, digits = 0;
  for (const char c : version) {
    if (c == '.') {
      if (digits == 0) return "";
      ++parts;
      digits = 0;
    } else if (c >= '0' && c <= '9') {
      ++digits;
    } else {
      return "";
    }
  }
  if (digits == 0 || parts < 2 || parts > 3) return "";
  return version.substr(0, version.find('.'));
}

/// BPX's version field: "1.1.1" (or, deprecated, the number 1.0). Only 1.x is read.
void check_version(const detail::BpxNode& header) {
  const nlohmann::json* v = header.find("BPX");
  if (v == nullptr) header.fail("BPX", "is missing (required: the BPX version, e.g. \"1.1.1\")");
  std::string version;
  if (v->is_string()) {
    version = v->get<std::string>();
  } else if (v->is_number()) {
    std::ostringstream s;
    s.precision(1);
    s << std::fixed << v->get<double>();  // as BPX reads an old numeric version
    version = s.str();
  } else {
    header.fail("BPX", "is " + detail::json_type_name(*v) + "; expected the BPX version as a string, e.g. \"1.1.1\"");
  }
  const std::string major = major_version(version);
  if (major.empty()) header.fail("BPX", "'" + version + "' is not a version number like \"1.1.1\"");
  if (major != "1") {
    header.fail("BPX", "BPX version " + version +
                           " is not supported; voltaic reads BPX 1.x (1.0 to 1.1 checked). Convert a 0.x file with "
                           "the bpx package's convert_v0_to_v1 (see docs/bpx.md)");
  }
}

void check_model(const detail::BpxNode& header) {
  const std::string model = header.string("Model");
  if (model == "DFN" || model == "SPMe") return;  // the same Parameterisation sections
  if (model == "SPM") {
    header.fail("Model", "is SPM; an SPM file has no electrolyte or separator, which voltaic's DFN needs");
  }
  if (model == "Partial") header.fail("Model", "is Partial; a partial file does not describe a whole cell");
  header.fail("Model", "is '" + model + "'; BPX models are SPM, SPMe, DFN and Partial");
}

}  // namespace

ParameterSet parse_bpx(const std::string& json_text, const std::string& origin) {
  const nlohmann::json doc = parse_json(json_text, origin);
  if (!doc.is_object()) {
    throw BpxError(origin, kWhere, "the top level is " + detail::json_type_name(doc) + "; expected a BPX object");
  }
  const detail::BpxNode top(doc, "", origin);
  const detail::BpxNode header = top.section("Header");
  check_version(header);  // first: an older file fails on its version, not on a moved field
  header.allow_only({"BPX", "Title", "Description", "References", "Model"});
  check_model(header);
  top.allow_only({"Header", "Parameterisation", "State", "Validation"});
  ParameterSet p = detail::bpx_parameter_set(top.section("Parameterisation"), top.optional_section("State"));
  try {
    p.validate();
  } catch (const InvalidArgument& e) {
    throw BpxError(origin, kWhere,
                   one_line("the parameter set it gives is not valid: " + e.what_failed() + ": " + e.why()));
  }
  return p;
}

ParameterSet load_bpx(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw FileError("open", "voltaic::io::load_bpx", "cannot read '" + path + "': it is a directory");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw FileError("open", "voltaic::io::load_bpx", "cannot open '" + path + "': " + std::strerror(errno));
  }
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw FileError("read", "voltaic::io::load_bpx", "cannot read '" + path + "'");
  return parse_bpx(text, path);
}

}  // namespace voltaic::io
