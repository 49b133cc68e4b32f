"""Characters per answer of ``webtask mcp`` on one scripted recording (issue 74, item 7).

The README's quick start recorded through the MCP SDK's stdio client, as tests/test_mcp.py
does it, by a scripted agent (rules that read the answers, not a model) on the demo shop in
a real Chromium: open_test, an act on an id the page does not have, the act that adds the
shirt, read_page, a done whose claim does not hold, the do step's done, the check step's
done. Every reply is well-formed, so the same session runs on any version of the server.

    .venv/bin/python -m bench.mcp_answers [DIR]      # a JSON line per answer, then totals;
                                                     # DIR: each answer's text written there

Run it from a checkout: the server is ``python -m pytest_webtask mcp`` of the python running
this, in a fresh project folder.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

STEPS = [{"goto": "/"}, {"do": "add the Blue Oxford Shirt in size M to the cart"},
         {"check": "the cart total is $39.00"}]


def _page(text: str) -> str:
    return text.split("=== MODEL REQUEST", 1)[-1].split("=== YOUR ANSWERS", 1)[0]


def in_item(text: str, title: str, pattern: str) -> str:
    items = re.split(r"\n\s*- article-\d+", _page(text))
    item = next(i for i in items if f'"{title}"' in i)
    for line in item.splitlines():
        if re.search(pattern, line) and (found := re.search(r"- ([a-z0-9]+-\d+)\b", line)):
            return found[1]
    raise AssertionError(f"no line matches {pattern!r}")


async def session(project: Path, base_url: str, out: list[tuple[str, str]]) -> None:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    env = {k: v for k, v in os.environ.items() if k != "CI"
           and not k.startswith(("WEBTASK_", "OPENAI_", "PYTEST_"))}
    params = StdioServerParameters(command=sys.executable, args=["-m", "pytest_webtask", "mcp"],
                                   cwd=project, env=env)
    async with Client(params) as client:
        async def call(tool: str, **arguments: Any) -> str:
            result = await client.call_tool(tool, arguments)
            text = "\n".join(getattr(c, "text", "") for c in result.content)
            out.append((tool, text))
            return text

        first = await call("open_test", test_file="tests/test_shop.py",
                           test_name="test_add_to_cart", base_url=base_url, steps=STEPS)
        size = in_item(first, "Blue Oxford Shirt", r"- select-")
        add = in_item(first, "Blue Oxford Shirt", r'- button-\d+ "Add to cart"')
        await call("act", message="Adding the shirt", actions=[
            {"tool": "click", "parameters": {"element_id": "button-99"}, "reason": "Add it"}])
        await call("act", message="Choosing the size, then adding the shirt", actions=[
            {"tool": "select", "parameters": {"element_id": size, "value": "M"},
             "reason": "Choose size M"},
            {"tool": "click", "parameters": {"element_id": add}, "reason": "Add the shirt"}])
        await call("read_page")
        await call("done", message="The cart holds the shirt in size XL", evidence=["Size XL"])
        await call("done", message="The cart holds the Blue Oxford Shirt in size M",
                   evidence=["Blue Oxford Shirt", "Size M"])
        end = await call("done", message="The cart total is $39.00",
                         evidence=["Total: $39.00"])
        assert end.startswith("Recorded"), end


def main() -> int:
    from example_suites.demo_shop import DemoShop

    with tempfile.TemporaryDirectory() as folder, DemoShop(seed=3) as shop:
        project = Path(folder)
        (project / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
        answers: list[tuple[str, str]] = []
        try:
            asyncio.run(session(project, shop.url, answers))
        finally:
            _report(answers)
    return 0


def _report(answers: list[tuple[str, str]]) -> None:
    dump = Path(sys.argv[1]) if len(sys.argv) > 1 else None
    for n, (tool, text) in enumerate(answers, 1):
        if dump is not None:
            dump.mkdir(parents=True, exist_ok=True)
            (dump / f"{n:02d}-{tool}.txt").write_text(text, encoding="utf-8")
        print(json.dumps({"call": n, "tool": tool, "chars": len(text)}))
    sizes = [len(t) for _, t in answers]
    print(json.dumps({"answers": len(sizes), "total": sum(sizes),
                      "mean": round(sum(sizes) / max(len(sizes), 1))}))


if __name__ == "__main__":
    raise SystemExit(main())
