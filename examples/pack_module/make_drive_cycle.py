#!/usr/bin/env python3
"""Writes drive_20Ah.csv and drive_50Ah.csv: a synthetic 20-minute drive
cycle of a pack's current, one row a second, for the two packs of
examples/pack_module (module_4p3s.toml: 4 Chen2020 cells in parallel, 20 A.h;
pack_10p100s.toml: 10 in parallel, 50 A.h).

    python3 examples/pack_module/make_drive_cycle.py [--capacity 20 50] [--folder DIR]

Plain Python, no packages. The profile is shaped as PyBaMM's drive-cycle
examples (US06.csv) are: a sequence of trips, each an acceleration (a ramp
to a peak of 1.5C to 3C), cruising near 0.3C to 0.8C with a ripple of 0.1C,
regenerative braking (a charge of 0.5C to 1.2C) and a few seconds at
standstill drawing the auxiliaries (0.02C), the last trip cruising to the
end; smoothed over 3 s, as a vehicle's current is. Seeded: the same files
come out each time. The discharging part is then scaled so that the mean is
0.5C (the peaks reach 3C, the braking -1.1C). Each --capacity [A.h] gets
the same profile in C-rates as drive_<capacity>Ah.csv, in A, > 0
discharging, as voltaic and PyBaMM read it.
"""
import argparse
import math
import os
import random

SECONDS = 20 * 60
MEAN_C = 0.5


def profile(seconds, seed=2024):
    """C-rates at 0, 1, ..., seconds s."""
    rng = random.Random(seed)
    c = []
    while len(c) <= seconds:
        peak = rng.uniform(1.5, 3.0)
        cruise = rng.uniform(0.3, 0.8)
        ramp, hold, brake, stand = rng.randint(6, 14), rng.randint(20, 70), rng.randint(6, 15), rng.randint(3, 12)
        regen = rng.uniform(0.5, 1.2)
        trip = [peak * (k + 1) / ramp for k in range(ramp)]                              # accelerating
        if len(c) + len(trip) + hold + brake + stand > seconds + 1:  # the last trip ends cruising
            hold = seconds + 1 - len(c) - len(trip)
        start = len(c) + len(trip)
        trip += [cruise + 0.1 * math.sin((start + k) / 7.0) for k in range(hold)]          # cruising
        if len(c) + len(trip) < seconds + 1:
            trip += [-regen * (1.0 - 0.5 * k / brake) for k in range(brake)]             # regenerative braking
            trip += [0.02] * stand                                                       # standing
        c += trip
    c = c[:seconds + 1]
    smooth = [sum(c[max(0, i - 1):i + 2]) / len(c[max(0, i - 1):i + 2]) for i in range(len(c))]
    smooth[0] = 0.0  # from rest
    # Scale the discharge so that the mean is MEAN_C (braking kept as it is).
    plus = sum(x for x in smooth if x > 0.0)
    minus = sum(x for x in smooth if x < 0.0)
    k = (MEAN_C * len(smooth) - minus) / plus
    return [x * k if x > 0.0 else x for x in smooth]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--capacity", type=float, nargs="+", default=[20.0, 50.0],
                    help="the packs' nominal capacities [A.h] (default 20 50)")
    ap.add_argument("--folder", default=os.path.dirname(os.path.abspath(__file__)),
                    help="where the files go (default: this script's folder)")
    args = ap.parse_args()
    rates = profile(SECONDS)
    for capacity in args.capacity:
        amps = [round(r * capacity, 3) for r in rates]
        path = os.path.join(args.folder, f"drive_{capacity:g}Ah.csv")
        with open(path, "w") as f:
            f.write(f"# A synthetic 20-minute drive cycle: pack current [A] at 1 s, mean {MEAN_C}C of "
                    f"{capacity:g} A.h (examples/pack_module/make_drive_cycle.py)\n")
            f.write("Time [s],Current [A]\n")
            for t, a in enumerate(amps):
                f.write(f"{t},{a:g}\n")
        mean = sum(amps) / len(amps)
        print(f"wrote {path}: {len(amps)} rows, mean {mean:.4g} A ({mean / capacity:.3g}C), "
              f"from {min(amps):g} A to {max(amps):g} A")


if __name__ == "__main__":
    main()
