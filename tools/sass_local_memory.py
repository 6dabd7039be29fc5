#!/usr/bin/env python3
"""Where a kernel touches its thread's stack, read from its SASS, no GPU needed.

Counts the local loads and stores (LDL/STL) of an `nvdisasm -gi` listing by
the innermost source line they come from and by stack offset, separating
register spills (ptxas marks them SpillRefill) from objects kept in the
stack (locals whose address is taken, arrays indexed at run time). The
counts are static (instructions in the code, not executions): they say
where to look, ncu's source counters say what it costs.

tools/sass_code_size.py reads the same listing for the code's size (the
instruction footprint). The disassembler comes without a GPU: the CUDA toolkit here lacks
cuobjdump and nvdisasm, PyPI has them (no install needed):

    pip download --no-deps nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm
    python3 -m zipfile -e nvidia_cuda_cuobjdump-*.whl /tmp/cut
    python3 -m zipfile -e nvidia_cuda_nvdisasm-*.whl /tmp/cut
    chmod +x /tmp/cut/nvidia/cu13/bin/*

then compile one kernel file with line information and list it:

    nvcc -std=c++17 -x cu -arch=sm_90 -c -O3 --fmad=false --expt-relaxed-constexpr \\
      -lineinfo -Xptxas -v -I<dir with voltaic/config.hpp, VOLTAIC_HAS_CUDA 1> -Iinclude -Isrc -Ikernels \\
      kernels/cell_program_plain.cu -o /tmp/sass/plain.o
    (cd /tmp/sass && /tmp/cut/nvidia/cu13/bin/cuobjdump -xelf all plain.o)
    /tmp/cut/nvidia/cu13/bin/nvdisasm -gi -c /tmp/sass/cell_program_plain.sm_90.cubin > /tmp/sass/plain.sass
    tools/sass_local_memory.py /tmp/sass/plain.sass
"""
import argparse
import collections
import re

LOCATION = re.compile(r'//## File "([^"]+)", line (\d+)')
ACCESS = re.compile(r'\b(LDL|STL)(\.[0-9A-Z.]+)?\s+([^;]*);')
OFFSET = re.compile(r'\[R1(?:\+0x([0-9a-f]+))?\]')


def scan(path):
    """(kind, innermost 'file:line', stack offset or None, spill?) per access."""
    location, comments_open = None, False
    for line in open(path, encoding="utf-8", errors="replace"):
        text = line.strip()
        if text.startswith("//## File"):
            if not comments_open:  # a new block of line comments: its first is the innermost
                m = LOCATION.match(text)
                location = f"{m.group(1).split('/')[-1]}:{m.group(2)}" if m else text
            comments_open = True
            continue
        comments_open = False
        m = ACCESS.search(line)
        if not m:
            continue
        o = OFFSET.search(m.group(3))
        offset = (int(o.group(1), 16) if o.group(1) else 0) if o else None
        yield m.group(1), location or "?", offset, "SpillRefill" in line


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sass", help="an `nvdisasm -gi -c` listing")
    ap.add_argument("--top", type=int, default=30, help="rows of each table")
    args = ap.parse_args()
    by_line, by_offset = collections.Counter(), collections.Counter()
    lines_of = collections.defaultdict(collections.Counter)
    spills = objects = 0
    for kind, where, offset, spill in scan(args.sass):
        by_line[(kind, where)] += 1
        spills += spill
        objects += not spill
        if offset is not None:
            by_offset[(offset, "spill" if spill else "object")] += 1
            lines_of[offset][where] += 1
    print(f"local accesses: {spills} spill, {objects} other (objects in the stack, or through a computed address)")
    print(f"\nby innermost source line (top {args.top}):")
    for (kind, where), n in by_line.most_common(args.top):
        print(f"  {n:6d} {kind} {where}")
    print(f"\nby stack offset (top {args.top}):")
    for (offset, what), n in by_offset.most_common(args.top):
        top = ", ".join(f"{w} x{c}" for w, c in lines_of[offset].most_common(3))
        print(f"  {offset:#7x} {what:6s} {n:6d}  {top}")


if __name__ == "__main__":
    main()
