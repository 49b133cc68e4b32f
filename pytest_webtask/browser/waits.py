"""How long a replay waits between two tries of what is not there yet: Playwright's own.

Both an action waiting for its element and ``expect`` retry with Playwright's
``retryWithProgressAndBackoff`` after their first try: again at once, then after 20, 50, 100,
100 and 500 ms, the last repeating until the timeout; an interval over a fifth of the timeout
is left out. Every replay waits this way: a recipe step's targets and checks
(``AsyncFinder.until``) and an extraction's bindings, details and controls.
"""

from __future__ import annotations

POLL_MS = (0, 20, 50, 100, 100, 500)


def backoff(timeout_ms: float, poll_ms: tuple[int, ...] = POLL_MS) -> tuple[int, ...]:
    """``poll_ms`` without the intervals over a fifth of the timeout (Playwright's rule), the
    first two always kept: a short timeout is still tried more than once, never in a loop."""
    waits = list(poll_ms)
    while len(waits) > 2 and timeout_ms and waits[-1] > timeout_ms / 5:
        waits.pop()
    return tuple(waits)
