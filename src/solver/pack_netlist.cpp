// A netlist's checks, its circuit by modified nodal analysis and its rating
// (pack_netlist.hpp).
#include "solver/pack_netlist.hpp"

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>

#include "voltaic/core/error.hpp"

namespace voltaic {
namespace pack {
namespace {

constexpr const char* kWhere = "PackSimulation";

[[noreturn]] void refuse(const std::string& what, const std::string& why) { throw InvalidArgument(what, kWhere, why); }

/// "netlist element Rc3 (line 7)".
std::string label(const NetlistElement& e) {
  return "netlist element " + (e.name.empty() ? std::string("''") : e.name) +
         (e.line > 0 ? " (line " + std::to_string(e.line) + ")" : "");
}

std::string node_label(long long n) { return "N" + std::to_string(n); }

/// Union-find over node numbers.
class NodeSets {
 public:
  int id(long long node) {
    const auto [it, added] = index_.try_emplace(node, static_cast<int>(parent_.size()));
    if (added) {
      parent_.push_back(it->second);
      number_.push_back(node);
    }
    return it->second;
  }
  int root(int i) {
    while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
    return i;
  }
  void join(long long a, long long b) {
    const int ra = root(id(a)), rb = root(id(b));
    if (ra != rb) parent_[std::max(ra, rb)] = std::min(ra, rb);
  }
  int root_of(long long node) { return root(id(node)); }
  int size() const { return static_cast<int>(parent_.size()); }
  long long number(int i) const { return number_[i]; }

 private:
  std::map<long long, int> index_;
  std::vector<int> parent_;
  std::vector<long long> number_;
};

const NetlistElement& terminals_of(const std::vector<NetlistElement>& netlist) {
  return *std::find_if(netlist.begin(), netlist.end(),
                       [](const NetlistElement& e) { return element_kind(e) == ElementKind::terminals; });
}

/// The nodes once Ri elements (and resistors, `resistors_too`) are
/// contracted, each set named by its smallest node number and ordered by
/// it; every set but the negative terminal's (0 V) an unknown.
struct Contracted {
  NodeSets sets;
  std::vector<int> unknown;      ///< per node id: its set's unknown index, or -1
  std::vector<long long> name;   ///< per set in order (ground included): its smallest node number
  std::vector<int> set_unknown;  ///< per set in order: its unknown index, or -1
  int unknowns = 0;
  int positive = -1;  ///< the positive terminal's unknown index (-1: joined to the negative one)

