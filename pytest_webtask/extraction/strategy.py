"""Reading the StrategyPlanner's English strategy: its verified selectors and generators."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_SELECTOR = re.compile(r"`([^`]+)`")
_GENERATORS = ("FilterGenerator", "SortGenerator", "SearchGenerator")


@dataclass
class Strategy:
    text: str
    selectors: dict[str, list[str]] = field(default_factory=dict)
    generators: list[str] = field(default_factory=list)

    def all_selectors(self) -> set[str]:
        return {s for values in self.selectors.values() for s in values}


def parse_strategy(text: str) -> Strategy:
    """Selectors listed under ``### VERIFIED SELECTORS`` (``- NAME: `sel``` and indented
    ``- `sel``` lines), and generators named on the NEEDED GENERATORS line."""
    strategy = Strategy(text=text)
    section = re.search(r"###\s*VERIFIED SELECTORS(.*?)(?:\n###|\Z)", text, re.S)
    current = None
    for line in (section.group(1) if section else "").splitlines():
        head = re.match(r"\s*-\s*([A-Z_]+)\s*:(.*)", line)
        if head:
            current = head.group(1)
            strategy.selectors.setdefault(current, []).extend(_SELECTOR.findall(head.group(2)))
        elif current and line.strip().startswith("-"):
            strategy.selectors[current].extend(_SELECTOR.findall(line))
    needed = re.search(r"NEEDED GENERATORS:(.*)", text)
    if needed:
        strategy.generators = [g for g in _GENERATORS if g in needed.group(1)]
    return strategy
