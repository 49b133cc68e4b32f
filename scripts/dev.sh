#!/usr/bin/env bash
# One entry point that sets up everything on a fresh machine, then runs what was asked:
#   bash scripts/dev.sh examples   # the example suites (replays committed recipes, no LLM)
#   bash scripts/dev.sh tests      # the project's own tests, in parallel (3 xdist workers per core)
#   bash scripts/dev.sh tests --fast   # the fast tier only: no browser, no process
#   bash scripts/dev.sh bench-checks   # the bench's own instruments (tests marked bench)
# Set-up: a virtual environment in .venv, this package with its test extras, and a Chromium
# (Playwright's own if installed, else a system one; Debian's `chromium` and
# `chromium-headless-shell`, which headless runs take, are installed when
# missing and we are root). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
# Python writes its bytecode caches: the suite starts many Python processes (xdist workers,
# the runs a test makes as a user would), and with PYTHONDONTWRITEBYTECODE set (some CI
# images set it) each would compile the plugin and every test module from source again.
unset PYTHONDONTWRITEBYTECODE
what="${1:-tests}"
shift || true

venv="${WEBTASK_VENV:-.venv}"
if [ ! -x "$venv/bin/python" ]; then
  echo "==> creating $venv"
  python3 -m venv "$venv"
fi
stamp="$venv/.webtask-installed"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "==> installing pytest-webtask with its test extras"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -e ".[test]"
  # MiniWoB++'s task pages for bench/miniwob.py and its tests: only the HTML is used, so
  # none of the package's own dependencies (gymnasium, Selenium, numpy) are installed
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps "miniwob==1.1.0"
  touch "$stamp"
fi

# 0: Playwright's own build or both system ones; 2: a system Chromium without its headless
# shell (which headless runs take when it is there, as Playwright does: about half the CPU
# per test); 1: none
have_chromium() {
  "$venv/bin/python" - <<'PY'
import sys
from pytest_webtask.browser import chromium as c
import os
if os.environ.get(c.ENV) or c.playwright_has_chromium() or (
        c.system_chromium() and c.system_headless_shell()):
    sys.exit(0)
sys.exit(2 if c.find_chromium(headless=False) else 1)
PY
}
found=0; have_chromium || found=$?
if [ "$found" != 0 ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "==> installing Debian's chromium and chromium-headless-shell"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-headless-shell \
      >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null \
      || true
  elif [ "$found" = 1 ]; then
    echo "==> trying: playwright install chromium"
    "$venv/bin/playwright" install chromium || true
  fi
  found=0; have_chromium || found=$?
  [ "$found" != 1 ] || { echo "No Chromium found: install one (apt-get install chromium) or set WEBTASK_CHROMIUM=/path/to/chrome" >&2; exit 1; }
fi

# Playwright records --video with an ffmpeg of its own that `playwright install` downloads
# from Playwright's servers, out of reach here: the imageio-ffmpeg package ships one (PyPI,
# no root, any OS), linked where Playwright looks (tests/pictures.py) for the video tests.
if ! "$venv/bin/python" -c "import imageio_ffmpeg" 2>/dev/null; then
  "$venv/bin/python" -m pip install -q --disable-pip-version-check "imageio-ffmpeg==0.8.1" \
    || echo "==> imageio-ffmpeg could not be installed: tests of --video will be skipped"
fi
"$venv/bin/python" -m tests.pictures

# the project's tests run in parallel unless the arguments say otherwise (-n, -p no:xdist);
# the fast tier runs in this one process (starting workers would cost more than it saves).
# Three workers per core (at most 16: each holds a browser, ~0.3 GB): a browser test spends
# much of its time waiting on the browser and on timeouts that must pass; one worker per core
# left a third of the CPU idle, two left an eighth, three keep it busy (bench/README.md, "The
# project's tests": 373 s with two per core, 338 s with three, on 2 cores). Passed as -n,
# not exported, so the runs the tests start keep xdist's own meaning of -n auto;
# PYTEST_XDIST_AUTO_NUM_WORKERS, if you set it, still chooses.
workers=$(( $(nproc 2>/dev/null || echo 1) * 3 )); [ "$workers" -le 16 ] || workers=16
workers="${PYTEST_XDIST_AUTO_NUM_WORKERS:-$workers}"
# `tests` leaves out the tests marked `bench`: they check the bench's own instruments (its
# apps' bugs and variants, its harness), not the plugin, and `bench-checks` runs them (CI runs
# both). A -m of your own comes later on the command line and wins.
tiers=(-m "not bench")
parallel=(-n "$workers" --dist loadgroup)
if [ "${1:-}" = "--fast" ]; then
  shift
  tiers=(-m "not bench and not browser and not subprocess")
  parallel=()
fi
[ "$what" != bench-checks ] || tiers=(-m bench)
for arg in "$@"; do
  case "$arg" in -n|-n*|--numprocesses*|no:xdist|-pno:xdist|--dist*) parallel=() ;; esac
done

# Node (Playwright's driver, one per browser a test or a run it starts launches: about a
# hundred in the suite) keeps the code it compiled, so each later driver starts from it
# (0.7 -> 0.6 core-s a launch, bench/README.md "The project's tests").
export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-$PWD/$venv/.node-compile-cache}"

case "$what" in
  examples) exec "$venv/bin/python" -m pytest example_suites -p no:cacheprovider "$@" ;;
  tests|bench-checks)
            exec "$venv/bin/python" -m pytest tests ${parallel[@]+"${parallel[@]}"} \
              ${tiers[@]+"${tiers[@]}"} "$@" ;;
  *) echo "usage: bash scripts/dev.sh examples|tests|bench-checks [pytest args]" >&2; exit 2 ;;
esac
