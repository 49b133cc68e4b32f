"""One task on the demo shop with a real model, every reply printed: for reading what a model
does with the prompt (a debugging aid beside bench/recording.py, which gives the figures).

    python -m bench.agent_trace "search the products for linen" [--path /] [--check]
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from playwright.sync_api import sync_playwright

from example_suites.demo_shop import DemoShop
from pytest_webtask import Agent, OpenAILLM
from pytest_webtask.browser.chromium import launch_args
from pytest_webtask.llm.base import BaseLLM, LLMReply
from pytest_webtask.llm.prompts import get_prompt
from pytest_webtask.llm.request import ModelRequest


class Traced(BaseLLM):
    """The model, its prompts' ends and its replies printed as they come."""

    def __init__(self, llm: OpenAILLM, show_prompt: bool, dump: str | None = None) -> None:
        self.llm = llm
        self.dump = dump
        self.n = 0
        self.show_prompt = show_prompt
        self.supports_images = False
        self.max_tokens = llm.max_tokens

    def context_window(self) -> int | None:
        return self.llm.context_window()

    def generate(self, context: ModelRequest) -> LLMReply:
        if self.show_prompt:
            print("----- prompt (end) -----\n" + context.user_text[-2500:])
        self.n += 1
        if self.dump:
            with open(f"{self.dump}/request-{self.n}.json", "w") as f:
                json.dump({"system": context.system, "user": context.user_text,
                           "schema": context.response_schema}, f)
        t0 = time.monotonic()
        reply = self.llm.generate(context)
        print(f"----- reply ({time.monotonic() - t0:.1f}s, {reply.usage.prompt_tokens} prompt "
              f"tokens) -----\n{reply.text}", flush=True)
        return reply


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("task")
    ap.add_argument("--path", default="/")
    ap.add_argument("--check", action="store_true", help="the task is a check's statement")
    ap.add_argument("--max-steps", type=int, default=6)
    ap.add_argument("--prompts", action="store_true", help="print each prompt's end too")
    ap.add_argument("--dump", help="write each request (system, user, schema) to this folder")
    a = ap.parse_args(argv)
    task = (get_prompt("agent/proposer", "check_task").format(statement=a.task) if a.check
            else a.task)
    llm = Traced(OpenAILLM.from_env(), a.prompts, a.dump)
    with DemoShop(seed=7) as shop, sync_playwright() as pw:
        browser = pw.chromium.launch(**launch_args())
        page = browser.new_page()
        page.goto(shop.url + a.path)
        result = Agent(page, llm, require_evidence=True).execute(task, max_steps=a.max_steps)
        print(json.dumps({"completed": result.completed, "message": result.message,
                          "calls": result.usage.calls, "seconds": round(result.usage.seconds)}))
        browser.close()
    return 0 if result.completed else 1


if __name__ == "__main__":
    sys.exit(main())
