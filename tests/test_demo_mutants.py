"""The demo shop's mutants and the mutation bench's bookkeeping (bench/mutants.py)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from bench.mutants import Run, matching, outcomes, report, verdict
from example_suites.demo_shop import DemoShop
from example_suites.demo_shop.mutants import MUTANTS, parse

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "example_suites/demo_shop/app.py"


def test_every_mutant_changes_the_shop() -> None:
    """A mutant the app never asks about would survive every suite and prove nothing."""
    asked = set(re.findall(r'self\.bug\("(\w+)"\)', APP.read_text(encoding="utf-8")))
    assert set(MUTANTS) == asked
    assert len(MUTANTS) >= 25
    assert sum(m.issue17 for m in MUTANTS.values()) >= 3


def test_covering_tests_exist() -> None:
    for name, mutant in MUTANTS.items():
        assert mutant.covered_by, f"{name} names no covering test"
        for entry in mutant.covered_by:
            file, test = entry.split("::")
            tree = ast.parse((ROOT / "example_suites" / file).read_text(encoding="utf-8"))
            defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
            assert test in defined, f"{name}: {entry} is not a test"


def test_unknown_mutant_is_refused_with_the_known_names() -> None:
    with pytest.raises(ValueError, match=r"unknown demo shop mutant\(s\) sort_wrong in "
                                         r"WEBTASK_DEMO_MUTANT; known: sort_reversed, "):
        parse("sort_wrong, sort_reversed")
    assert parse(" sort_reversed,,lost_session ") == {"sort_reversed", "lost_session"}
    assert parse("") == set()
    with pytest.raises(ValueError, match="unknown mutant"):
        DemoShop(mutants={"nope"})


def test_a_mutant_changes_only_its_behaviour() -> None:
    clean, mutated = DemoShop(), DemoShop(mutants={"sort_reversed"})
    query = {"sort": "price_desc"}
    assert [p.name for p in clean.visible_products(query)][:2] == \
        ["Green Field Jacket", "Navy Rain Jacket"]
    assert [p.name for p in mutated.visible_products(query)][:2] == \
        ["Wool Beanie", "Canvas Tote Bag"]
    assert [p.name for p in mutated.visible_products({})] == \
        [p.name for p in clean.visible_products({})]


JUNIT = """<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest">
<testcase classname="example_suites.test_browse" name="test_filter_and_sort[chromium]"/>
<testcase classname="example_suites.test_order" name="test_cheapest_first[chromium]">
  <skipped message="needs recipes recorded with typed checks"/></testcase>
<testcase classname="example_suites.test_order" name="test_jackets_most_expensive_first[chromium]">
  <skipped message="needs recipes"/></testcase>
<testcase classname="example_suites.test_checkout" name="test_checkout_validation[chromium]">
  <failure message="Replay failed."/></testcase>
</testsuite></testsuites>"""


def test_bench_tells_killed_covered_pending_and_flaky(tmp_path: Path) -> None:
    junit = tmp_path / "junit.xml"
    junit.write_text(JUNIT, encoding="utf-8")
    found = outcomes(junit)
    assert found["test_browse.py::test_filter_and_sort[chromium]"] == "passed"
    assert found["test_order.py::test_cheapest_first[chromium]"] == "skipped"
    assert matching("test_order.py::test_cheapest_first", found) == \
        {"test_order.py::test_cheapest_first[chromium]": "skipped"}

    passing = {t: "passed" if o == "failed" else o for t, o in found.items()}
    survived = verdict(Run("sort_reversed", 0, 1.0, passing))  # a covering test passed
    assert (survived.killed, survived.coverage) == (False, "covered")
    pending = verdict(Run("sort_ignored", 0, 1.0, passing))  # its only test is not recorded
    assert (pending.killed, pending.coverage) == (False, "pending")
    killed = verdict(Run("validation_skipped", 1, 1.0, found))
    assert killed.killed and killed.killed_by == ["test_checkout.py::test_checkout_validation"
                                                  "[chromium]"]
    crashed = verdict(Run("lost_session", 4, 1.0, {}, tail="ERROR: usage"))
    assert not crashed.killed and crashed.error == "ERROR: usage"

    text, figures = report([survived, pending, killed, crashed],
                           [Run("", 0, 1.0, passing), Run("", 1, 1.0, found)])
    assert figures["killed"] == 1 and figures["covered"] == 2 and figures["pending"] == 1
    assert figures["flaky_runs"] == 1  # one failed test makes a clean run flaky
    assert figures["flaky_failures"] == ["test_checkout.py::test_checkout_validation[chromium]"]
    assert text.startswith("Mutants killed: 1/4 (25%); covered mutants killed: 1/2 (50%)")
    assert "| `sort_reversed` | price sorts run" in text
    assert "| **no** | - | covered | test_filter_and_sort (passed), test_jackets_most_expensive_" \
        "first (skipped), test_cheapest_first (skipped) |" in text
    assert "| yes | test_checkout_validation | covered |" in text
    assert "Survivors: `sort_reversed` (covered), `sort_ignored` (pending)" in text
