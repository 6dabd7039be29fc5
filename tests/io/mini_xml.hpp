#pragma once
/// @file mini_xml.hpp
/// @brief A minimal XML reader for tests: enough to check that the XDMF files
/// are well-formed and to look at their elements. Elements, attributes, text
/// and the five predefined entities; a prolog (<?...?>, <!...>) is skipped.

#include <cctype>
#include <cstddef>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace voltaic::test::xml {

struct Element {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::string text;  ///< character data directly inside, entities decoded
  std::vector<Element> children;

  /// The children named `child`, in document order.
  std::vector<const Element*> all(const std::string& child) const {
    std::vector<const Element*> found;
    for (const Element& c : children)
      if (c.name == child) found.push_back(&c);
    return found;
  }
  const Element& first(const std::string& child) const {
    for (const Element& c : children)
      if (c.name == child) return c;
    throw std::runtime_error("no <" + child + "> in <" + name + ">");
  }
  std::string attr(const std::string& key) const {
    const auto it = attributes.find(key);
    if (it == attributes.end()) throw std::runtime_error("no attribute " + key + " on <" + name + ">");
    return it->second;
  }
};

class Parser {
 public:
  explicit Parser(const std::string& text) : s_(text) {}

  Element document() {
    skip_prolog();
    Element root = element();
    skip_space();
    if (i_ != s_.size()) fail("content after the root element");
    return root;
  }

 private:
  const std::string& s_;
  std::size_t i_ = 0;

  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error("XML: " + why + " at offset " + std::to_string(i_));
  }
  bool at(const char* token) const { return s_.compare(i_, std::char_traits<char>::length(token), token) == 0; }
  void skip_space() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  void skip_prolog() {
    for (skip_space(); at("<?") || at("<!"); skip_space()) {
      const std::size_t end = s_.find('>', i_);
      if (end == std::string::npos) fail("unterminated declaration");
      i_ = end + 1;
    }
  }
  std::string name() {
    const std::size_t start = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == ':' || s_[i_] == '_' ||
                              s_[i_] == '-' || s_[i_] == '.'))
      ++i_;
    if (i_ == start) fail("expected a name");
    return s_.substr(start, i_ - start);
  }
  std::string decoded(const std::string& raw) const {
    static const std::map<std::string, char> entities = {
        {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
    std::string out;
    for (std::size_t k = 0; k < raw.size(); ++k) {
      if (raw[k] == '<') fail("'<' in character data");
      if (raw[k] != '&') {
        out += raw[k];
        continue;
      }
      const std::size_t semi = raw.find(';', k);
      const auto it = semi == std::string::npos ? entities.end() : entities.find(raw.substr(k + 1, semi - k - 1));
      if (it == entities.end()) fail("unknown entity");
      out += it->second;
      k = semi;
    }
    return out;
  }
  Element element() {
    if (!at("<")) fail("expected '<'");
    ++i_;
    Element e;
    e.name = name();
    for (skip_space(); !at(">") && !at("/>"); skip_space()) {
      const std::string key = name();
      skip_space();
      if (!at("=\"")) fail("expected =\"");
      i_ += 2;
      const std::size_t end = s_.find('"', i_);
      if (end == std::string::npos) fail("unterminated attribute");
      if (!e.attributes.emplace(key, decoded(s_.substr(i_, end - i_))).second) fail("repeated attribute " + key);
      i_ = end + 1;
    }
    if (at("/>")) {
      i_ += 2;
      return e;
    }
    ++i_;
    while (!at("</")) {
      if (i_ >= s_.size()) fail("unterminated <" + e.name + ">");
      if (at("<")) {
        e.children.push_back(element());
      } else {
        const std::size_t end = s_.find('<', i_);
        if (end == std::string::npos) fail("unterminated <" + e.name + ">");
        e.text += decoded(s_.substr(i_, end - i_));
        i_ = end;
      }
    }
    i_ += 2;
    if (name() != e.name) fail("</...> does not match <" + e.name + ">");
    skip_space();
    if (!at(">")) fail("expected '>'");
    ++i_;
    return e;
  }
};

/// The root element of `text`. @throws std::runtime_error when it is not well-formed
inline Element parse(const std::string& text) { return Parser(text).document(); }

}  // namespace voltaic::test::xml
