"""In-page script that keeps secrets out of pixels: mark what shows one (for a screenshot's
``mask``), or scrub it before the page is photographed by other fixtures."""

from __future__ import annotations

from importlib import resources

SECRET_ATTR = "data-webtask-secret"
SECRET_FIELDS_JS = resources.files("pytest_webtask.browser").joinpath(
    "secret_fields.js").read_text(encoding="utf-8")
