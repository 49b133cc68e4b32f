"""Python source for the strings of an exported test: a recipe's ``{name}`` placeholders
become the test's parameters (variables) and locals read from the environment (secrets)."""

from __future__ import annotations

import re

PLACEHOLDER = re.compile(r"\{(\w+)\}")


class Strings:
    """Turns recorded text into a Python expression: a plain literal, or an f-string whose
    fields are the names the test binds (``names`` maps a placeholder to its local name)."""

    def __init__(self, names: dict[str, str]) -> None:
        self.names = names

    def expr(self, text: str) -> str:
        parts: list[tuple[bool, str]] = []
        at = 0
        for m in PLACEHOLDER.finditer(text):
            if m.group(1) not in self.names:
                continue
            parts.append((False, text[at:m.start()]))
            parts.append((True, self.names[m.group(1)]))
            at = m.end()
        if not any(is_name for is_name, _ in parts):
            return repr(text)
        parts.append((False, text[at:]))
        if len(parts) == 3 and parts[0][1] == parts[2][1] == "":
            return parts[1][1]  # the whole text is one placeholder
        body = "".join("{" + p + "}" if is_name else
                       p.replace("\\", "\\\\").replace('"', '\\"').replace("{", "{{")
                       .replace("}", "}}").replace("\n", "\\n") for is_name, p in parts)
        return f'f"{body}"'

    def regex(self, text: str) -> str:
        """An expression for ``re.escape`` of the text (placeholders substituted first)."""
        return f"re.escape({self.expr(text)})"
