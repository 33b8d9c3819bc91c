#!/usr/bin/env bash
# Runs a command and prints, on stderr, its wall and the CPU the whole machine spent meanwhile
# (/proc/stat: every process, Chromium's renderers included — bash's `times` and /usr/bin/time miss
# the processes the browser leaves to init). Meaningful on a machine that runs nothing else.
#   scripts/machine-cpu.sh node --test --test-global-setup=test/global-setup.ts "test/sandbox/*.test.ts"
# Without a command it prints the machine's busy CPU seconds since boot (.ci/run reads it before
# and after npm test).
set -u
hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
busy() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9}' /proc/stat; }
if [ $# -eq 0 ]; then
  awk -v t="$(busy)" -v hz="$hz" 'BEGIN { printf "%.2f\n", t / hz }'
  exit 0
fi
b0=$(busy); t0=$(date +%s.%N)
"$@"; rc=$?
b1=$(busy); t1=$(date +%s.%N)
awk -v rc="$rc" -v t0="$t0" -v t1="$t1" -v c="$(( b1 - b0 ))" -v hz="$hz" 'BEGIN { printf "machine-cpu: exit %d, %.1f s of wall, %.1f s of the machine\x27s CPU\n", rc, t1 - t0, c / hz }' >&2
exit "$rc"
