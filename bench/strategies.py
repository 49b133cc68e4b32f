"""LLM calls and prompt characters per completed task: single-call proposer vs. planner.

    .venv/bin/python bench/strategies.py

Both strategies run the same three demo-shop flows with ScriptedLLM replies that take the
same path through the site (the same actions in the same order). The counts are what each
strategy's *structure* costs for that path: a real model may choose other paths.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from example_suites.demo_shop import DemoShop  # noqa: E402
from pytest_webtask import Agent, PlanAgent  # noqa: E402
from pytest_webtask.browser.chromium import launch_args  # noqa: E402
from pytest_webtask.llm.request import ModelRequest  # noqa: E402
from pytest_webtask.testing import ScriptedLLM  # noqa: E402


def act(tool: str, **args: Any) -> dict:
    return {"reason": tool, "tool": tool, "parameters": args}


def inv(tool: str, **args: Any) -> dict:
    return {"tool": tool, "args": args, "reasoning": tool}


# Each flow: start path, task, variables, the step-strategy replies, the plan-strategy replies.
FLOWS: list[dict[str, Any]] = [
    {
        "name": "add to cart", "start": "/",
        "task": "add the Blue Oxford Shirt in size M to the cart", "vars": {},
        "step": [
            {"complete": False, "message": "add", "actions": [
                act("select", element_id="select-3", value="M"),
                act("click", element_id="button-4")]},
            {"complete": True, "message": "done", "evidence": ["Blue Oxford Shirt", "Size M"]},
        ],
        "plans": [
            {"steps": [{"action": "size M", "tool": "select"}, {"action": "add", "tool": "click"},
                       {"action": "finish", "tool": "done"}]},
            {"steps": [{"action": "finish", "tool": "done"}]},
        ],
        "invocations": [inv("select", element_id="select-3", value="M"),
                        inv("click", element_id="button-4"),
                        inv("done", evidence=["Blue Oxford Shirt", "Size M"])],
    },
    {
        "name": "search", "start": "/", "task": "search for linen", "vars": {},
        "step": [
            {"complete": False, "message": "search", "actions": [
                act("fill", element_id="input-0", value="linen"),
                act("click", element_id="button-0")]},
            {"complete": True, "message": "done", "evidence": ["2 products"]},
        ],
        "plans": [
            {"steps": [{"action": "type linen", "tool": "fill"},
                       {"action": "apply", "tool": "click"}, {"action": "finish", "tool": "done"}]},
            {"steps": [{"action": "finish", "tool": "done"}]},  # Apply navigated: replan
        ],
        "invocations": [inv("fill", element_id="input-0", value="linen"),
                        inv("click", element_id="button-0"), inv("done", evidence=["2 products"])],
    },
    {
        "name": "sign in", "start": "/signin", "task": "sign in as {email}",
        "vars": {"email": "ada@example.com"},
        "step": [
            {"complete": False, "message": "sign in", "actions": [
                act("fill", element_id="input-0", value="{email}"),
                act("fill", element_id="input-1", value="lovelace-1815"),
                act("click", element_id="button-0")]},
            {"complete": True, "message": "done", "evidence": ["Signed in as Ada"]},
        ],
        "plans": [
            {"steps": [{"action": "email", "tool": "fill"}, {"action": "password", "tool": "fill"},
                       {"action": "sign in", "tool": "click"}]},
            {"steps": [{"action": "finish", "tool": "done"}]},
        ],
        "invocations": [inv("fill", element_id="input-0", value="{email}"),
                        inv("fill", element_id="input-1", value="lovelace-1815"),
                        inv("click", element_id="button-0"),
                        inv("done", evidence=["Signed in as Ada"])],
    },
]


def plan_llm(flow: dict[str, Any]) -> ScriptedLLM:
    plans, steps = list(flow["plans"]), list(flow["invocations"])

    def reply(context: ModelRequest) -> Any:
        planning = context.system.startswith("You are a concise web task planner")
        return (plans if planning else steps).pop(0)
    return ScriptedLLM(reply)


def main() -> None:
    rows = ["| flow | strategy | completed | LLM calls | prompt characters |",
            "| --- | --- | --- | ---: | ---: |"]
    totals = {"step": [0, 0], "plan": [0, 0]}
    with DemoShop() as shop, sync_playwright() as p:
        browser = p.chromium.launch(**launch_args())
        for flow in FLOWS:
            for strategy in ("step", "plan"):
                context = browser.new_context()
                page = context.new_page()
                page.goto(shop.url + flow["start"])
                if strategy == "step":
                    llm = ScriptedLLM(flow["step"])
                    result = Agent(page, llm).execute(flow["task"], variables=flow["vars"])
                else:
                    llm = plan_llm(flow)
                    result = PlanAgent(page, llm).execute(flow["task"], variables=flow["vars"])
                chars = sum(len(c.prompt) for c in llm.calls)
                totals[strategy][0] += len(llm.calls)
                totals[strategy][1] += chars
                rows.append(f"| {flow['name']} | {strategy} | {result.completed} | "
                            f"{len(llm.calls)} | {chars:,} |")
                context.close()
        browser.close()
    for strategy, (calls, chars) in totals.items():
        rows.append(f"| all three | {strategy} | | {calls} | {chars:,} |")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
