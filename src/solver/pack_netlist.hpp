#pragma once
// A netlist's circuit (pack.hpp, NetlistElement) by modified nodal analysis.
// Each Newton iterate linearises cell k as V_k(I) = f_k + dv_k I between its
// terminals; with c_k = -1 / dv_k > 0 the cells' currents
// I_k = c_k (f_k - (u_p - u_n)) eliminate, and the node voltages u solve
//
//   (G + B C B^T) u = B C f - J e_P,
//
// G the resistors' conductance Laplacian, B each cell's terminals (+1 at its
// positive node, -1 at its negative one), e_P the positive terminal: a
// symmetric positive definite system over the nodes but the negative
// terminal (0 V), factorised by sparse LDL^T each iterate. u = u0 + J w, so
// the pack's voltage and every current are linear in J: the drive's
// J (power, voltage) follows without another factorisation.
//
// The node voltages kept are those of the currents the cells last ran at
// (the update that gave them, shifted with J), so that the currents and the
// node voltages a pack records keep Kirchhoff's current law exactly; the
// voltage law is the iteration's test: each cell's voltage against its
// terminals' difference.

#include <memory>
#include <string>
#include <vector>

#include "solver/pack_circuit.hpp"

namespace voltaic::pack {

enum class ElementKind { cell, resistor, internal, terminals, unknown };
/// An element's kind from its name: V, R, Ri (internal), I; any case.
ElementKind element_kind(const NetlistElement& e);

class NetlistCircuit final : public Circuit {
 public:
  /// @throws InvalidArgument as check_netlist()
  explicit NetlistCircuit(const std::vector<NetlistElement>& netlist);
  ~NetlistCircuit() override;

  void share(double from, double J, const double* dv, double* amps) override;
  CircuitStep update(const double* v, const double* i, const double* dv, double J, double rtol, double atol,
                     double* next) override;
  void shift(double dJ, double* amps) override;
  void save() override;
  void restore() override;
  std::vector<std::string> node_names() const override;
  void node_voltages(std::vector<double>& out) const override;

 private:
  struct Solver;
  std::unique_ptr<Solver> solver_;
};

/// The rating (pack_circuit.hpp) of a netlist: its resistors ideal wires.
/// @throws InvalidArgument when its terminals are joined by resistors alone
PackRating netlist_rating(const std::vector<NetlistElement>& netlist, const std::vector<double>& q);

}  // namespace voltaic::pack
