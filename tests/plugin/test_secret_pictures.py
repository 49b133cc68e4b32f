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
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.pictures import Crop, field_crops, pixels_differing, video_frames, video_problem

ROOT = Path(__file__).resolve().parents[2]
SECRETS = {"A": "MWMWMWMWMWMWMWMW", "B": "iljiljiljiljilji"}  # same length, no glyph alike

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

TESTS = f'''
import pytest

VALUES = {SECRETS!r}


@pytest.mark.parametrize("label", ["A", "B"])
def test_token(webtask, label):
    webtask.goto("/token")
    webtask.do("save the API token {{token}}", secrets={{"token": VALUES[label]}})


@pytest.mark.parametrize("label", ["A", "B"])
def test_shown(webtask, label):  # the control: a variable is shown, so its pictures differ
    webtask.goto("/token")
    webtask.do("save the API token {{token}}", token=VALUES[label])
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


def _run(project: Path, phase: str, video: bool) -> dict[str, Run]:
    """One inner run (recording, or replaying), and the pictures of each of its tests,
    by secret: ``{"A": Run, "B": Run}``."""
    out = project / f"out-{phase}"
    report = project / f"report-{phase}.html"
    args = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist",
            "--tracing=on", "--screenshot=on", f"--output={out}",
            f"--webtask-report={report}", "test_pictures.py"]
    args += ["--video=on"] if video else []
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "WEBTASK_MODEL")}
    env.update(PYTHONPATH=str(ROOT))
    if phase == "replay":
        env.update(CI="1", FORBID_LLM="1")
    done = subprocess.run(args, cwd=project, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    counts = "4 step(s) replayed, 0 recorded" if phase == "replay" \
        else "0 step(s) replayed, 4 recorded"
    assert counts in done.stdout, done.stdout
    html = report.read_text()
    runs = {}
    for label, secret in SECRETS.items():
        assert secret not in done.stdout + done.stderr
        run = runs[label] = Run(out)
        for test in ("token", "shown"):
            (folder,) = out.glob(f"*-test-{test}-*{label.lower()}")
            (trace,) = folder.glob("*.zip")
            with zipfile.ZipFile(trace) as z:
                run.trace[test] = {n: z.read(n) for n in z.namelist() if n.endswith(".jpeg")}
                run.trace_zip[test] = b"".join(z.read(n) for n in z.namelist())
            if video:
                (run.video[test],) = folder.glob("*.webm")
            run.screenshot[test] = {p.name: p.read_bytes() for p in folder.glob("*.png")}
            section = re.split(rf"::test_{test}\[[^\]]*{label}\]", html)[1]
            run.report[test] = [base64.b64decode(b) for b in re.findall(
                r"src='data:image/jpeg;base64,([^']+)'", section.split("<section", 1)[0])]
    return runs


@pytest.fixture(scope="module")
def picture_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Run]:
    """Two inner runs of the four tests (token and control, each with secret A and B): one
    records, one replays; both with --tracing=on, --video=on (where ffmpeg allows),
    --screenshot=on and --webtask-report."""
    project = tmp_path_factory.mktemp("pictures")
    (project / "conftest.py").write_text(CONFTEST)
    (project / "test_pictures.py").write_text(TESTS)
    (project / "script.json").write_text(json.dumps(SCRIPT))
    video = video_problem() is None
    return {(phase, label): run for phase in ("record", "replay")
            for label, run in _run(project, phase, video).items()}


def _fields(page: Page, picture_runs: dict[tuple[str, str], Run], kind: str, phase: str,
            test: str, label: str) -> list[Crop]:
    """The token field as every picture of ``kind`` of one test shows it."""
    run = picture_runs[(phase, label)]
    images = video_frames(run.video[test]) if kind == "video" else getattr(run, kind)[test]
    found = field_crops(page, images)
    assert found, f"no {kind} picture of test_{test}[{label}] in {run.folder} shows the field"
    return found


def _fullest(crops: list[Crop]) -> Crop:
    """The picture of the field holding the most, among those of the usual size (a frame
    of the whole page)."""
    size = Counter(c.width for c in crops).most_common(1)[0][0]
    return max((c for c in crops if abs(c.width - size) <= 1), key=Crop.ink_span)


@pytest.mark.parametrize("phase", ["record", "replay"])
@pytest.mark.parametrize("kind", ["trace", "video", "screenshot"])
def test_no_picture_shows_the_secret(page: Page, picture_runs: dict[tuple[str, str], Run],
                                     kind: str, phase: str) -> None:
    if kind == "video" and video_problem():
        pytest.skip(str(video_problem()))
    token = {label: _fields(page, picture_runs, kind, phase, "token", label) for label in SECRETS}
    shown = {label: _fields(page, picture_runs, kind, phase, "shown", label) for label in SECRETS}
    for label, crops in token.items():
        leaks = [(c.name, c.not_discs()) for c in crops if c.not_discs()]
        assert not leaks, f"{kind} pictures of the {phase} show secret {label}: {leaks}"
        # the control: the same typing with the value shown is seen as glyphs
        assert any(c.not_discs() for c in shown[label]), \
            f"the control's {kind} pictures show no glyphs: the check is blind"
    if kind == "screenshot":  # taken after the test, when the field holds '••••'
        return
    # the pictures do show the field typed in full: as far right as the shown value
    for label in SECRETS:
        assert _fullest(token[label]).ink_span() >= 0.9 * _fullest(shown[label]).ink_span()
    # and the two secrets leave the same picture; the two shown values do not
    assert _differing(_fullest(token["A"]), _fullest(token["B"])) <= 3
    assert _differing(_fullest(shown["A"]), _fullest(shown["B"])) > 50


def _differing(a: Crop, b: Crop) -> int:
    """Pixels that differ between two pictures of the field (over the part both cover: a
    border found one pixel wider or narrower)."""
    w, h = min(a.width, b.width) - 2, min(a.height, b.height) - 2
    return min(sum(abs(a.at(x + 1, y + 1) - b.at(x + 1 + dx, y + 1 + dy)) > 96
                   for x in range(w) for y in range(h))
               for dx in (-1, 0, 1) for dy in (-1, 0, 1))


@pytest.mark.parametrize("phase", ["record", "replay"])
def test_report_pictures_show_no_secret(page: Page, picture_runs: dict[tuple[str, str], Run],
                                        phase: str) -> None:
    a, b = picture_runs[(phase, "A")], picture_runs[(phase, "B")]
    assert len(a.report["token"]) == len(b.report["token"]) >= 1
    for x, y in zip(a.report["token"], b.report["token"], strict=True):
        assert pixels_differing(page, x, y) <= 20
    assert max(pixels_differing(page, x, y) for x, y in
               zip(a.report["shown"], b.report["shown"], strict=True)) > 200


def test_traces_hold_no_secret_as_text(picture_runs: dict[tuple[str, str], Run]) -> None:
    """Action parameters, DOM snapshots and network bodies of the trace are masked too."""
    for (_phase, label), run in picture_runs.items():
        assert SECRETS[label].encode() not in run.trace_zip["token"]
        assert SECRETS[label].encode() in run.trace_zip["shown"]  # a variable stays


ECHO = f'''
def test_echo(webtask):
    webtask.goto("/token?echo=1")
    webtask.do("save the API token {{token}}", secrets={{"token": {SECRETS["A"]!r}}})