  Contracted(const std::vector<NetlistElement>& netlist, bool resistors_too) {
    for (const NetlistElement& e : netlist) {
      sets.id(e.node1);
      sets.id(e.node2);
      const ElementKind k = element_kind(e);
      if (k == ElementKind::internal || (resistors_too && k == ElementKind::resistor)) sets.join(e.node1, e.node2);
    }
    const NetlistElement& t = terminals_of(netlist);
    const int ground = sets.root_of(t.node2);
    std::vector<long long> smallest(sets.size(), std::numeric_limits<long long>::max());
    std::vector<int> roots;
    for (int i = 0; i < sets.size(); ++i) {
      smallest[sets.root(i)] = std::min(smallest[sets.root(i)], sets.number(i));
      if (sets.root(i) == i) roots.push_back(i);
    }
    std::sort(roots.begin(), roots.end(), [&](int a, int b) { return smallest[a] < smallest[b]; });
    std::vector<int> of_root(sets.size(), -1);
    for (int r : roots) {
      of_root[r] = r == ground ? -1 : unknowns++;
      name.push_back(smallest[r]);
      set_unknown.push_back(of_root[r]);
    }
    unknown.resize(sets.size());
    for (int i = 0; i < sets.size(); ++i) unknown[i] = of_root[sets.root(i)];
    positive = unknown[sets.id(t.node1)];
  }
  int at(long long node) { return unknown[sets.id(node)]; }
};

using Matrix = Eigen::SparseMatrix<double>;

/// Adds c (e_p - e_n)(e_p - e_n)^T's entries (unknown indices, -1 ground) to triplets.
void add_branch(std::vector<Eigen::Triplet<double>>& t, int p, int n, double c) {
  if (p >= 0) t.emplace_back(p, p, c);
  if (n >= 0) t.emplace_back(n, n, c);
  if (p >= 0 && n >= 0) {
    t.emplace_back(p, n, -c);
    t.emplace_back(n, p, -c);
  }
}

double difference(const Eigen::VectorXd& u, int p, int n) { return (p >= 0 ? u[p] : 0.0) - (n >= 0 ? u[n] : 0.0); }

}  // namespace

ElementKind element_kind(const NetlistElement& e) {
  if (e.name.empty()) return ElementKind::unknown;
  switch (std::toupper(static_cast<unsigned char>(e.name[0]))) {
    case 'V': return ElementKind::cell;
    case 'I': return ElementKind::terminals;
    case 'R':
      return e.name.size() > 1 && std::toupper(static_cast<unsigned char>(e.name[1])) == 'I' ? ElementKind::internal
                                                                                             : ElementKind::resistor;
    default: return ElementKind::unknown;
  }
}

}  // namespace pack

void check_netlist(const std::vector<NetlistElement>& netlist) {
  using pack::ElementKind;
  if (netlist.empty())
    pack::refuse("netlist", "has no elements; allowed: cells (V), resistors (R) and the terminals (one I)");
  const NetlistElement* terminals = nullptr;
  std::size_t cells = 0;
  std::map<long long, std::vector<const NetlistElement*>> ends;  // node -> the elements it joins
  for (const NetlistElement& e : netlist) {
    const ElementKind kind = pack::element_kind(e);
    if (kind == ElementKind::unknown)
      pack::refuse(pack::label(e),
                   "is no kind of element voltaic knows; allowed: a name starting with V (a cell), R "
                   "(a resistor), Ri (a cell's internal resistance: its nodes joined) or I (the "
                   "pack's terminals)");
    if (e.node1 < 0 || e.node2 < 0)
      pack::refuse(pack::label(e),
                   "joins node " + std::to_string(std::min(e.node1, e.node2)) + "; allowed: node numbers >= 0");
    if (e.node1 == e.node2)
      pack::refuse(pack::label(e), "joins node " + pack::node_label(e.node1) +
                                       " to itself; allowed: an element between two different nodes");
    if (kind == ElementKind::resistor && !(e.value > 0.0 && std::isfinite(e.value))) {
      std::ostringstream m;
      m << "is " << e.value << " Ohm; allowed: a finite resistance > 0 (nodes joined without resistance are one "
        << "node: give them one number)";
      pack::refuse(pack::label(e), m.str());
    }
    if (kind == ElementKind::terminals && terminals)
      pack::refuse(pack::label(e), "is a second pair of terminals (the first: " + pack::label(*terminals) +
                                       "); allowed: one I element");
    if (kind == ElementKind::terminals) terminals = &e;
    if (kind == ElementKind::cell) ++cells;
    ends[e.node1].push_back(&e);
    ends[e.node2].push_back(&e);
  }
  if (!terminals)
    pack::refuse("netlist",
                 "has no terminals; allowed: one I element, from the positive terminal (node1) to the "
                 "negative one (node2)");
  if (cells == 0) pack::refuse("netlist", "has no cells; allowed: at least one V element");
  for (const auto& [node, elements] : ends) {
    if (elements.size() < 2)
      pack::refuse("netlist node " + pack::node_label(node),
                   "joins only " + pack::label(*elements.front()) +
                       ": an open end, which carries no current; allowed: every node joined to two elements or more");
  }
  pack::NodeSets sets;  // what the elements join, the terminals' own source aside
  for (const NetlistElement& e : netlist)
    if (pack::element_kind(e) != ElementKind::terminals) sets.join(e.node1, e.node2);
  const int negative = sets.root_of(terminals->node2);
  for (const auto& [node, elements] : ends) {
    if (sets.root_of(node) != negative)
      pack::refuse("netlist node " + pack::node_label(node),
                   std::string(node == terminals->node1 ? "(the positive terminal) " : "") +
                       "is floating: no path of elements joins it to the negative terminal " +
                       pack::node_label(terminals->node2) + " (" + pack::label(*terminals) +
                       "); allowed: every node joined to the terminals through cells and resistors");
  }
}

namespace pack {

struct NetlistCircuit::Solver {
  Contracted nodes;
  std::vector<int> pos, neg;       ///< each cell's terminals (unknown indices, -1 ground)
  Matrix a;                        ///< G + B C B^T's pattern; its values refilled each iterate
  std::vector<double> base;        ///< the resistors' part of a's values
  std::vector<Eigen::Index> slot;  ///< per cell: a's value offsets of pp, nn, pn, np (-1 absent)
  Eigen::SimplicialLDLT<Matrix> ldlt;
  bool analysed = false;
  Eigen::VectorXd w, u0, rhs;
  std::vector<double> per_amp;     ///< dI_k/dJ at the last factorisation
  std::vector<double> factorised;  ///< the slopes it was for (share() and the first update use the same)
  /// The node voltages of the cells' present currents, and whether there
  /// are any (not after currents moved by share()); as save() kept them.
  Eigen::VectorXd u, saved_u;
  Eigen::VectorXd u_next;  ///< the node voltages of the last update's currents (`next`), until shift() takes them
  bool consistent = false, saved_consistent = false;

