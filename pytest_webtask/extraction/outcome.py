"""What an extraction produced, and the failures it handles itself (one class each, shared
by the async core and its sync twin)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..types import BindingFingerprint, Usage
from .log import ExtractionLog
from .model import Bindings, ExtractionRecipe
from .strategy import Strategy


class ItemFailed(Exception):
    """One item could not be extracted; the others go on, and the step fails at the end
    unless the test allows skipped items."""


class BindingMissing(Exception):
    """No element fits the binding: its CSS and its fingerprint's candidates all failed."""

    def __init__(self, key: str, css: str, tried: list[str],
                 target: BindingFingerprint | None) -> None:
        self.key, self.css, self.tried, self.target = key, css, tried, target
        what = f" (recorded as {target.summary()})" if target else ""
        super().__init__(f"the {key} binding {css!r}{what} finds nothing: " + "; ".join(tried))


@dataclass
class ExtractionOutcome:
    items: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)
    stop_reason: str = "complete"  # complete | max_items | error
    commands_executed: int = 0
    logs: list[str] = field(default_factory=list)
    targets: dict[str, BindingFingerprint] = field(default_factory=dict)  # binding fingerprints


@dataclass
class ExtractionRun:
    """What a recording produced: the recipe and bindings to store, and the items."""

    bindings: Bindings
    recipe: ExtractionRecipe
    outcome: ExtractionOutcome
    strategy: Strategy
    report: ExtractionLog
    usage: Usage = field(default_factory=Usage)
