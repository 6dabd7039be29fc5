#include "hdf5_names.hpp"

namespace voltaic::io::hdf5 {

namespace {

constexpr char kHex[] = "0123456789ABCDEF";

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

void append_escaped(std::string& out, char c) {
  const auto byte = static_cast<unsigned char>(c);
  out += '%';
  out += kHex[byte >> 4];
  out += kHex[byte & 0xF];
}

}  // namespace

std::string encode_link_name(const std::string& name) {
  // "%" alone never comes out of the escaping below (every '%' it writes is
  // followed by two digits), so it is free to stand for the empty name.
  if (name.empty()) return "%";
  if (name == ".") return "%2E";
  std::string link;
  link.reserve(name.size());
  for (const char c : name) {
    if (c == '%' || c == '/' || c == '\0')
      append_escaped(link, c);
    else
      link += c;
  }
  return link;
}

std::optional<std::string> decode_link_name(const std::string& link) {
  if (link == "%") return std::string();
  std::string name;
  name.reserve(link.size());
  for (std::size_t i = 0; i < link.size(); ++i) {
    if (link[i] != '%') {
      name += link[i];
      continue;
    }
    if (i + 2 >= link.size() || hex_value(link[i + 1]) < 0 || hex_value(link[i + 2]) < 0) return std::nullopt;
    name += static_cast<char>(hex_value(link[i + 1]) * 16 + hex_value(link[i + 2]));
    i += 2;
  }
  return name;
}

PropertyList utf8_link_names(const ErrorContext& ctx) {
  PropertyList list(ctx.require(H5Pcreate(H5P_LINK_CREATE), "create a link property list"));
  ctx.check(H5Pset_char_encoding(list.get(), H5T_CSET_UTF8), "create a link property list");
  return list;
}

}  // namespace voltaic::io::hdf5
