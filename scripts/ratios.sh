#!/bin/sh
# The gate against drift (docs/performance.md): the ratio benchmarks, each
# the median of -count runs, against their bounds; exits 1 when one is over.
#   scripts/ratios.sh              5 runs of each
#   scripts/ratios.sh -count 9     a steadier median
set -eu
cd "$(dirname "$0")/.."
exec go run ./scripts/ratios "$@"
