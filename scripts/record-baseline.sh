#!/usr/bin/env bash
# Records the baseline of this machine's GPU into baselines/<device-key>.json.
# Thin wrapper: all arguments go to 'compare.py record' (see its --help), e.g.
#   scripts/record-baseline.sh --bench build/bench --benchmark_filter=reduction
set -euo pipefail
exec /usr/bin/python3 "$(dirname "$0")/compare.py" record "$@"
