"""What the bench's apps share: bugs and a benign variant switched by name, and ``main()``.

Each app (``library``, ``ordinary``) is a :class:`VariantApp`: its ``mutants`` are the
regressions its ``mutants.MUTANTS`` names, its ``benign`` variant ``wrap`` wraps containers in
two more ``<div>``s and renames every class and the stylesheet's path, leaving the visible text
as it was. Both default to the app's environment variables, so a replay run picks them up.
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Iterable

from pytest_webtask.testing import LoopbackApp

CLASSES = re.compile(r"(?<![\w-])\.([a-z][a-z-]*[a-z])")  # a class name in a stylesheet


def parse_names(value: str, known: Iterable[str], env: str, what: str) -> set[str]:
    """Names from an environment value (comma-separated); unknown names raise."""
    known = tuple(known)
    names = {n.strip() for n in value.split(",") if n.strip()}
    unknown = sorted(names - set(known))
    if unknown:
        raise ValueError(f"unknown {what} value(s) {', '.join(unknown)} in {env}; "
                         f"known: {', '.join(known)}")
    return names


class VariantApp(LoopbackApp):
    """An app with bugs (``mutants``) and benign variants switched by name.

    A subclass names its ``MUTANTS``, its environment variables (``ENV``, ``BENIGN_ENV``),
    the class prefix of its ``wrap`` variant, its ``STYLE`` and both stylesheet paths.
    """

    WHAT = "app"
    MUTANTS: dict[str, str] = {}
    BENIGN: tuple[str, ...] = ("wrap",)
    ENV = ""
    BENIGN_ENV = ""
    PREFIX = "v2"
    STYLE = ""
    STYLESHEETS = ("/static/app.css", "/assets/v2/app.css")  # as it is, wrapped

    def __init__(self, mutants: set[str] | None = None, benign: set[str] | None = None) -> None:
        super().__init__()
        if mutants is None:
            mutants = parse_names(os.environ.get(self.ENV, ""), self.MUTANTS, self.ENV,
                                  self.WHAT)
        if benign is None:
            benign = parse_names(os.environ.get(self.BENIGN_ENV, ""), self.BENIGN,
                                 self.BENIGN_ENV, self.WHAT)
        unknown = (set(mutants) - self.MUTANTS.keys()) | (set(benign) - set(self.BENIGN))
        if unknown:
            raise ValueError(f"unknown mutant or variant(s): {', '.join(sorted(unknown))}")
        self.mutants: set[str] = set(mutants)
        self.benign: set[str] = set(benign)

    def bug(self, name: str) -> bool:
        assert name in self.MUTANTS, name
        return name in self.mutants

    @property
    def wrapped(self) -> bool:
        return "wrap" in self.benign

    def cls(self, names: str) -> str:
        """Class names as this variant spells them (``wrap``: a new naming scheme)."""
        if not self.wrapped:
            return names
        return " ".join(f"{self.PREFIX}_{n.replace('-', '_')}" for n in names.split())

    def wrap(self, markup: str, name: str) -> str:
        """``wrap``: a container inside two more ``<div>``s, as a redesign's layout grid does."""
        if not self.wrapped:
            return markup
        outer, inner = self.cls(name + "-outer"), self.cls(name + "-inner")
        return f'<div class="{outer}"><div class="{inner}">{markup}</div></div>'

    @property
    def stylesheet(self) -> str:
        return self.STYLESHEETS[self.wrapped]

    def css(self) -> str:
        return CLASSES.sub(lambda m: "." + self.cls(m.group(1)), self.STYLE) if self.wrapped \
            else self.STYLE

    @classmethod
    def main(cls, prog: str, title: str, port: int, port_env: str = "") -> None:
        """Serve the app on 127.0.0.1 until Ctrl-C (``python -m bench.apps.<name>``)."""
        ap = argparse.ArgumentParser(
            prog=prog, description=f"Serve {title} on 127.0.0.1 ({cls.ENV}, {cls.BENIGN_ENV} "
                                   f"switch bugs and variants).")
        default = int(os.environ.get(port_env, port)) if port_env else port
        ap.add_argument("--port", type=int, default=default,
                        help=f"the port (default {'$' + port_env + ' or ' if port_env else ''}"
                             f"{port}; 0: a free one)")
        args = ap.parse_args()
        cls().serve_until_interrupted(title, args.port, ap)
