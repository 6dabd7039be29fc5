// load_netlist: the file read as an InputFile, UTF-16 (LTspice's) narrowed
// to bytes, then line by line; every problem names FILE:LINE.
#include "voltaic/io/netlist_file.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "io/csv_text.hpp"
#include "io/input_file.hpp"
#include "voltaic/core/error.hpp"

namespace voltaic::io {

namespace {

using detail::excerpt;
using detail::trim_blanks;

constexpr const char* kWhere = "voltaic::io::load_netlist";
constexpr const char* kAllowedLine =
    "allowed: an element a line, desc node1 node2 value (spaces or commas between them)";

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// `text` as bytes: UTF-16 little-endian (a byte-order mark, or NULs as
/// every second byte) narrowed where every character is ASCII; false
/// where one is not.
bool narrowed(const std::string& text, std::string& out) {
  const bool bom = text.size() >= 2 && text[0] == '\xFF' && text[1] == '\xFE';
  const bool nuls = text.size() >= 2 && text[0] != '\0' && text[1] == '\0';
  if (!bom && !nuls) {
    out = text;
    return true;
  }
  out.clear();
  for (std::size_t i = bom ? 2 : 0; i + 1 < text.size(); i += 2) {
    if (text[i + 1] != '\0' || static_cast<unsigned char>(text[i]) > 0x7F) return false;
    out += text[i];
  }
  return true;
}

class Reader {
 public:
  explicit Reader(const std::string& origin) : origin_(origin) {}

  void line(std::string_view text, int number) {
    line_ = number;
    if (const std::size_t hash = text.find('#'); hash != std::string_view::npos) text = text.substr(0, hash);
    text = trim_blanks(text);
    if (text.empty() || text[0] == '*' || text[0] == '.') return;
    std::vector<std::string> fields;
    if (text.find(',') != std::string_view::npos) {
      if (const std::string why = detail::split_fields(text, fields); !why.empty()) fail(why + "; " + kAllowedLine);
    } else {
      for (std::size_t i = 0; i < text.size();) {
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        const std::size_t start = i;
        while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        if (i > start) fields.emplace_back(text.substr(start, i - start));
      }
    }
    if (!header_seen_ && elements_.empty() && is_header(fields)) return;
    element(fields, text);
  }

  std::vector<NetlistElement> finish() {
    if (elements_.empty()) {
      line_ = 1;
      fail("holds no elements; allowed: cells (V), resistors (R) and the terminals (I), one a line");
    }
    return std::move(elements_);
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw InvalidArgument(one_line(origin_) + ":" + std::to_string(line_), kWhere, why);
  }

  /// A CSV header names the columns (pandas writes an unnamed index first).
  bool is_header(const std::vector<std::string>& fields) {
    std::size_t named[4] = {npos, npos, npos, npos};
    for (std::size_t i = 0; i < fields.size(); ++i)
      for (std::size_t c = 0; c < 4; ++c)
        if (lower(fields[i]) == kColumns[c]) named[c] = i;
    if (named[0] == npos) return false;
    for (std::size_t c = 1; c < 3; ++c)
      if (named[c] == npos) fail(std::string("the header has no column ") + kColumns[c] + "; " + kAllowedLine);
    std::copy(named, named + 4, column_);
    header_seen_ = true;
    return true;
  }

  void element(const std::vector<std::string>& fields, std::string_view text) {
    const std::size_t needed = std::max({column_[0], column_[1], column_[2]}) + 1;
    if (fields.size() < needed)
      fail(excerpt(text) + " has " + std::to_string(fields.size()) + " fields; " + kAllowedLine);
    NetlistElement e;
    e.line = line_;
    e.name = fields[column_[0]];
    e.node1 = node(fields[column_[1]], "node1");
    e.node2 = node(fields[column_[2]], "node2");
    const std::size_t v = column_[3];
    const bool resistor = !e.name.empty() && std::toupper(static_cast<unsigned char>(e.name[0])) == 'R';
    if (v != npos && v < fields.size() && !fields[v].empty()) {
      e.value = value(fields[v], e.name);
    } else if (resistor) {
      fail(e.name + " has no value; allowed: its resistance [Ohm] after its nodes");
    }
    elements_.push_back(std::move(e));
  }

  long long node(const std::string& field, const char* which) const {
    std::string_view s = field;
    if (!s.empty() && (s[0] == 'N' || s[0] == 'n') && s.size() > 1 && std::isdigit(static_cast<unsigned char>(s[1])))
      s.remove_prefix(1);
    long long n = 0;
    bool ok = !s.empty() && s.size() <= 15;
    for (char c : s) {
      ok = ok && std::isdigit(static_cast<unsigned char>(c));
      if (ok) n = 10 * n + (c - '0');
    }
    if (!ok) {
      const bool open = lower(field).rfind("nc", 0) == 0;
      fail(std::string(which) + " " + excerpt(field) + " is not a node number" +
           (open ? " (LTspice's NC_ nodes are unconnected ends: a pack has none)" : "") +
           "; allowed: an integer >= 0, or N and one (N001), 0 the ground");
    }
    return n;
  }

  /// A number with an optional SPICE scale suffix.
  double value(const std::string& field, const std::string& name) const {
    static const struct {
      const char* suffix;
      double scale;
    } kScales[] = {{"meg", 1e6}, {"f", 1e-15}, {"p", 1e-12}, {"n", 1e-9}, {"u", 1e-6},
                   {"m", 1e-3},  {"k", 1e3},   {"g", 1e9},   {"t", 1e12}};
    const std::string low = lower(field);
    double v = 0.0;
    if (detail::parse_number(field, v)) return v;
    for (const auto& s : kScales) {
      const std::size_t n = std::string(s.suffix).size();
      if (low.size() > n && low.compare(low.size() - n, n, s.suffix) == 0 &&
          detail::parse_number(std::string_view(field).substr(0, field.size() - n), v))
        return v * s.scale;
    }
    fail("the value of " + name + ", " + excerpt(field) + ", " + detail::why_not_a_number(field) +
         "; allowed: a number, optionally with a SPICE scale (1m = 1e-3)");
  }

  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  static constexpr const char* kColumns[4] = {"desc", "node1", "node2", "value"};
  const std::string& origin_;
  int line_ = 1;
  bool header_seen_ = false;
  std::size_t column_[4] = {0, 1, 2, 3};
  std::vector<NetlistElement> elements_;
};

}  // namespace

std::vector<NetlistElement> parse_netlist(const std::string& text, const std::string& origin) {
  std::string bytes;
  if (!narrowed(text, bytes))
    throw InvalidArgument(one_line(origin) + ":1", kWhere,
                          "is UTF-16 text with characters beyond ASCII; allowed: a netlist of ASCII names, nodes "
                          "and numbers");
  Reader reader(origin);
  detail::for_each_line(bytes, [&](std::string_view line, int number) { reader.line(line, number); });
  return reader.finish();
}

std::vector<NetlistElement> load_netlist(const std::filesystem::path& file) {
  const std::string text = detail::read_input_file(file.string(), kMaxNetlistBytes, kWhere,
                                                   "a regular file holding a netlist (desc node1 node2 value)");
  return parse_netlist(text, file.string());
}

}  // namespace voltaic::io
