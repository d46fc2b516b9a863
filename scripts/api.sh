#!/usr/bin/env bash
# api.sh check  — fail if the exported API broke compatibility with the
#                 baseline in api/*.txt: a line of it no longer given.
# api.sh update — rewrite the baselines after a deliberate change.
# Both run scripts/api, which lists each package's API as text.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-check}" in
check | update) exec go run ./scripts/api "${1:-check}" ;;
*) echo "usage: scripts/api.sh check|update" >&2; exit 2 ;;
esac
