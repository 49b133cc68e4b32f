"""No picture of a secret, ever: trace screencast frames (--tracing), videos (--video),
pytest-playwright's screenshot (--screenshot) and the HTML report (--webtask-report).

Checked by decoding the pictures, not by trusting the mechanism: the same tests run twice,
with two secrets of the same length that differ in every character, and the API token
field's region of every picture of one run must be explained by the other run's (a row of
discs, typed in full or in part). A control test types the same values as a *variable*,
which is shown: its pictures must differ between the runs, or the check proves nothing.
Both ways of typing are covered: the agent's (recording) and the replayer's (a replay).
"""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import sys
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.pictures import (
    Box,
    Crop,
    crops,
    pixels_differing,
    unexplained,
    video_frames,
    video_problem,
)

ROOT = Path(__file__).resolve().parents[2]
SECRETS = {"A": "MWMWMWMWMWMWMWMW", "B": "iljiljiljiljilji"}  # same length, no glyph alike
FIELD = Box(40, 100, 640, 56)  # the token field of tests/pages/token.html, in CSS pixels

CONFTEST = '''
import json, os
from pathlib import Path
import pytest
from pytest_webtask.browser.chromium import launch_args
from pytest_webtask.testing import ScriptedLLM
from tests.server import LocalServer

SCRIPT = json.loads(Path(__file__).with_name("script.json").read_text())


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return launch_args(browser_type_launch_args)


@pytest.fixture(scope="session")
def base_url():
    server = LocalServer()
    yield server.url
    server.stop()


@pytest.fixture(scope="session")
def webtask_llm():
    if os.environ.get("FORBID_LLM"):
        raise AssertionError("webtask_llm was requested although no step should record")
    return ScriptedLLM({"step": lambda context: SCRIPT[min(context.step, len(SCRIPT)) - 1]})
'''

TESTS = '''
import os


def test_token(webtask):
    webtask.goto("/token")
    webtask.do("save the API token {token}", secrets={"token": os.environ["TOKEN"]})


def test_shown(webtask):  # the control: a variable is shown, so its pictures differ
    webtask.goto("/token")
    webtask.do("save the API token {token}", token=os.environ["TOKEN"])
'''

SCRIPT = [  # typed key by key: a frame may be taken after every key
    {"complete": False, "message": "type the token and save", "actions": [
        {"reason": "token", "tool": "type",
         "parameters": {"element_id": "input-0", "value": "{token}"}},
        {"reason": "save", "tool": "click", "parameters": {"element_id": "button-0"}}]},
    {"complete": True, "message": "saved", "evidence": ["Token saved (16 characters)"]},
]


@dataclass
class Run:
    """The pictures one inner run left for each of its tests."""

    folder: Path
    trace: dict[str, dict[str, bytes]] = field(default_factory=dict)
    video: dict[str, Path] = field(default_factory=dict)
    screenshot: dict[str, dict[str, bytes]] = field(default_factory=dict)
    report: dict[str, list[bytes]] = field(default_factory=dict)
    trace_zip: dict[str, bytes] = field(default_factory=dict)


