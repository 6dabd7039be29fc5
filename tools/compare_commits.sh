#!/usr/bin/env bash
# Times the working tree (head) against earlier commits (bases) with the same
# benchmarks, all built on the machine that runs them, and prints a table of
# ratios (tools/compare_table.py). Used for "no silent slowdowns": a change to
# solver/, linalg/ or kernels/ is timed against the commit before it.
#
#   tools/compare_commits.sh prepare [BASE...]  # here: each BASE's tree into .compare/base-SHA (git-ignored; none: a check of head)
#   tools/compare_commits.sh build            # there: every voltaic-bench binary (CUDA when nvcc is found)
#   tools/compare_commits.sh check            # there: head's tests (TESTS, a gtest filter; SANITIZE=1: memcheck too)
#   tools/compare_commits.sh run [ROUNDS]     # there: the workloads, every side in turn (ROUNDS: rounds of each)
#   tools/compare_commits.sh all [ROUNDS]     # build, check (with TESTS), then run
#   tools/compare_commits.sh pack [SIDE=DIR]  # here, after build: the binaries, stripped, as .compare/bin.tar.xz
#
# On the GPU machine (the device tool), carry .compare and .deps (toml++,
# tools/gpu_check.sh says how) and run `tools/compare_commits.sh all` in one
# call, or build and run in two calls that follow each other while the machine
# is warm (the builds are under build/, which stays; carry only the
# .compare/*.commit files in the second call: a carried .compare replaces it).
# Results: $OUT/compare.jsonl (one line per run: side, commit, workload,
# command, the benchmark's JSON) and $OUT/compare.md (the table); the build
# logs: $OUT/build-SIDE.log.
# Prebuilt: a build on the device costs minutes of a session's 30 (ptxas of
# the two cell-program kernels; before b35a030 also 9 minutes of the CPU
# program's flattened advance_on_cpu). Instead, build here (nvcc
# compiles for sm_90 without a GPU): `prepare BASE`, `TESTS=... build`, `pack`
# (about 25 MB a side), then carry [".compare", ".deps"] and run `check` and
# `run` there: no compile on the device. run/check take .compare/bin/SIDE's
# binaries when they are there, build/compare-SIDE's otherwise.
# WORKLOADS picks workloads by name (default: every one below; without a GPU,
# the CPU ones). TESTS (a gtest filter, e.g. 'CellProgramCuda*:SlopesCudaVsCpu*')
# also builds head's voltaic_tests and runs them before the workloads, so one
# device call checks a change and times it: $OUT/tests.log, and with SANITIZE=1
# $OUT/memcheck.log (compute-sanitizer memcheck over the same filter).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
out="${OUT:-$root/out}"

# name|backend|rounds|voltaic-bench arguments (the issue's four rows, docs/performance.md
# "Headline figures"). The one-core CPU run varies by up to several times
# from run to run on the GPU machine's virtual cores: it takes the most rounds.
workloads=(
  "1d_cpu|cpu|6|step --backend cpu --repeat 21 --warmup 3"
  "sweep_100k|cuda|1|sweep --backend cuda --cells 100000 --baseline-cells 0"
  "pouch_1m|cuda|1|step --backend cuda --parameters marquis2019 --collectors potential-pair --thermal conduction --nx 130 --ny 130 --cells 20 --shells 10 --repeat 2 --warmup 1"
  "stack_1m|cuda|1|step --backend cuda --nx 130 --ny 130 --cells 20 --shells 10 --repeat 2 --warmup 1"
)

deps_env() {
  if [ -d "$root/.deps/usr" ]; then
    export CMAKE_PREFIX_PATH="$root/.deps/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
    export LD_LIBRARY_PATH="$root/.deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  fi
}

prepare() {
  rm -rf .compare
  mkdir -p .compare  # no BASE: head alone, for a check (TESTS)
  for base in "$@"; do
    local sha
    sha=$(git rev-parse --verify "$base^{commit}")
    local dir=".compare/base-${sha:0:7}"
    mkdir -p "$dir"
    git archive "$sha" | tar -x -C "$dir"
    rm -rf "$dir/tests/data" "$dir/docs/data"  # a base builds only voltaic-bench: keep the carry small
    echo "$sha" >"$dir.commit"
    echo "base ${sha:0:7} in $dir"
  done
  { git rev-parse HEAD | tr -d '\n'; git diff --quiet HEAD -- . || printf '+changes'; echo; } >.compare/head.commit
  grep -qxF '/.compare/' .git/info/exclude 2>/dev/null || echo '/.compare/' >>.git/info/exclude
  echo "head $(cat .compare/head.commit)"
  echo "on the GPU machine: carry [\".compare\", \".deps\"] and run: tools/compare_commits.sh all"
}

