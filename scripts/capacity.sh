#!/bin/sh
# Capacity of the multi-match host on one core, side by side with the
# floor of its system calls (docs/performance.md). Linux, two cores, taskset.
#   scripts/capacity.sh                            N = 50 … 1000, 20 s each
#   scripts/capacity.sh -matches 10 -duration 5s   a quick check
#   scripts/capacity.sh -markdown                  the table for the docs
#   scripts/capacity.sh -runs 3                    each row's median of 3
set -eu
cd "$(dirname "$0")/.."
exec go run ./scripts/capacity "$@"
