"""Errors meant for people: each says what failed and what to do about it."""

from __future__ import annotations

from typing import Any


class WebtaskError(Exception):
    """Base class of every error pytest-webtask raises on purpose.

    The pytest plugin reports these as a plain failure message, without a traceback
    from inside the package.
    """


class ConfigurationError(WebtaskError):
    """A setting is missing or wrong (no model configured, bad option value)."""


class LLMError(WebtaskError):
    """The model endpoint failed: HTTP error, timeout, or an unusable reply.

    ``usage``: what the failed call used before it failed (a ``types.Usage``: its
    ``seconds``, ``timeouts`` and ``refusals``), or None when the model did not say; whoever
    counts model use adds it as it adds a reply's. (Typed ``Any``: this module sits beside
    ``types.py``, not above it.)
    """

    def __init__(self, *args: object, usage: Any = None) -> None:
        super().__init__(*args)
        self.usage = usage


class ProposalError(WebtaskError):
    """The model's reply could not be understood, even after asking again."""


class BrowserError(WebtaskError):
    """The page could not be read or acted upon."""


class UnknownElementError(BrowserError):
    """The model named an element id that the current page state does not have."""


class RecipeError(WebtaskError):
    """A recipe file is unreadable, invalid, or of an unknown version."""


class ReplayError(WebtaskError):
    """A recipe step no longer holds: an element is missing, ambiguous or changed, or a
    recorded outcome is not on the page."""


class ExtractionError(WebtaskError):
    """The extraction cannot go on, or did not read every item it should have."""


class ElementError(ReplayError):
    """A recorded action's element is missing, ambiguous or no longer matches its
    fingerprint: the page drifted, which a verified heal may follow. ``index`` is the
    action's place in its step (0-based); the actions before it were performed."""

    def __init__(self, message: str, index: int = 0) -> None:
        super().__init__(message)
        self.index = index


class CheckFailed(ReplayError):
    """A recorded check does not hold: the outcome under test changed. Never healed."""


class PictureMismatch(CheckFailed):
    """A visual check whose region no longer looks as its baseline: ``pictures`` holds the
    PNGs to look at, ``expected``, ``actual`` and ``diff`` (``diff`` absent when the sizes
    differ)."""

    def __init__(self, message: str, pictures: dict[str, bytes]) -> None:
        super().__init__(message)
        self.pictures = pictures
        self.check_index: int | None = None  # the check's place in its step (0-based)