build_one() {  # source dir, build dir, jobs, [tests: ON to build voltaic_tests too]
  local cuda=OFF tests="${4:-OFF}" targets=(voltaic-bench)
  command -v nvcc >/dev/null && cuda=ON
  [ "$tests" = ON ] && targets+=(voltaic_tests)
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DVOLTAIC_CUDA=$cuda \
    -DVOLTAIC_BUILD_TESTS="$tests" -DVOLTAIC_BUILD_EXAMPLES=OFF -DVOLTAIC_MPI=OFF -DVOLTAIC_BUILD_BENCHMARKS=ON &&
    cmake --build "$2" --target "${targets[@]}" -j "$3"
}

sides() {  # every prepared base, then head
  for d in .compare/base-*.commit; do [ -e "$d" ] && basename "$d" .commit; done
  echo head
}

binary() {  # the voltaic-bench of a side: packed (carried), else built
  # build/ is kept between warm device calls; .compare is replaced by each carry.
  if [ -x ".compare/bin/$1/voltaic-bench" ]; then echo ".compare/bin/$1/voltaic-bench"; else echo "build/compare-$1/benchmarks/voltaic-bench"; fi
}

tests_binary() {  # head's voltaic_tests: packed, else built
  if [ -x .compare/bin/head/voltaic_tests ]; then echo .compare/bin/head/voltaic_tests; else echo build/compare-head/tests/voltaic_tests; fi
}

pack_side() {  # side, build dir: its binaries, stripped, into .compare/bin/SIDE
  local to=".compare/bin/$1"
  [ -x "$2/benchmarks/voltaic-bench" ] || { echo "no $2/benchmarks/voltaic-bench: build first" >&2; exit 2; }
  mkdir -p "$to"
  strip -o "$to/voltaic-bench" "$2/benchmarks/voltaic-bench"
  if [ "$1" = head ] && [ -x "$2/tests/voltaic_tests" ]; then strip -o "$to/voltaic_tests" "$2/tests/voltaic_tests"; fi
}