  explicit Solver(const std::vector<NetlistElement>& netlist) : nodes(netlist, false) {
    if (nodes.positive < 0)
      refuse("netlist", "joins its terminals (" + label(terminals_of(netlist)) +
                            ") through Ri elements alone, which make one node; allowed: cells between them");
    const int n = nodes.unknowns;
    std::vector<Eigen::Triplet<double>> resistors, all;
    for (const NetlistElement& e : netlist) {
      const ElementKind k = element_kind(e);
      const int p = nodes.at(e.node1), q = nodes.at(e.node2);
      if (k == ElementKind::resistor) add_branch(resistors, p, q, 1.0 / e.value);
      if (k == ElementKind::cell && p == q)
        refuse(label(e),
               "has its terminals joined by Ri elements (liionpack's internal resistance, which a DFN cell "
               "holds of its own: an Ri joins its nodes); allowed: an Ri in series with its cell, not "
               "across it");
      if (k == ElementKind::cell) {
        pos.push_back(p);
        neg.push_back(q);
        add_branch(all, p, q, 1.0);
      }
    }
    all.insert(all.end(), resistors.begin(), resistors.end());
    a.resize(n, n);
    a.setFromTriplets(all.begin(), all.end());
    a.makeCompressed();
    std::fill(a.valuePtr(), a.valuePtr() + a.nonZeros(), 0.0);
    for (const auto& t : resistors) a.coeffRef(t.row(), t.col()) += t.value();
    base.assign(a.valuePtr(), a.valuePtr() + a.nonZeros());
    const auto offset = [&](int r, int c) -> Eigen::Index {
      return r >= 0 && c >= 0 ? &a.coeffRef(r, c) - a.valuePtr() : -1;
    };
    for (std::size_t k = 0; k < pos.size(); ++k)
      for (Eigen::Index o :
           {offset(pos[k], pos[k]), offset(neg[k], neg[k]), offset(pos[k], neg[k]), offset(neg[k], pos[k])})
        slot.push_back(o);
    per_amp.assign(pos.size(), 0.0);
    w = u0 = rhs = u = saved_u = u_next = Eigen::VectorXd::Zero(n);
  }