def _run(project: Path, phase: str, label: str, video: bool) -> Run:
    out = project / f"out-{phase}-{label}"
    report = project / f"report-{phase}-{label}.html"
    args = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist",
            "--tracing=on", "--screenshot=on", f"--output={out}",
            f"--webtask-report={report}", "test_pictures.py"]
    args += ["--video=on"] if video else []
    args += ["--webtask-record"] if phase == "record" else []
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "WEBTASK_MODEL")}
    env.update(PYTHONPATH=str(ROOT), TOKEN=SECRETS[label])
    if phase == "replay":
        env.update(CI="1", FORBID_LLM="1")
    done = subprocess.run(args, cwd=project, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert SECRETS[label] not in done.stdout + done.stderr
    run = Run(out)
    html = report.read_text()
    for test in ("token", "shown"):
        folder = next(out.glob(f"*test-{test}*"))
        (trace,) = folder.glob("*.zip")
        with zipfile.ZipFile(trace) as z:
            run.trace[test] = {n: z.read(n) for n in z.namelist() if n.endswith(".jpeg")}
            run.trace_zip[test] = b"".join(z.read(n) for n in z.namelist())
        if video:
            (run.video[test],) = folder.glob("*.webm")
        run.screenshot[test] = {p.name: p.read_bytes() for p in folder.glob("*.png")}
        section = html.split(f"test_pictures.py::test_{test}", 1)[1].split("<section", 1)[0]
        run.report[test] = [base64.b64decode(b) for b in
                            re.findall(r"src='data:image/jpeg;base64,([^']+)'", section)]
    return run


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Run]:
    """Four inner runs: recorded with secret A, recorded again with B, replayed with A and
    with B; every one with --tracing=on, --video=on (where ffmpeg allows), --screenshot=on
    and --webtask-report."""
    project = tmp_path_factory.mktemp("pictures")
    (project / "conftest.py").write_text(CONFTEST)
    (project / "test_pictures.py").write_text(TESTS)
    (project / "script.json").write_text(json.dumps(SCRIPT))
    video = video_problem() is None
    return {(phase, label): _run(project, phase, label, video)
            for phase in ("record", "replay") for label in ("A", "B")}


def _compare(page: Page, runs: dict[tuple[str, str], Run], kind: str, phase: str,
             test: str) -> tuple[list[str], list[Crop]]:
    """The pictures of ``kind`` of one run the other run's pictures do not explain, and
    all the crops."""
    def pictures(label: str) -> list[Crop]:
        run = runs[(phase, label)]
        images = video_frames(run.video[test]) if kind == "video" \
            else getattr(run, kind)[test]
        found = crops(page, images, FIELD)
        assert found, f"no {kind} pictures in {run.folder}"
        return found

    a, b = pictures("A"), pictures("B")
    return unexplained(a, b) + unexplained(b, a), a + b


@pytest.mark.parametrize("phase", ["record", "replay"])
@pytest.mark.parametrize("kind", ["trace", "video", "screenshot"])
def test_no_picture_shows_the_secret(page: Page, runs: dict[tuple[str, str], Run],
                                     kind: str, phase: str) -> None:
    if kind == "video" and video_problem():
        pytest.skip(str(video_problem()))
    leaks, token = _compare(page, runs, kind, phase, "token")
    assert not leaks, f"{kind} pictures of the {phase} show the secret: {leaks}"
    shown, control = _compare(page, runs, kind, phase, "shown")
    assert shown, f"the control's {kind} pictures show no difference: the check is blind"
    if kind != "screenshot":  # taken after the test, when the field shows '••••'
        # the pictures do show the field typed in full: as many discs as characters
        widest = max(c.inked_columns() for c in token)
        assert abs(widest - max(c.inked_columns() for c in control)) <= widest * 0.1


@pytest.mark.parametrize("phase", ["record", "replay"])
def test_report_pictures_show_no_secret(page: Page, runs: dict[tuple[str, str], Run],
                                        phase: str) -> None:
    a, b = runs[(phase, "A")], runs[(phase, "B")]
    assert len(a.report["token"]) == len(b.report["token"]) >= 2
    for x, y in zip(a.report["token"], b.report["token"], strict=True):
        assert pixels_differing(page, x, y) <= 20
    assert max(pixels_differing(page, x, y) for x, y in
               zip(a.report["shown"], b.report["shown"], strict=True)) > 200


def test_traces_hold_no_secret_as_text(runs: dict[tuple[str, str], Run]) -> None:
    """Action parameters, DOM snapshots and network bodies of the trace are masked too."""
    for (_phase, label), run in runs.items():
        assert SECRETS[label].encode() not in run.trace_zip["token"]
        assert SECRETS[label].encode() in run.trace_zip["shown"]  # a variable stays