'''


def test_a_secret_the_page_shows_drops_the_traces_frames_and_the_video(
        tmp_path: Path, python: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    """A page that writes the secret into its own text shows it before anything can mask
    it: the test's screencast frames and video are dropped, and the summary says so."""
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_echo.py").write_text(ECHO)
    (tmp_path / "script.json").write_text(json.dumps(SCRIPT))
    video = ["--video=on"] if video_problem() is None else []
    done = python("-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "--tracing=on",
                  "--screenshot=on", *video, "test_echo.py", cwd=tmp_path,
                  env={"PYTHONPATH": str(ROOT), "CI": None, "WEBTASK_MODEL": None})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 element(s) showed a secret that was not masked before it was drawn" \
        in done.stdout, done.stdout
    assert "  test_echo: after Step 1 do('save the API token {token}'): <p#echo>" \
        in done.stdout
    (folder,) = (tmp_path / "test-results").iterdir()
    with zipfile.ZipFile(folder / "trace.zip") as z:
        names = z.namelist()
        events = b"".join(z.read(n) for n in names if n.endswith(".trace"))
        assert SECRETS["A"].encode() not in b"".join(z.read(n) for n in names)
    assert not [n for n in names if n.endswith(".jpeg")]
    assert b'"screencast-frame"' not in events
    assert b'"type":"before"' in events  # the rest of the trace stays: actions, snapshots
    assert not list(folder.glob("*.webm"))
    assert list(folder.glob("*.png"))  # the screenshot, taken after the page was scrubbed
