#!/usr/bin/env bash
# Runs the libFuzzer targets of tests/fuzz (docs/fuzzing.md).
#
#   tools/fuzz.sh TARGET [SECONDS]   fuzz TARGET for SECONDS (default 600; 0: replay the corpus only);
#                                    TARGET: config, experiment, bpx, expression, drive_cycle, checkpoint or all
#   tools/fuzz.sh --keep-going TARGET [SECONDS]  the same, but a finding does not stop the run
#                                    (libFuzzer's -fork=1): to see how many distinct ones there are
#   tools/fuzz.sh --merge TARGET RUN  add to the committed corpus the inputs of a run's corpus that
#                                    reach code it does not (libFuzzer's -merge=1: minimal additions)
#   tools/fuzz.sh --smoke            build the fuzz preset and run its CTests: every target over its
#                                    corpus, then 20 s of fuzzing (what CI runs)
#
# A run works in build/fuzz/runs/TARGET-TIME/: a copy of the committed corpus
# (tests/data/fuzz/TARGET), which is the only corpus libFuzzer adds to, a
# findings/ folder for crash-*, leak-*, timeout-* and oom-* inputs, and log.txt. The
# committed corpus changes only through --merge. Exit status: 0 without a
# finding. VOLTAIC_FUZZ_BIN_DIR names the folder of the fuzz binaries (CTest
# sets it); otherwise the fuzz preset is configured and built first.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
targets=(config sweep experiment bpx expression drive_cycle checkpoint)

usage() {
  sed -n '4,12p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

bin_dir() {
  if [ -n "${VOLTAIC_FUZZ_BIN_DIR:-}" ]; then
    echo "$VOLTAIC_FUZZ_BIN_DIR"
    return
  fi
  [ -f build/fuzz/build.ninja ] || cmake --preset fuzz >&2
  cmake --build --preset fuzz >&2
  echo "$root/build/fuzz/tests/fuzz"
}

# libFuzzer options a target needs beyond the common ones: the longest
# input worth trying (a few times the largest seed) and its dictionary.
target_options() {
  local max_len
  case "$1" in
    config) max_len=16384 ;;
    sweep) max_len=16384 ;;
    experiment) max_len=256 ;;
    bpx) max_len=65536 ;;
    expression) max_len=2048 ;;
    drive_cycle) max_len=16384 ;;
    checkpoint) max_len=16384 ;;
    *) echo "fuzz: unknown target '$1'; allowed: ${targets[*]} or all" >&2; exit 2 ;;
  esac
  echo "-max_len=$max_len"
  local dict="$root/tests/data/fuzz/$1.dict"
  [ -f "$dict" ] && echo "-dict=$dict"
  return 0
}

# Sanitizer settings: every report stops the run with the input kept.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

fuzz_one() {
  local target=$1 seconds=$2 bin=$3
  local options
  options=$(target_options "$target")
  # Leak suppressions name functions inside system libraries (libhdf5), built
  # without frame pointers: only the slow unwinder sees those frames.
  local asan="$ASAN_OPTIONS" lsan=""
  local suppressions="$root/tests/fuzz/${target}_leaks.supp"
  if [ -f "$suppressions" ]; then
    asan="$asan:fast_unwind_on_malloc=0"
    lsan="suppressions=$suppressions:print_suppressions=0"
  fi
  local run
  run="$root/build/fuzz/runs/$target-$(date +%Y%m%d-%H%M%S)-$$"
  mkdir -p "$run/corpus" "$run/findings"
  cp -r "$root/tests/data/fuzz/$target/." "$run/corpus/"
  # 0 seconds: replay the corpus only (-max_total_time=0 would mean no limit).
  local budget="-max_total_time=$seconds"
  [ "$seconds" -eq 0 ] && budget="-runs=0"
  [ "$keep_going" -eq 1 ] && budget="$budget -fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1"
  local started=$SECONDS
  # shellcheck disable=SC2086  # $options and $budget are lists of single-word options
  ASAN_OPTIONS="$asan" LSAN_OPTIONS="$lsan" "$bin/fuzz_$target" "$run/corpus" $options $budget -timeout=10 -rss_limit_mb=2048 \
    -use_value_profile=1 -print_final_stats=1 -artifact_prefix="$run/findings/" >"$run/log.txt" 2>&1 && status=0 || status=$?
  local runs cov
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$run/log.txt")
  # Without final stats (a crash, or -fork): the last status line's count.
  [ -n "$runs" ] || runs=$(grep -o '^#[0-9]*' "$run/log.txt" | tail -1 | tr -d '#')
  cov=$(grep -o 'cov: [0-9]* ft: [0-9]* corp: [0-9/]*[0-9a-zA-Z]*' "$run/log.txt" | tail -1)
  local line="fuzz $target: $((SECONDS - started)) of ${seconds} s, ${runs:-?} runs, ${cov:-no coverage line}"
  local found
  found=$(find "$run/findings" -type f | wc -l)
  if [ "$status" -eq 0 ] && [ "$found" -eq 0 ]; then
    echo "$line, no finding ($run)" | tee -a "$root/build/fuzz/runs/summary.txt"
    return 0
  fi
  echo "$line: $found finding(s) (exit $status)" | tee -a "$root/build/fuzz/runs/summary.txt"
  grep -E 'ERROR: |SUMMARY: |fuzz finding: |runtime error: |terminate called|what\(\)' "$run/log.txt" | head -20 >&2 || true
  for f in "$run"/findings/*; do
    [ -e "$f" ] && echo "  input: $f (reproduce: $bin/fuzz_$target $f)" >&2
  done
  echo "  log: $run/log.txt" >&2
  return 1
}

keep_going=0
if [ "${1:-}" = --keep-going ]; then
  keep_going=1
  shift
fi
case "${1:-}" in
  "" | -h | --help) usage ;;
  --smoke)
    [ -f build/fuzz/build.ninja ] || cmake --preset fuzz
    cmake --build --preset fuzz
    ctest --preset fuzz -j "$(nproc)"
    ;;
  --merge)
    [ $# -eq 3 ] || usage
    target_options "$2" >/dev/null
    bin=$(bin_dir)
    "$bin/fuzz_$2" -merge=1 "$root/tests/data/fuzz/$2" "$3/corpus" "$(target_options "$2" | grep max_len)"
    echo "fuzz: tests/data/fuzz/$2 now holds $(find "tests/data/fuzz/$2" -type f | wc -l) inputs; review and commit them"
    ;;
  *)
    seconds=${2:-600}
    [[ "$seconds" =~ ^[0-9]+$ ]] || usage
    if [ "$1" = all ]; then
      set -- "${targets[@]}"
    else
      target_options "$1" >/dev/null
      set -- "$1"
    fi
    bin=$(bin_dir)
    mkdir -p build/fuzz/runs
    failed=0
    for t in "$@"; do fuzz_one "$t" "$seconds" "$bin" || failed=1; done
    exit "$failed"
    ;;
esac
