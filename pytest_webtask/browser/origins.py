"""The origin rule: which URLs the agent's browser may reach while it records."""

from __future__ import annotations

from urllib.parse import urlsplit

# Schemes a page uses for itself; never a request to another server.
LOCAL_SCHEMES = ("about", "data", "blob")


_DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_of(url: str) -> str:
    """``scheme://host[:port]``, lower case, the scheme's default port left out (so
    ``http://Shop.test:80/x`` and ``http://shop.test`` have one origin)."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme == "file":
        return "file://"
    try:
        port = parts.port
    except ValueError:  # a malformed port: compare as written
        return f"{scheme}://{parts.netloc}".lower()
    host = (parts.hostname or "").lower()
    if ":" in host:  # IPv6
        host = f"[{host}]"
    shown = f":{port}" if port is not None and port != _DEFAULT_PORTS.get(scheme) else ""
    return f"{scheme}://{host}{shown}"


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
