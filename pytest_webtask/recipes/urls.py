"""URLs in recipes: stored relative to the base URL when under it, resolved again on replay."""

from __future__ import annotations

from urllib.parse import parse_qsl, urljoin, urlsplit

from ..browser.origins import origin_of


def relative_url(url: str, base_url: str | None) -> str:
    """``url`` as an origin-relative path (path, query, fragment) when under ``base_url``: the
    same origin (scheme, host, port) and a path under the base's path at a ``/`` boundary
    (``/app`` holds ``/app/cart``, not ``/application``). Otherwise ``url`` unchanged.
    The path stays whole, so ``absolute_url`` resolves it back to the same URL."""
    if not base_url:
        return url
    target, base = urlsplit(url), urlsplit(base_url)
    if not target.scheme or origin_of(url) != origin_of(base_url):
        return url
    prefix = base.path.rstrip("/")
    path = target.path or "/"
    if prefix and path != prefix and not path.startswith(prefix + "/"):
        return url
    return path + (f"?{target.query}" if target.query else "") + \
        (f"#{target.fragment}" if target.fragment else "")


def absolute_url(url: str, base_url: str | None, current: str) -> str:
    return urljoin(base_url or current, url) if not urlsplit(url).scheme else url


def url_change(start_url: str, final_url: str) -> tuple[str | None, dict[str, str]] | None:
    """(path, query parameters that are new or changed) when the step changed the URL."""
    start, end = urlsplit(start_url), urlsplit(final_url)
    if (start.path, start.query) == (end.path, end.query):
        return None
    before = dict(parse_qsl(start.query, keep_blank_values=True))
    changed = {k: v for k, v in parse_qsl(end.query, keep_blank_values=True)
               if before.get(k) != v}
    return end.path, changed