pack() {  # [SIDE=BUILD_DIR...]: binaries as .compare/bin.tar.xz (none given: every side from build/compare-SIDE)
  [ -f .compare/bin.tar.xz ] && [ ! -d .compare/bin ] && tar -xJf .compare/bin.tar.xz -C .compare
  if [ $# = 0 ]; then
    local side
    for side in $(sides); do pack_side "$side" "build/compare-$side"; done
  else
    local pair
    for pair in "$@"; do pack_side "${pair%%=*}" "${pair#*=}"; done
  fi
  # xz: about 4x smaller (28 MB -> 7 MB a bench), under the device tool's 64 MiB carry.
  tar -cJf .compare/bin.tar.xz -C .compare bin && rm -rf .compare/bin
  ls -la .compare/bin.tar.xz
}

unpack() {  # a carried pack, once
  [ -f .compare/bin.tar.xz ] && [ ! -d .compare/bin ] && tar -xJf .compare/bin.tar.xz -C .compare
  return 0
}

build() {
  deps_env
  local all
  mapfile -t all < <(sides)
  # Head alone is a check (TESTS set); a timing needs a base.
  [ ${#all[@]} -ge 2 ] || [ -n "${TESTS:-}" ] ||
    { echo "no base in .compare: run 'tools/compare_commits.sh prepare BASE' here first (or set TESTS to check head alone)" >&2; exit 2; }
  mkdir -p "$out"
  local jobs=$(( ($(nproc) + ${#all[@]} - 1) / ${#all[@]} )) t0=$SECONDS pids=() side
  for side in "${all[@]}"; do
    local src=".compare/$side" dir tests=OFF
    dir="build/compare-$side"
    [ "$side" = head ] && src=. && [ -n "${TESTS:-}" ] && tests=ON
    build_one "$src" "$dir" "$jobs" "$tests" >"$out/build-$side.log" 2>&1 &
    pids+=($!)
  done
  local failed=0 i
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || { echo "build of ${all[$i]} failed:" >&2; tail -20 "$out/build-${all[$i]}.log" >&2; failed=1; }
  done
  [ $failed = 0 ] || exit 1
  echo "built ${all[*]} in $((SECONDS - t0)) s"
}

check() {  # head's tests over the filter TESTS (nothing without it); SANITIZE=1 adds memcheck
  [ -n "${TESTS:-}" ] || return 0
  deps_env
  unpack
  mkdir -p "$out"
  local tests
  tests=$(tests_binary)
  [ -x "$tests" ] || { echo "no $tests: build with TESTS set" >&2; exit 2; }
  local rc=0
  "$tests" --gtest_brief=1 --gtest_filter="$TESTS" >"$out/tests.log" 2>&1 || rc=$?
  if grep -q '^\[==========\] 0 tests' "$out/tests.log"; then  # a mistyped filter must not pass
    echo "TESTS matched no test: $TESTS" | tee -a "$out/tests.log" >&2
    rc=3
  fi
  echo "tests ($TESTS): exit $rc" | tee -a "$out/tests.log"
  if [ "${SANITIZE:-0}" = 1 ] && command -v compute-sanitizer >/dev/null; then
    local mrc=0
    compute-sanitizer --tool memcheck --error-exitcode 9 "$tests" --gtest_brief=1 --gtest_filter="$TESTS" \
      >"$out/memcheck.log" 2>&1 || mrc=$?
    echo "memcheck ($TESTS): exit $mrc" | tee -a "$out/tests.log"
    [ $mrc = 0 ] || rc=$mrc
  fi
  return $rc
}

run() {  # [ROUNDS]: every workload this many times (default: its own count)
  deps_env
  unpack
  local rounds_override="${1:-}" gpu=0
  command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 && gpu=1
  mkdir -p "$out"
  local jsonl="$out/compare.jsonl"
  : >"$jsonl"
  # One core for the CPU runs, away from core 0 (interrupts), the same for both sides.
  local core=$(( $(nproc) > 2 ? 2 : 0 ))
  for w in "${workloads[@]}"; do
    local name backend rounds args
    IFS='|' read -r name backend rounds args <<<"$w"
    [[ -n "${WORKLOADS:-}" && " $WORKLOADS " != *" $name "* ]] && continue
    [[ "$backend" == cuda && $gpu == 0 ]] && continue
    rounds="${rounds_override:-$rounds}"
    for ((round = 0; round < rounds; ++round)); do
      # The sides in turn, reversed in odd rounds (drift cancels over two rounds).
      local order
      mapfile -t order < <(sides)
      ((round % 2)) && mapfile -t order < <(sides | tac)
      for side in "${order[@]}"; do
        local bin commit
        bin=$(binary "$side")
        commit=$(cat ".compare/$side.commit")
        local pin=()
        [[ "$backend" == cpu ]] && command -v taskset >/dev/null && pin=(taskset -c "$core")
        echo "== $name $side ($commit)" >&2
        # shellcheck disable=SC2086
        local json
        json=$("${pin[@]}" "$bin" $args --json 2>>"$out/compare.err") || { echo "$name $side failed" >&2; continue; }
        python3 -c 'import json,sys; print(json.dumps({"side": sys.argv[1], "commit": sys.argv[2], "workload": sys.argv[3], "round": int(sys.argv[4]), "command": sys.argv[5], "result": json.loads(sys.stdin.read())}))' \
          "$side" "$commit" "$name" "$round" "voltaic-bench $args" <<<"$json" >>"$jsonl"
      done
    done
  done
  python3 tools/compare_table.py "$jsonl" | tee "$out/compare.md"
}

case "${1:-}" in
  prepare) prepare "${@:2}" ;;
  build) build ;;
  pack) pack "${@:2}" ;;
  check) check ;;
  run) run "${2:-}" ;;
  all) build && { check || echo "head's tests failed (\$OUT/tests.log); timing anyway" >&2; } && run "${2:-}" ;;
  *) sed -n '2,20p' "$0"; exit 2 ;;
esac
