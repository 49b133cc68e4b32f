"""A pydantic model's JSON schema, made once per model class.

pydantic builds a schema afresh on every ``model_json_schema()`` call (about 2 ms for a
tool's parameters), and the agent needs every tool's on every step: the tools shown in the
prompt, the reply schema sent with the request. Each caller gets its own copy, free to
change.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from pydantic import BaseModel


@lru_cache(maxsize=1024)
def _made(model: type[BaseModel]) -> str:
    return json.dumps(model.model_json_schema())


def json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """``model.model_json_schema()``, a fresh copy of the one made for this class."""
    result: dict[str, Any] = json.loads(_made(model))
    return result
