#!/usr/bin/env bash
# The checks before the suites: lint, typecheck and build run at once (none writes what another
# reads: the build writes pwa/dist and dist/ only), then the bundle budget on the fresh build. Each one's
# output is printed whole when it ends; the first failure fails the run.
set -uo pipefail
cd "$(dirname "$0")/.."
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
declare -A pids=()
for step in lint typecheck build; do
  npm run --silent "$step" >"$out/$step.log" 2>&1 &
  pids[$step]=$!
done
failed=0
for step in lint typecheck build; do
  if wait "${pids[$step]}"; then status=passed; else status=FAILED; failed=1; fi
  echo "── npm run $step: $status"
  cat "$out/$step.log"
done
[ "$failed" -eq 0 ] || exit 1
npm run build:check
