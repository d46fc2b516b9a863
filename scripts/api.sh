#!/usr/bin/env bash
# api.sh check  — fail if the exported API broke compatibility with the
#                 baseline in api/ (apidiff -incompatible).
# api.sh update — write a new baseline after a deliberate, released change.
set -euo pipefail
cd "$(dirname "$0")/.."
APIDIFF=golang.org/x/exp/cmd/apidiff@v0.0.0-20261113113407-e3970619a1a4
PACKAGES=(github.com/rtypeproto/rtype github.com/rtypeproto/rtype/session github.com/rtypeproto/rtype/conformance
  github.com/rtypeproto/rtype/netem github.com/rtypeproto/rtype/rtypetest github.com/rtypeproto/rtype/qlog github.com/rtypeproto/rtype/pcap github.com/rtypeproto/rtype/host
  github.com/rtypeproto/rtype/rtypefuzz)

export_name() { local p=${1#github.com/rtypeproto/}; echo "api/${p//\//_}.export"; }

case "${1:-check}" in
update)
  for p in "${PACKAGES[@]}"; do
    go list "$p" >/dev/null 2>&1 || continue
    go run "$APIDIFF" -w "$(export_name "$p")" "$p"
    echo "wrote $(export_name "$p")"
  done
  ;;
check)
  tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
  status=0
  for p in "${PACKAGES[@]}"; do
    base=$(export_name "$p")
    [ -f "$base" ] || { echo "$p: no baseline $base (scripts/api.sh update writes it)"; status=1; continue; }
    go run "$APIDIFF" -w "$tmp/new.export" "$p"
    report=$(go run "$APIDIFF" -incompatible "$base" "$tmp/new.export")
    if [ -n "$report" ]; then
      echo "$p: incompatible API changes:"; echo "$report"; status=1
    else
      echo "$p: compatible"
    fi
  done
  exit $status
  ;;
*) echo "usage: scripts/api.sh check|update" >&2; exit 2 ;;
esac
