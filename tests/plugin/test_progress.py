"""The live line while a step records: on a terminal only, erased when the step ends, and
never under -q, in CI or when output goes to a pipe."""

from __future__ import annotations

import io
import os
import pty
import re
import subprocess
import sys

from pytest_webtask.report.progress import Progress
from tests.plugin.conftest import Inner

ONE_TEST = '''
def test_add(webtask):
    webtask.goto("/")
    webtask.do("add the Blue Oxford Shirt in size M to the cart")
'''


def _in_terminal(inner: Inner, *args: str, **env: str) -> str:
    """Run the inner project with a pseudo-terminal as its output; the raw bytes."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args], cwd=inner.path,
        stdin=subprocess.DEVNULL, stdout=slave, stderr=slave,
        env={**os.environ, "COLUMNS": "200", **env})
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=240)
    os.close(master)
    return b"".join(chunks).decode("utf-8", "replace")


def _shown(raw: str) -> str:
    """What a terminal shows once backspaces and erase-to-end-of-line have acted."""
    lines = []
    for line in raw.replace("\r\n", "\n").split("\n"):
        cells: list[str] = []
        at = 0
        for token in re.split(r"(\x08|\x1b\[K)", line):
            if token == "\x08":
                at = max(at - 1, 0)
            elif token == "\x1b[K":
                del cells[at:]
            else:
                for ch in token:
                    cells[at:at + 1] = [ch]
                    at += 1
        lines.append("".join(cells))
    return "\n".join(lines)


def test_recording_in_a_terminal_shows_the_step_and_model_calls_then_erases_it(
        inner_process: Inner) -> None:
    inner = inner_process
    inner.tests(ONE_TEST)
    raw = _in_terminal(inner)
    assert "1 passed" in raw
    assert "[recording Step 1 do('add the Blue Ox" in raw
    assert ": 1 model call, " in raw and ": 2 model calls, " in raw  # the script's 2 replies
    shown = _shown(raw)
    assert "[recording" not in shown
    assert re.search(r"test_shop\.py \.\s+\[100%\]", shown), shown


def test_no_progress_line_under_q_in_ci_or_through_a_pipe(inner_process: Inner) -> None:
    inner = inner_process
    inner.tests(ONE_TEST)
    assert "[recording" not in _in_terminal(inner, "-q", "--webtask-record")
    ci = _in_terminal(inner, "--webtask-record", CI="true")
    assert "1 passed" in ci and "[recording" not in ci
    piped = inner.run("--webtask-record")
    piped.assert_outcomes(passed=1)
    assert "[recording" not in piped.stdout.str()
    assert inner.llm_calls == 6  # all three runs recorded: the line had something to show


def test_a_long_step_text_gives_way_to_the_counts() -> None:
    out = io.StringIO()
    progress = Progress(out, room=lambda: 200)
    progress.step_started("Step 3 do('" + "x" * 100 + "')")
    progress.model_call()
    progress.step_finished()
    drawn = out.getvalue().split("\x1b[K")
    assert all(len(part.strip("\x08")) <= 60 for part in drawn)
    assert drawn[2].startswith(" [recording Step 3 do('xxx") and "…: 1 model call, 0s]" in \
        drawn[2]
    assert _shown(out.getvalue()) == ""


def test_the_live_line_hears_each_model_call_of_a_recording() -> None:
    from pytest_webtask.agent.task_context import TaskContext
    from pytest_webtask.plugin.step_listeners import LiveLine
    from pytest_webtask.steps.identity import StepIdentity
    from pytest_webtask.steps.listeners import Listeners
    from pytest_webtask.steps.outcome import StepRequest, StepRun

    class Model:
        supports_images = False

        def generate(self, context: str) -> str:
            return f"reply to {context}"

    model = Model()
    assert Listeners([]).heard(model) is model  # no wrapper when nobody listens
    out = io.StringIO()
    listeners = Listeners([LiveLine(Progress(out, room=lambda: 200))])
    heard = listeners.heard(model)
    run = StepRun(StepRequest(StepIdentity.make("do", "buy")), TaskContext.create("buy"), 0)
    listeners.recording_started(run)
    assert heard.generate("a") == "reply to a" and heard.supports_images is False
    heard.generate("b")
    assert _shown(out.getvalue()) == " [recording Step 1 do('buy'): 2 model calls, 0s]"
    listeners.recording_ended(run)
    assert _shown(out.getvalue()) == ""
