"""What an OpenAI-compatible server says about itself outside a chat request: the context
window it gives a model. A question that may go unanswered: never an error, never long."""

from __future__ import annotations

import json
import logging
import urllib.request
from typing import Any

log = logging.getLogger(__name__)

WINDOW_TIMEOUT = 2.0  # seconds for each question


def ask_context_window(base_url: str, model: str, key: str) -> int | None:
    """The context size, in tokens, the server at ``base_url`` gives ``model``: llama.cpp's
    ``/props`` (``default_generation_settings.n_ctx``, or a top-level ``n_ctx``), else the
    ``/v1/models`` entry of ``model`` (or the only entry): ``meta.n_ctx``,
    ``meta.n_ctx_train`` (llama.cpp), ``max_model_len`` (vLLM). None when the server does not
    say (OpenAI, Ollama), does not answer within ``WINDOW_TIMEOUT``, or fails."""
    try:
        root = base_url.rstrip("/")
        server = root[:-3] if root.endswith("/v1") else root
        props, hung = _get_json(server + "/props", key)
        if isinstance(props, dict):
            for holder in (props.get("default_generation_settings"), props):
                size = _size(holder, "n_ctx")
                if size:
                    return size
        if hung:  # a server that did not answer once is not asked again
            return None
        models, _ = _get_json(root + "/models", key)
        data = models.get("data") if isinstance(models, dict) else None
        entries = [m for m in data if isinstance(m, dict)] if isinstance(data, list) else []
        mine = [m for m in entries if m.get("id") == model] or \
            (entries if len(entries) == 1 else [])
        for entry in mine:
            meta = entry.get("meta")
            for holder, name in ((meta, "n_ctx"), (meta, "n_ctx_train"),
                                 (entry, "max_model_len"), (entry, "n_ctx")):
                size = _size(holder, name)
                if size:
                    return size
    except Exception:  # noqa: BLE001 - a question that may go unanswered, never a failure
        log.debug("no context window from %s", base_url, exc_info=True)
    return None


def _get_json(url: str, key: str) -> tuple[Any, bool]:
    """GET ``url`` with a short wait: its JSON body or None, and whether the server hung."""
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {key}"})
    try:
        with urllib.request.urlopen(request, timeout=WINDOW_TIMEOUT) as response:  # noqa: S310
            return json.loads(response.read(1_000_000)), False
    except Exception as exc:  # noqa: BLE001 - an unknown page, a refusal: nothing to learn
        hung = isinstance(exc, TimeoutError) or isinstance(
            getattr(exc, "reason", None), TimeoutError)
        return None, hung


def _size(holder: Any, key: str) -> int | None:
    value = holder.get(key) if isinstance(holder, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 \
        else None
