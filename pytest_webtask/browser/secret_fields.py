"""In-page scripts that keep secrets out of pixels: hide a field before a secret is typed
into it, mark what shows one (for a screenshot's ``mask``), or scrub it before the page is
photographed by other fixtures."""

from __future__ import annotations

from importlib import resources

SECRET_ATTR = "data-webtask-secret"
SECRET_FIELDS_JS = resources.files("pytest_webtask.browser").joinpath(
    "secret_fields.js").read_text(encoding="utf-8")

# Run on a field BEFORE a secret is typed into it: from then on it renders every character
# as a disc, so no frame of a trace's screencast or a video, and no screenshot, ever shows
# the value, not even while it is being typed. An inline !important declaration wins over
# the page's own stylesheets; the attribute keeps the field masked in the page state.
HIDE_FIELD_JS = f"""el => {{
  el.setAttribute('{SECRET_ATTR}', '');
  el.style.setProperty('-webkit-text-security', 'disc', 'important');
}}"""
