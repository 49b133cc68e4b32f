"""The origin rule: which URLs the agent's browser may reach while it records."""

from __future__ import annotations

from urllib.parse import urlsplit

# Schemes a page uses for itself; never a request to another server.
LOCAL_SCHEMES = ("about", "data", "blob")


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme == "file":
        return "file://"
    return f"{parts.scheme}://{parts.netloc}".lower()


def allowed(url: str, origins: list[str] | None) -> bool:
    """Is ``url`` within one of ``origins``? ``None`` (or ``"*"`` among them) allows any
    http(s) URL; ``file:`` URLs only when ``"file://"`` is listed."""
    scheme = urlsplit(url).scheme
    if scheme in LOCAL_SCHEMES:
        return True
    if scheme not in ("http", "https", "file"):
        return False
    if origins is None or "*" in origins:
        return scheme != "file"
    return origin_of(url) in {origin_of(o) if "://" in o else o.lower() for o in origins}


def default_origins(start_url: str) -> list[str] | None:
    """The standalone agent's default: the start page's origin (None from a blank page)."""
    scheme = urlsplit(start_url).scheme
    return [origin_of(start_url)] if scheme in ("http", "https", "file") else None
