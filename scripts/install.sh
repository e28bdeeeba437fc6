#!/usr/bin/env bash
# Installs everything classeval-pro needs on a fresh machine, from the project's own files:
#   - bubblewrap and faketime (Debian packages) for the validation sandbox, when running as root and missing;
#   - with --dev, chromium (Debian package) so that the report test can open report.html in a headless browser;
#   - a virtualenv in .venv with the project and its Inspect AI task (and, with --dev, its test tools) installed in
#     editable mode, on the
#     newest CPython 3.11 or later the machine has (python3.N on the PATH, pyenv's versions folder, python3), or
#     on the interpreter named by PYTHON=...: the pipeline reads code with its own interpreter's `ast`, so a newer
#     one parses newer syntax (3.12's type parameter lists, 3.13's type parameter defaults).
# Safe to run again: each step is skipped or is a no-op when already done (an existing .venv is kept as it is;
# remove it to move to another interpreter).
set -euo pipefail
cd "$(dirname "$0")/.."

# The inspect extra by default, so that `.venv/bin/inspect eval classeval_pro` works after this script alone
# (the dev extra includes it).
extras="[inspect]"
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

# The newest CPython >= 3.11 that runs. pyenv's shims refuse a version pyenv has not selected, so its
# versions folder is searched directly; a candidate that fails to run is skipped.
newest_python() {
  local best="" best_version=0 candidate version
  local root candidates=(python3 python3.11 python3.12 python3.13 python3.14)
  root=$(pyenv root 2>/dev/null || echo "${PYENV_ROOT:-$HOME/.pyenv}")
  candidates+=("$root"/versions/*/bin/python3)  # an unmatched pattern stays literal, fails to run, is skipped
  for candidate in "${candidates[@]}"; do
    version=$("$candidate" -c 'import sys; print(sys.version_info[0] * 100 + sys.version_info[1] if sys.implementation.name == "cpython" and sys.version_info.releaselevel == "final" else 0)' 2>/dev/null) || continue
    if [ "$version" -ge 311 ] && [ "$version" -gt "$best_version" ]; then
      best="$candidate" best_version="$version"
    fi
  done
  [ -n "$best" ] || { echo "error: no CPython 3.11 or later found (set PYTHON=/path/to/python3)" >&2; return 1; }
  echo "$best"
}

if [ ! -x .venv/bin/python ]; then
  python="${PYTHON:-$(newest_python)}"
  echo "creating .venv with $("$python" -c 'import sys; print(sys.executable, sys.version.split()[0])')" >&2
  "$python" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".${extras}"
