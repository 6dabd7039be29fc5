// Netlist files (netlist_file.hpp): LTspice's .cir text (UTF-16 as LTspice
// writes it, or UTF-8) and liionpack's CSV read element by element, and
// lines that are not elements refused with FILE:LINE.
#include "voltaic/io/netlist_file.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "voltaic/core/error.hpp"

namespace voltaic::io {
namespace {

const std::string kCir =
    "* a 2p1s module, drawn in LTspice\n"
    "V1 N002 0 4.2\n"
    "Ri1 N001 N002 10m\n"
    "V2 N004 0 4.2\n"
    "Ri2 N003 N004 0.01\n"
    "Rc1 N001 N005 1m   # tab\n"
    "Rc2 N003 N005 2e-3\n"
    "I1 N005 0 5\n"
    ".tran 1\n"
    ".backanno\n"
    ".end\n";

TEST(NetlistFile, ReadsLTspiceText) {
  const std::vector<NetlistElement> n = parse_netlist(kCir, "module.cir");
  ASSERT_EQ(n.size(), 7u);
  EXPECT_EQ(n[0].name, "V1");
  EXPECT_EQ(n[0].node1, 2);
  EXPECT_EQ(n[0].node2, 0);
  EXPECT_EQ(n[0].line, 2);
  EXPECT_DOUBLE_EQ(n[1].value, 10e-3);  // SPICE's m
  EXPECT_DOUBLE_EQ(n[4].value, 1e-3);
  EXPECT_EQ(n[4].line, 6);
  EXPECT_EQ(n[6].name, "I1");
  EXPECT_EQ(n[6].node1, 5);
}

// LTspice saves netlists as UTF-16 little-endian: the same elements.
TEST(NetlistFile, ReadsUtf16AsLTspiceWritesIt) {
  std::string wide = "\xFF\xFE";
  for (char c : kCir) {
    wide += c;
    wide += '\0';
  }
  const std::vector<NetlistElement> a = parse_netlist(kCir, "a.cir"), b = parse_netlist(wide, "b.cir");
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].name, b[i].name);
    EXPECT_EQ(a[i].node1, b[i].node1);
    EXPECT_EQ(a[i].value, b[i].value);
  }
  EXPECT_THROW(parse_netlist(std::string("V\0\x01\x01", 4), "c.cir"), InvalidArgument);
}

// pandas' netlist.to_csv(): an index column first, coordinates after.
TEST(NetlistFile, ReadsLiionpacksCsvByItsColumns) {
  const std::vector<NetlistElement> n = parse_netlist(
      ",desc,node1,node2,value,node1_x,node1_y\n"
      "0,Rbn0,6,7,0.0001,0,2\n"
      "1,V0,2,1,4.2,0,1\n"
      "2,I0,9,10,80.0,-1,3\n",
      "netlist.csv");
  ASSERT_EQ(n.size(), 3u);
  EXPECT_EQ(n[0].name, "Rbn0");
  EXPECT_EQ(n[0].node1, 6);
  EXPECT_DOUBLE_EQ(n[0].value, 1e-4);
  EXPECT_EQ(n[2].node2, 10);
  EXPECT_EQ(n[2].line, 4);
}

void expect_refused(const std::string& text, const std::string& words) {
  try {
    parse_netlist(text, "bad.cir");
    ADD_FAILURE() << "accepted; expected " << words;
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

TEST(NetlistFile, LinesThatAreNotElementsAreRefusedWithTheirLine) {
  expect_refused("V1 N001 0\nR1 N001 NC_01 1m\n", "bad.cir:2: node2 'NC_01' is not a node number (LTspice's NC_");
  expect_refused("V1 N001 0\nR1 N001 0\n", "bad.cir:2: R1 has no value");
  expect_refused("V1 N001 0\nR1 N001 0 1x\n", "bad.cir:2: the value of R1, '1x', is not a number");
  expect_refused("V1 N001\n", "bad.cir:1: 'V1 N001' has 2 fields");
  expect_refused("* nothing\n.end\n", "bad.cir:1: holds no elements");
  expect_refused("desc,node1,value\nV1,1,0\n", "bad.cir:1: the header has no column node2");
  expect_refused("V1 -2 0\n", "bad.cir:1: node1 '-2' is not a node number");
}

}  // namespace
}  // namespace voltaic::io
