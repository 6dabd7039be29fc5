# shellcheck shell=bash disable=SC2154  # voltaic, mpiexec, extra, pouch, work: set by the sourcing script
# Sourced by the scripts that send a signal to one MPI rank (ranks_signal.sh,
# ranks_killed.sh). They set voltaic, mpiexec, extra (zero or more flags),
# pouch and work before sourcing it.

# Skips the test (77) where the launcher is not Open MPI: no rank can be told apart.
# shellcheck disable=SC2016,SC2086  # the rank is the launched shell's; extra holds zero or more flags
if [ "$("$mpiexec" -n 1 $extra sh -c 'echo ${OMPI_COMM_WORLD_RANK:-none}')" = none ]; then
  echo "not OpenMPI (no OMPI_COMM_WORLD_RANK): no rank can be told apart"
  exit 77
fi

# $work/long.toml: the pouch for about 16 s on two ranks of the CPU (6,000
# steps of 0.2 s; the signal comes after 3 s, and a slow machine must not
# finish first; a GPU would).
sed -e 's/^steps = .*/steps = ["Rest for 1 s", "Discharge at 0.5C for 20 minutes"]/' \
  -e 's/^\[solver\]/[solver]\nmax_dt = 0.2/' "$pouch" >"$work/long.toml"

# run_and_send NAME SIGNAL BOUND COMMAND...: starts COMMAND on 2 ranks, each
# rank's pid in $work/NAME.pid.RANK, sends SIGNAL to rank 1 once it has run
# 3 s, fails unless the job ends within BOUND seconds, and leaves its exit
# status in $work/NAME.rc (stdout in NAME.out, stderr alone in NAME.log:
# mpirun interleaves the two).
run_and_send() {
  local name=$1 signal=$2 bound=$3
  shift 3
  # shellcheck disable=SC2086
  "$mpiexec" -n 2 $extra sh -c "echo \$\$ >\"$work/$name.pid.\$OMPI_COMM_WORLD_RANK\"; exec \"\$0\" \"\$@\"" "$@" \
    >"$work/$name.out" 2>"$work/$name.log" &
  local launcher=$!
  for _ in $(seq 600); do  # rank 1's pid, then 3 s of its run
    [ -s "$work/$name.pid.1" ] && break
    sleep 0.1
  done
  test -s "$work/$name.pid.1" || { echo "$name: rank 1 did not start in 60 s"; exit 1; }
  sleep 3
  kill -"$signal" "$(cat "$work/$name.pid.1")"
  local rc=0
  timeout "$bound" tail --pid="$launcher" -f /dev/null ||
    { echo "$name: still running $bound s after SIG$signal to rank 1"; exit 1; }
  wait "$launcher" || rc=$?
  echo "$rc" >"$work/$name.rc"
}
