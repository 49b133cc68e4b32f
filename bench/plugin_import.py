"""What loading the plugin costs every pytest process (every xdist worker too).

Times, in fresh interpreters, ``import pytest`` alone (the floor), ``import
pytest_webtask.plugin`` (what pytest's entry point loads), and the eager import of everything
the plugin loaded before it became lazy (the agent twins, ``openai``, Playwright's APIs,
the recipe models): the baseline. Runs alternate; medians are reported with the ratio
plugin/eager, so machine noise falls on all alike.

    .venv/bin/python bench/plugin_import.py [--repeat 15]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

FLOOR = "import pytest"
PLUGIN = "import pytest, pytest_webtask.plugin"
# pytest-playwright imports Playwright's sync API in every process anyway
WITH_PW = "import pytest, playwright.sync_api, pytest_webtask.plugin"
EAGER = ("import pytest, pytest_webtask.plugin, pytest_webtask.agent._sync.agent, "
         "pytest_webtask.agent._async.agent, pytest_webtask.agent._sync.plan_agent, "
         "pytest_webtask.agent._async.plan_agent, pytest_webtask.llm.openai_llm, "
         "pytest_webtask.steps._sync.webtask, pytest_webtask.steps._async.webtask")


def seconds(code: str) -> float:
    """Wall time of the import inside a fresh interpreter (interpreter start excluded)."""
    timer = f"import time; t = time.perf_counter(); {code}; print(time.perf_counter() - t)"
    out = subprocess.run([sys.executable, "-c", timer], capture_output=True, text=True,
                         check=True).stdout
    return float(out.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    runs: dict[str, list[float]] = {"floor": [], "plugin": [], "with_pw": [], "eager": []}
    seconds(EAGER)  # warm the file cache
    for _ in range(args.repeat):
        for name, code in (("floor", FLOOR), ("plugin", PLUGIN), ("with_pw", WITH_PW),
                           ("eager", EAGER)):
            runs[name].append(seconds(code) * 1000)
    med = {name: statistics.median(values) for name, values in runs.items()}
    print("| import | median ms |")
    print("| --- | ---: |")
    print(f"| pytest alone | {med['floor']:.0f} |")
    print(f"| pytest + pytest_webtask.plugin | {med['plugin']:.0f} |")
    print(f"| pytest + Playwright's sync API + the plugin | {med['with_pw']:.0f} |")
    print(f"| pytest + everything, eagerly (the old plugin) | {med['eager']:.0f} |")
    print(f"\nplugin's own cost: {med['plugin'] - med['floor']:.0f} ms; before: "
          f"{med['eager'] - med['floor']:.0f} ms; ratio plugin/eager "
          f"{(med['plugin'] - med['floor']) / (med['eager'] - med['floor']):.2f}; with "
          f"Playwright loaded anyway (pytest-playwright does), the plugin saves "
          f"{med['eager'] - med['with_pw']:.0f} ms per process")


if __name__ == "__main__":
    main()
