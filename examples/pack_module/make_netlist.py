#!/usr/bin/env python3
"""Writes module_8p3s.cir: a module of Ns groups in series, each of Np cells
in parallel, wired as liionpack's setup_circuit wires one (busbars with a
resistance between neighbouring cells, so the cells far from the terminals
see more of it), in LTspice's netlist form (desc node1 node2 value), for
`[pack] netlist` (docs/config.md, "Netlists").

    python3 examples/pack_module/make_netlist.py [--parallel 8] [--series 3]
        [--busbar 2e-4] [--connection 1e-3] [--terminal 1e-4] [--terminals left|left-right]
        [--out examples/pack_module/module_8p3s.cir]

Nodes: busbar level l (0: the negative terminal's, Ns: the positive one's)
at cell p is l Np + p; cell k = s Np + p has its own node (Ns + 1) Np + k,
its positive terminal, joined to level s + 1 through its connection
resistor, its negative terminal on level s; the positive terminal node is
the last. Node 0 (level 0, cell 0) is the negative terminal. Cells come in
the order k = s Np + p, as a [sweep]'s cells map onto them. Plain Python.
"""
import argparse
import os


def netlist(np_, ns, busbar, connection, terminal, terminals):
    level = lambda l, p: l * np_ + p  # noqa: E731
    own = lambda k: (ns + 1) * np_ + k  # noqa: E731
    lines = [f"* {np_}p{ns}s as liionpack wires it: busbars {busbar} Ohm between neighbouring cells,",
             f"* {connection} Ohm each cell's connection, {terminal} Ohm to the positive terminal",
             f"* (terminals: {terminals}); examples/pack_module/make_netlist.py wrote it"]
    for s in range(ns):
        for p in range(np_):
            k = s * np_ + p
            lines.append(f"V{k} N{own(k):03d} N{level(s, p):03d}")
            lines.append(f"Rc{k} N{own(k):03d} N{level(s + 1, p):03d} {connection:g}")
    n = 0
    for lv in range(ns + 1):
        for p in range(np_ - 1):
            lines.append(f"Rb{n} N{level(lv, p):03d} N{level(lv, p + 1):03d} {busbar:g}")
            n += 1
    plus = own(np_ * ns)
    # The negative terminal is node 0 (level 0, cell 0); the positive one
    # beside cell 0 ("left") or at the far end of its busbar ("left-right").
    top = level(ns, 0 if terminals == "left" else np_ - 1)
    lines.append(f"Rt0 N{top:03d} N{plus:03d} {terminal:g}")
    lines.append(f"I0 N{plus:03d} 0 1")
    return "\n".join(lines) + "\n"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    a = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    a.add_argument("--parallel", type=int, default=8)
    a.add_argument("--series", type=int, default=3)
    a.add_argument("--busbar", type=float, default=2e-4)
    a.add_argument("--connection", type=float, default=1e-3)
    a.add_argument("--terminal", type=float, default=1e-4)
    a.add_argument("--terminals", choices=["left", "left-right"], default="left")
    a.add_argument("--out", default=os.path.join(here, "module_8p3s.cir"))
    o = a.parse_args()
    with open(o.out, "w") as f:
        f.write(netlist(o.parallel, o.series, o.busbar, o.connection, o.terminal, o.terminals))
    print(f"make_netlist.py: wrote {o.out}")


if __name__ == "__main__":
    main()
