"""Serve the demo shop until Ctrl-C: ``python -m example_suites.demo_shop [--port 8800]``
(from a clone of the repository): a real web shop to record a first test against."""

from __future__ import annotations

import argparse

from .app import DemoShop


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m example_suites.demo_shop",
                                     description="Serve the demo shop on 127.0.0.1.")
    parser.add_argument("--port", type=int, default=8800, help="port (default 8800; 0: any)")
    args = parser.parse_args(argv)
    DemoShop(seed=3).serve_until_interrupted("Demo shop", args.port, parser)


if __name__ == "__main__":
    main()
