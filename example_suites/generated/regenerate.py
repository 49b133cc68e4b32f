"""Write the generated suite again: ``python -m example_suites.generated.regenerate``.

Starts the demo shop, runs ``webtask explore`` on it with the scripted explorer (no model)
and then ``webtask generate``, which records every test with ``scripted_recorder`` and replays it
with ``CI=true`` before keeping it. Run it from the repository's root.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from example_suites.demo_shop import DemoShop
from example_suites.generated.conftest import DEMO_PASSWORD
from pytest_webtask.explore.cli import main

HERE = Path(__file__).parent


def regenerate() -> int:
    os.environ.setdefault(*DEMO_PASSWORD)
    with DemoShop(seed=7) as shop:
        return main(["explore", shop.url + "/", "--plan", str(HERE / "webtask-plan.md"),
                     "--out", str(HERE / "test_demo_shop.py"), "--force",
                     "--title", "Test plan: the demo shop",
                     "--llm", "pytest_webtask.testing:scripted_explorer",
                     "--var", "email=ada@example.com", "--secret", "password",
                     # the shop is a local test app: its cart and checkout may be written
                     "--allow-writes"])


if __name__ == "__main__":
    sys.exit(regenerate())
