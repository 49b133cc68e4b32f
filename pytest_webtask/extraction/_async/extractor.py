"""The three phases of a list-detail extraction and their orchestration.

StrategyPlanner (phase 1) explores the page with probeClick / describeElement /
scrollAndObserve and answers with an English strategy whose selectors must all have been
verified by a tool call; generators (phase 2) write search/filter/sort fragments when the
strategy asks; RecipeGenerator (phase 3) turns it into bindings and commands, which the
RecipeExecutor runs. Every phase is written to the extraction log as it ends.
"""

from __future__ import annotations

import json
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from ...agent._async.asker import AsyncAsker
from ...agent.task_context import TaskContext
from ...browser._async.finder import AsyncFinder
from ...defaults import TIMEOUT
from ...errors import ExtractionError
from ...llm.base import LLM
from ...llm.prompts import get_prompt
from ...llm.request import Block, ModelRequest
from ...types import BindingFingerprint, Usage
from ..log import ExtractionLog, ToolCall
from ..model import Bindings, Command, ExtractionRecipe, Fragment, GeneratedRecipe, StepOfStrategy
from ..outcome import ExtractionOutcome, ExtractionRun
from ..strategy import Strategy, parse_strategy
from .executor import AsyncRecipeExecutor

OUTLINE_CHARS = 12_000


class AsyncPageTools:
    """probeClick, describeElement, scrollAndObserve: real effects, English observations."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.finder = AsyncFinder(page)
        self.verified: set[str] = set()

    async def _probe(self, probe: str, **args: Any) -> Any:
        """One of the collector's ``probe`` looks at the page."""
        return await self.finder.call({"op": "probe", "probe": probe, **args})

    async def outline(self) -> str:
        return str(await self._probe("outline", max=OUTLINE_CHARS))

    async def call(self, tool: str, args: dict[str, Any]) -> str:
        try:
            if tool == "probeClick":
                return await self.probe_click(str(args.get("selector", "")))
            if tool == "describeElement":
                return await self.describe_element(str(args.get("selector", "")))
            return await self.scroll_and_observe(str(args.get("target", "page")))
        except PlaywrightError as exc:
            return f"The tool failed: {str(exc).splitlines()[0]}"

    async def _count(self, selector: str) -> int | str:
        try:
            return await self.page.locator(selector).count()
        except PlaywrightError:
            return f"{selector!r} is not a valid CSS selector."

    async def probe_click(self, selector: str) -> str:
        count = await self._count(selector)
        if isinstance(count, str) or not count:
            return count if isinstance(count, str) else f"No element matches {selector!r}."
        self.verified.add(selector)
        url = self.page.url
        await self._probe("seen")
        target = self.page.locator(selector).filter(visible=True).first
        await target.evaluate("e => e.setAttribute('data-webtask-clicked', '')")
        await target.click(timeout=5000)
        await self.page.wait_for_load_state()
        # content loaded by fetch takes a while (a dialog may show "Loading…" first): look
        # again for up to 3 s, until what appeared has stayed the same for 500 ms
        last, same = None, 0
        for _ in range(30):
            await self.page.wait_for_timeout(100)
            if self.page.url != url:
                break
            now = await self._probe("appeared", sel=selector, keep=True)
            same = same + 1 if now and now == last else 0
            if same >= 5:
                break
            last = now
        if self.page.url != url:
            new_url = self.page.url
            seen = await self._probe("classes")
            self.verified.update(c["selector"] for c in seen)
            await self.page.go_back()
            await self.page.wait_for_load_state()
            return (f"Clicked the first of {count} matches. The page navigated to {new_url}. "
                    "VERIFIED SELECTORS ON THAT PAGE:\n"
                    + "\n".join(f"- `{c['selector']}`: {c['text']!r}" for c in seen)
                    + "\nWent back to the list.")
        appeared = await self._probe("appeared", sel=selector)
        if not appeared:
            return (f"Clicked the first of {count} matches. The URL did not change and nothing "
                    "new appeared.")
        lines = []
        for region in appeared:
            self.verified.add(region["selector"])
            if region["grew"]:
                lines.append(f"- {region['grew']} more `{region['selector']}` appeared beside "
                             f"the ones already there: the list grew (load more), e.g. "
                             f"{region['text']!r}")
                continue
            where = "inside the clicked item (inline expansion)" if region["inside"] \
                else "elsewhere on the page (a details panel or dialog)"
            lines.append(f"- `{region['selector']}` appeared {where}: {region['text']!r}")
        return (f"Clicked the first of {count} matches. The URL did not change. New content:\n"
                + "\n".join(lines))

    async def describe_element(self, selector: str) -> str:
        count = await self._count(selector)
        if isinstance(count, str):
            return count
        info = await self._probe("inspect", sel=selector)
        if info is None:
            return f"No element matches {selector!r}."
        self.verified.add(selector)
        lines = [f"{info['count']} element(s) match {selector!r} ({info['visibleCount']} "
                 f"visible). The first ({info['tag']}) contains: {info['text']!r}. It has "
                 f"{info['children']} direct children."]
        if info["content"]:
            lines.append("VERIFIED CONTENT SELECTORS:")
            for c in info["content"]:
                self.verified.add(c["selector"])
                lines.append(f"- `{c['selector']}`: {c['text']!r}")
        return "\n".join(lines)

    async def scroll_and_observe(self, target: str) -> str:
        before = await self._probe("height")
        await self.page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        await self.page.wait_for_timeout(800)
        after = await self._probe("height")
        pagination = await self._probe("pagination")
        await self.page.evaluate("window.scrollTo(0, 0)")
        grew = after["count"] > before["count"]
        text = (f"Scrolled the {target} to the bottom. "
                + (f"More content loaded: {after['count'] - before['count']} new elements "
                   "(infinite scroll)." if grew else "Nothing new loaded (no infinite scroll)."))
        if pagination:
            for p in pagination:
                self.verified.add(p["selector"])
            text += " Pagination controls: " + ", ".join(
                f"`{p['selector']}` ({p['text']!r})" for p in pagination) + "."
        else:
            text += " No pagination controls found."
        return text