  /// Factorises for cell conductances c_k = -1 / dv_k and solves the unit
  /// load's w; false when the factorisation fails (a slope not finite).
  bool factorise(const double* dv) {
    if (!factorised.empty() && std::equal(factorised.begin(), factorised.end(), dv)) return true;
    factorised.clear();
    std::copy(base.begin(), base.end(), a.valuePtr());
    for (std::size_t k = 0; k < pos.size(); ++k) {
      const double c = -1.0 / dv[k];
      for (int j = 0; j < 4; ++j)
        if (slot[4 * k + j] >= 0) a.valuePtr()[slot[4 * k + j]] += j < 2 ? c : -c;
    }
    if (!analysed) {
      ldlt.analyzePattern(a);
      analysed = true;
    }
    ldlt.factorize(a);
    if (ldlt.info() != Eigen::Success) return false;
    rhs.setZero();
    rhs[nodes.positive] = -1.0;
    w = ldlt.solve(rhs);
    for (std::size_t k = 0; k < pos.size(); ++k) per_amp[k] = difference(w, pos[k], neg[k]) / dv[k];
    factorised.assign(dv, dv + pos.size());
    return true;
  }
};

NetlistCircuit::NetlistCircuit(const std::vector<NetlistElement>& netlist) {
  check_netlist(netlist);
  solver_ = std::make_unique<Solver>(netlist);
}

NetlistCircuit::~NetlistCircuit() = default;

void NetlistCircuit::share(double from, double J, const double* dv, double* amps) {
  if (J == from) return;
  solver_->consistent = false;
  if (!solver_->factorise(dv)) return;
  for (std::size_t k = 0; k < solver_->pos.size(); ++k) amps[k] += (J - from) * solver_->per_amp[k];
}

CircuitStep NetlistCircuit::update(const double* v, const double* i, const double* dv, double J, double rtol,
                                   double atol, double* next) {
  Solver& s = *solver_;
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  // The voltage law of the iterate (against the node voltages its currents
  // make); none known (currents moved by share()): not yet settled.
  CircuitStep out{0.0, 0.0, s.consistent ? 0.0 : std::numeric_limits<double>::max(), 0.0};
  for (std::size_t k = 0; k < s.pos.size(); ++k) {
    if (s.consistent) out.mismatch = std::max(out.mismatch, std::fabs(v[k] - difference(s.u, s.pos[k], s.neg[k])));
    out.tolerance = std::max(out.tolerance, rtol * std::fabs(v[k]) + atol);
  }
  if (!s.factorise(dv)) return {kNaN, kNaN, kNaN, 0.0};
  s.rhs.setZero();
  for (std::size_t k = 0; k < s.pos.size(); ++k) {  // B C f
    const double cf = -(v[k] - dv[k] * i[k]) / dv[k];
    if (s.pos[k] >= 0) s.rhs[s.pos[k]] += cf;
    if (s.neg[k] >= 0) s.rhs[s.neg[k]] -= cf;
  }
  s.u0 = s.ldlt.solve(s.rhs);
  s.u_next = s.u0 + J * s.w;
  const int P = s.nodes.positive;
  out.voltage = s.u_next[P];
  out.slope = s.w[P];
  for (std::size_t k = 0; k < s.pos.size(); ++k)
    next[k] = (difference(s.u_next, s.pos[k], s.neg[k]) - (v[k] - dv[k] * i[k])) / dv[k];
  return out;
}

void NetlistCircuit::shift(double dJ, double* amps) {
  for (std::size_t k = 0; k < solver_->pos.size(); ++k) amps[k] += dJ * solver_->per_amp[k];
  solver_->u = solver_->u_next + dJ * solver_->w;  // `amps` is the last update's `next`, shifted
  solver_->consistent = true;
}

void NetlistCircuit::save() {
  solver_->saved_u = solver_->u;
  solver_->saved_consistent = solver_->consistent;
}

void NetlistCircuit::restore() {
  solver_->u = solver_->saved_u;
  solver_->consistent = solver_->saved_consistent;
}

std::vector<std::string> NetlistCircuit::node_names() const {
  std::vector<std::string> names;
  for (long long n : solver_->nodes.name) names.push_back(node_label(n));
  return names;
}

void NetlistCircuit::node_voltages(std::vector<double>& out) const {
  for (int u : solver_->nodes.set_unknown) out.push_back(u < 0 ? 0.0 : solver_->u[u]);
}

PackRating netlist_rating(const std::vector<NetlistElement>& netlist, const std::vector<double>& q) {
  Contracted nodes(netlist, true);
  if (nodes.positive < 0)
    refuse("netlist", "joins its terminals (" + label(terminals_of(netlist)) +
                          ") through resistors alone, a short circuit past every cell; allowed: cells between them");
  std::vector<int> pos, neg;
  for (const NetlistElement& e : netlist) {
    if (element_kind(e) != ElementKind::cell) continue;
    pos.push_back(nodes.at(e.node1));
    neg.push_back(nodes.at(e.node2));
  }
  const double most = *std::max_element(q.begin(), q.end());
  std::vector<Eigen::Triplet<double>> t;
  Eigen::VectorXd unit = Eigen::VectorXd::Zero(nodes.unknowns), open = unit;
  for (std::size_t k = 0; k < pos.size(); ++k) {
    const double c = q[k] / most;  // each cell's share of the current as its capacity's
    add_branch(t, pos[k], neg[k], c);
    if (pos[k] >= 0) open[pos[k]] += c;  // every cell at 1 V
    if (neg[k] >= 0) open[neg[k]] -= c;
  }
  unit[nodes.positive] = -1.0;
  Matrix a(nodes.unknowns, nodes.unknowns);
  a.setFromTriplets(t.begin(), t.end());
  Eigen::SimplicialLDLT<Matrix> ldlt(a);
  if (ldlt.info() != Eigen::Success) refuse("netlist", "has a circuit whose cells do not carry the pack's current");
  const Eigen::VectorXd w = ldlt.solve(unit), u = ldlt.solve(open);
  std::vector<double> current(pos.size());
  double largest = 0.0;
  for (std::size_t k = 0; k < pos.size(); ++k) {
    current[k] = std::fabs(q[k] / most * difference(w, pos[k], neg[k]));
    largest = std::max(largest, current[k]);
  }
  double capacity = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < pos.size(); ++k)
    if (current[k] > 1e-12 * largest) capacity = std::min(capacity, q[k] / current[k]);
  return {capacity, u[nodes.positive]};
}

}  // namespace pack
}  // namespace voltaic
