#!/bin/sh
# Passes voltaic's progress lines (stdin) through to stdout and runs COMMAND
# once, when the first line containing PATTERN arrives: the CLI tests use it
# to signal a run, or start a second one, at a known point of the run.
#   voltaic run ... | on_progress.sh PATTERN COMMAND [ARGS...]
pattern=$1
shift
done=no
while IFS= read -r line; do
  printf '%s\n' "$line"
  case $line in
    *"$pattern"*)
      if [ $done = no ]; then
        done=yes
        "$@"
      fi
      ;;
  esac
done
[ $done = yes ] || echo "on_progress.sh: '$pattern' never came"