async def execute_recipe(page: Page, bindings: Bindings, recipe: ExtractionRecipe, *,
                         report: ExtractionLog, max_items: int, timeout_ms: float,
                         phase_name: str = "RecipeExecutor",
                         targets: dict[str, BindingFingerprint] | None = None, record: bool = False,
                         allow_skipped: int = 0,
                         recorded_items: int | None = None) -> ExtractionOutcome:
    """Run a recipe as a phase of ``report``, which ends finished either way: items read so
    far, stop reason and error are in it even when the run fails."""
    phase = report.start_phase(phase_name)
    executor = AsyncRecipeExecutor(page, bindings, max_items=max_items, timeout_ms=timeout_ms,
                                   on_log=report.log, targets=targets, record=record,
                                   allow_skipped=allow_skipped, recorded_items=recorded_items)
    outcome = executor.out
    try:
        await executor.execute(recipe)
    except Exception as exc:
        error = str(exc) if isinstance(exc, ExtractionError) \
            else f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        _fill(report, outcome)
        report.end_phase(phase, success=False, error=error)
        report.finish(success=False, stopped_reason="error", error=error)
        raise
    _fill(report, outcome)
    report.end_phase(phase, success=True, output=f"{len(outcome.items)} items")
    report.finish(success=True, stopped_reason=outcome.stop_reason)
    return outcome


def _fill(report: ExtractionLog, outcome: ExtractionOutcome) -> None:
    report.items, report.skipped = outcome.items, outcome.skipped
    report.commands_executed = outcome.commands_executed


