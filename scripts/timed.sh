#!/usr/bin/env bash
# Runs a command, then prints how long it took and the CPU time its processes used (user + system,
# of every process it waited for), so each line of `make test` says where the run's time went.
# Usage: scripts/timed.sh NAME COMMAND [ARGS...]; exits with the command's status.
name=$1
shift
# The whole machine's busy CPU (all processes, database servers included), from /proc/stat.
busy() { awk '/^cpu / { printf "%d", ($2 + $3 + $4 + $7 + $8) }' /proc/stat; }
busy_start=$(busy)
start=$(date +%s%N)
"$@"
status=$?
elapsed=$((($(date +%s%N) - start) / 1000000))
# `times` prints the shell's own CPU, then its children's ("0m12.345s 0m1.234s"); run in this
# shell (a pipe would run it in a subshell, which has no children).
record=$(mktemp)
times >"$record"
cpu=$(tail -n 1 "$record" | awk '{ split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.0f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }')
rm -f "$record"
ticks=$(getconf CLK_TCK)
machine=$((($(busy) - busy_start) / ticks))
printf '%s: %d s, %s s of CPU in its processes, the machine busy %d s of %d (exit %d)\n' \
  "$name" $((elapsed / 1000)) "$cpu" "$machine" $((elapsed / 1000 * $(nproc))) "$status"
exit "$status"
