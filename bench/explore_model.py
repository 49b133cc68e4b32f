"""``webtask explore`` then ``webtask generate`` on the demo shop with the model the
environment names (``WEBTASK_MODEL``, ``OPENAI_BASE_URL``...): the figures of issue 39's
"the real model explores". Default budgets, as a user runs it; writes are allowed (the shop is
a local test app whose cart and checkout post), the sign-in's password is a named secret.

    python -m bench.explore_model --out /tmp/explore-local

Prints and writes (``summary.json`` in ``--out``): seconds, model calls and tokens of the
exploration (from its own summary line), pages in the site map, flows in the plan, tests
generate kept (recorded, then replayed with CI=true) and left out, with the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from example_suites.demo_shop import DemoShop
from example_suites.generated.conftest import DEMO_PASSWORD


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True, help="folder for the plan and tests")
    ap.add_argument("--no-generate", action="store_true", help="explore only")
    opts = ap.parse_args()
    if not os.environ.get("WEBTASK_MODEL"):
        sys.exit("No model: set WEBTASK_MODEL and OPENAI_BASE_URL (docs/models.md).")
    out: Path = opts.out
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, DEMO_PASSWORD[0]: DEMO_PASSWORD[1]}
    plan, tests = out / "webtask-plan.md", out / "test_demo_shop.py"
    figures: dict[str, object] = {"model": os.environ["WEBTASK_MODEL"],
                                  "base_url": os.environ.get("OPENAI_BASE_URL", ""),
                                  "load_start": os.getloadavg()}
    with DemoShop(seed=7) as shop:
        args = [sys.executable, "-m", "pytest_webtask", "explore", shop.url + "/",
                "--plan", str(plan), "--var", "email=ada@example.com",
                "--secret", "password", "--allow-writes"]
        if not opts.no_generate:
            args += ["--out", str(tests), "--force"]
        t0 = time.perf_counter()
        run = subprocess.run(args, env=env, capture_output=True, text=True, cwd=out)
        figures["seconds"] = round(time.perf_counter() - t0, 1)
        figures["exit"] = run.returncode
    (out / "explore.log").write_text(run.stdout + "\n--- stderr ---\n" + run.stderr)
    figures["load_end"] = os.getloadavg()
    text = plan.read_text() if plan.exists() else ""
    head, _, sitemap = text.partition("\n## Site map")
    figures["flows"] = len(re.findall(r"^## ", head, flags=re.M))
    figures["flows_not_tried"] = head.count("Not tried while exploring")
    figures["pages"] = len(re.findall(r"^### ", sitemap, flags=re.M))
    code = tests.read_text() if tests.exists() else ""
    figures["tests_kept"] = len(re.findall(r"^def test_", code, flags=re.M))
    figures["last_lines"] = (run.stdout + run.stderr).strip().splitlines()[-8:]
    (out / "summary.json").write_text(json.dumps(figures, indent=1))
    print(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