class AsyncExtractor:
    """Runs the three phases on ``page`` and executes the generated recipe."""

    def __init__(self, page: Page, llm: LLM, *, report: ExtractionLog | None = None,
                 max_turns: int = 12, timeout_ms: float = TIMEOUT * 1000) -> None:
        self.page = page
        self.llm = llm
        self.max_turns = max_turns
        self.timeout_ms = timeout_ms
        self.report = report or ExtractionLog(task="", source_url=page.url)
        self.usage = Usage()

    async def run(self, task: str, *, max_items: int = 20, fields: list[str] | None = None,
                  allow_skipped: int = 0) -> ExtractionRun:
        self.report.task, self.report.source_url = task, self.page.url
        self.report.save()
        asker = AsyncAsker(self.llm, TaskContext(task=task), self.usage)
        try:
            strategy, tools = await self._plan(asker, task, fields)
            fragments = await self._generate_fragments(asker, task, strategy, tools)
            generated = await self._generate_recipe(asker, task, strategy, tools, fragments,
                                                    max_items, fields)
        except Exception as exc:
            self.report.finish(success=False, stopped_reason="error", error=str(exc))
            raise
        outcome = await execute_recipe(self.page, generated.bindings, generated.recipe,
                                       report=self.report, max_items=max_items,
                                       timeout_ms=self.timeout_ms, record=True,
                                       allow_skipped=allow_skipped)
        return ExtractionRun(generated.bindings, generated.recipe, outcome, strategy,
                             self.report, self.usage)

    async def _plan(self, asker: AsyncAsker, task: str,
                    fields: list[str] | None) -> tuple[Strategy, AsyncPageTools]:
        phase = self.report.start_phase("StrategyPlanner")
        tools = AsyncPageTools(self.page)
        start_url = self.page.url
        intro = Block(f"Task: {task}\nFields wanted: {', '.join(fields or []) or 'all text'}\n"
                      f"URL: {self.page.url}\n\nPage outline (tag.class \"text\"):\n"
                      f"{await tools.outline()}")
        history: list[str] = []
        try:
            for turn in range(self.max_turns):
                context = ModelRequest(system=get_prompt("extraction/phases", "strategy_planner"),
                                  purpose="extract:strategy", task=task, step=turn + 1)
                context.append(intro)
                if history:
                    context.append(Block("Your exploration so far:\n" + "\n\n".join(history)))
                step = await asker.ask(context, StepOfStrategy, "strategy step")
                if step.tool is not None:
                    result = await tools.call(step.tool, step.parameters)
                    phase.tool_calls.append(ToolCall(step.tool, step.parameters, result))
                    self.report.save()
                    history.append(f"→ {step.tool}({json.dumps(step.parameters)})\n← {result}")
                    continue
                assert step.strategy is not None
                strategy = parse_strategy(step.strategy)
                unverified = sorted(strategy.all_selectors() - tools.verified)
                if not strategy.selectors.get("LIST_ITEM"):
                    unverified = unverified or ["(no LIST_ITEM given)"]
                if unverified:
                    history.append(
                        "← REJECTED: these selectors were not verified by any tool call: "
                        + ", ".join(f"`{s}`" for s in unverified)
                        + ". Verify them with describeElement or probeClick, or leave them out.")
                    continue
                self.report.strategy_planner_output = step.strategy
                self.report.end_phase(phase, success=True, output=step.strategy)
                return strategy, tools
            raise ExtractionError(f"The StrategyPlanner gave no strategy with verified "
                                  f"selectors in {self.max_turns} turns.")
        except Exception as exc:
            self.report.end_phase(phase, success=False, error=str(exc))
            raise
        finally:
            # leave the page as it was found: probes opened panels and expanded items
            await self.page.goto(start_url)

    async def _generate_fragments(self, asker: AsyncAsker, task: str, strategy: Strategy,
                                  tools: AsyncPageTools) -> list[Command]:
        commands: list[Command] = []
        for name in strategy.generators:
            phase = self.report.start_phase(name)
            context = ModelRequest(system=get_prompt("extraction/phases", "generator").format(
                name=name), purpose="extract:generator", task=task)
            context.append(Block(f"Task: {task}\n\nStrategy:\n{strategy.text}\n\nPage outline:\n"
                                 f"{await tools.outline()}"))
            try:
                fragment = await asker.ask(context, Fragment, f"{name} fragment")
            except Exception as exc:
                self.report.end_phase(phase, success=False, error=str(exc))
                raise
            commands += fragment.fragment
            self.report.end_phase(phase, success=True, output=json.dumps(
                [c.model_dump(exclude_none=True, by_alias=True) for c in fragment.fragment]))
        return commands

    async def _generate_recipe(self, asker: AsyncAsker, task: str, strategy: Strategy,
                               tools: AsyncPageTools, fragments: list[Command],
                               max_items: int, fields: list[str] | None) -> GeneratedRecipe:
        phase = self.report.start_phase("RecipeGenerator")
        context = ModelRequest(system=get_prompt("extraction/phases", "recipe_generator"),
                          purpose="extract:recipe", task=task)
        context.append(Block(
            f"Task: {task}\nmax_items: {max_items}\nFields: {', '.join(fields or []) or 'none'}"
            f"\n\nStrategy:\n{strategy.text}\n\nVerified selectors: "
            + ", ".join(f"`{s}`" for s in sorted(tools.verified))
            + ("\n\nThese fragment commands run first: " + json.dumps(
                [c.model_dump(exclude_none=True, by_alias=True) for c in fragments])
               if fragments else "")))
        try:
            for attempt in range(2):
                generated = await asker.ask(context, GeneratedRecipe, "recipe")
                problems = await self._check(generated.bindings, tools, fields)
                if not problems:
                    break
                if attempt == 1:
                    raise ExtractionError("The generated recipe is unusable: "
                                          + "; ".join(problems))
                context.append(Block("That recipe cannot be used: " + "; ".join(problems)
                                     + ". Reply again with a corrected recipe."))
        except Exception as exc:
            self.report.end_phase(phase, success=False, error=str(exc))
            raise
        if fragments:
            generated.recipe.commands = fragments + generated.recipe.commands
        self.report.generated_recipe = generated.recipe.model_dump(
            by_alias=True, exclude_none=True, exclude_defaults=True)
        self.report.discovered_bindings = generated.bindings.model_dump(exclude_none=True)
        self.report.end_phase(phase, success=True, output=json.dumps(
            self.report.generated_recipe))
        return generated

    async def _check(self, bindings: Bindings, tools: AsyncPageTools,
                     fields: list[str] | None) -> list[str]:
        problems = []
        for name, selector in bindings.selectors().items():
            if name == "LIST" and selector == "body":
                continue
            if selector not in tools.verified and not name.startswith("FIELDS."):
                problems.append(f"{name} {selector!r} was not verified by a tool call")
        missing = [f for f in fields or [] if f not in bindings.FIELDS]
        if missing:
            problems.append(f"FIELDS lacks {', '.join(missing)}")
        if not await self.page.locator(bindings.LIST_ITEM).count():
            problems.append(f"LIST_ITEM {bindings.LIST_ITEM!r} matches nothing on the page")
        return problems
