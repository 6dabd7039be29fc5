// load_bpx / parse_bpx: the file's text, its JSON, its header (version and
// model), then the mapping (bpx_mapping.cpp) and validation. Every problem is
// one line naming the file, the field and what is wrong.
#include "voltaic/io/bpx.hpp"

#include <cstdint>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "io/bpx_mapping.hpp"
#include "io/bpx_node.hpp"
#include "io/input_file.hpp"
#include "voltaic/io/atomic_file.hpp"

namespace voltaic::io {

namespace {

constexpr const char* kWhere = "voltaic::io::parse_bpx";

/// BPX files are tens of kB; the cap keeps a device or a huge file from
/// exhausting memory.
constexpr std::uintmax_t kMaxBpxBytes = std::uintmax_t(16) << 20;

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

/// The key path of the value being parsed ("Parameterisation/Electrolyte/
/// Conductivity [S.m-1]"), kept by a parser callback so that an error the
/// parser throws without context can name the field.
class JsonPath {
 public:
  nlohmann::json::parser_callback_t callback() {
    return [this](int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
      using Event = nlohmann::json::parse_event_t;
      if (event == Event::object_start || event == Event::array_start) keys_.emplace_back();
      if ((event == Event::object_end || event == Event::array_end) && !keys_.empty()) keys_.pop_back();
      if (event == Event::key && !keys_.empty() && parsed.is_string()) keys_.back() = parsed.get<std::string>();
      return true;
    };
  }
  std::string text() const {
    std::string path;
    for (const std::string& key : keys_) path += (path.empty() ? "" : "/") + (key.empty() ? "[]" : key);
    return path.empty() ? "(top level)" : path;
  }

 private:
  std::vector<std::string> keys_;
};

/// "the number 1e400 is outside a double's range", from nlohmann's
/// "[json.exception.out_of_range.406] number overflow parsing '1e400'".
std::string overflow_text(const std::string& message) {
  const std::size_t open = message.find('\''), close = message.rfind('\'');
  if (open == std::string::npos || close <= open) return "a number is outside a double's range";
  return "the number " + message.substr(open + 1, close - open - 1).substr(0, 40) + " is outside a double's range";
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
  JsonPath path;
  try {
    return nlohmann::json::parse(text, path.callback());
  } catch (const nlohmann::json::out_of_range& e) {  // a number beyond a double: 1e400 (found by fuzz_bpx too)
    throw BpxError(origin, kWhere,
                   one_line("field '" + path.text() + "': " + overflow_text(e.what()) +
                            "; allowed: a finite number within a double's range"));
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
  const std::string text = detail::read_input_file(path, kMaxBpxBytes, "voltaic::io::load_bpx",
                                                   "a regular file of at most 16 MiB holding a BPX JSON object");
  return parse_bpx(text, path);
}

}  // namespace voltaic::io
