#!/usr/bin/env bash
# Installs everything classeval-pro needs on a fresh machine, from the project's own files:
#   - bubblewrap and faketime (Debian packages) for the validation sandbox, when running as root and missing;
#   - with --dev, chromium (Debian package) so that the report test can open report.html in a headless browser;
#   - a virtualenv in .venv with the project (and, with --dev, its test tools) installed in editable mode.
# Safe to run again: each step is skipped or is a no-op when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

extras=""
[ "${1:-}" = "--dev" ] && extras="[dev]"

need=()
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
[ -e /usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1 ] || [ -e /usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1 ] || need+=(faketime)
[ -n "$extras" ] && ! command -v chromium >/dev/null 2>&1 && need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "note: ${need[*]} not installed (needs root and apt-get); the sandbox will run with fewer protections" >&2
  fi
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".${extras}"
