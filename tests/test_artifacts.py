"""Rewriting a Playwright trace: its text masked, or its screencast frames dropped (the
fast-tier half of tests/plugin/test_secret_pictures.py, on hand-made zips)."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from pytest_webtask.plugin.artifacts import drop_screencast, scrub_zip
from pytest_webtask.types import Secrets

FRAME = {"type": "screencast-frame", "sha1": "abc.jpeg"}
ACTION = {"type": "action", "text": "typed hunter2-secret"}


def _trace(path: Path) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("trace.trace", "".join(json.dumps(e) + "\n" for e in (ACTION, FRAME)))
        z.writestr("resources/abc.jpeg", b"\xff\xd8picture")
        z.writestr("resources/page.html", "<p>hunter2-secret</p>")
    return path


def _read(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {name: z.read(name) for name in z.namelist()}


def test_scrub_zip_masks_every_entry_and_keeps_the_rest(tmp_path: Path) -> None:
    path = _trace(tmp_path / "trace.zip")
    scrub_zip(path, Secrets({"password": "hunter2-secret"}))
    entries = _read(path)
    assert set(entries) == {"trace.trace", "resources/abc.jpeg", "resources/page.html"}
    assert not any(b"hunter2-secret" in data for data in entries.values())
    assert entries["resources/abc.jpeg"] == b"\xff\xd8picture"
    assert list(tmp_path.iterdir()) == [path]  # no temporary file left beside it


def test_scrub_zip_leaves_a_clean_trace_untouched(tmp_path: Path) -> None:
    path = _trace(tmp_path / "trace.zip")
    before = path.stat().st_mtime_ns, path.read_bytes()
    scrub_zip(path, Secrets({"password": "not-in-it"}))
    assert (path.stat().st_mtime_ns, path.read_bytes()) == before


def test_drop_screencast_removes_the_frames_and_their_events_only(tmp_path: Path) -> None:
    path = _trace(tmp_path / "trace.zip")
    drop_screencast(path)
    entries = _read(path)
    assert set(entries) == {"trace.trace", "resources/page.html"}
    events = [json.loads(line) for line in entries["trace.trace"].splitlines()]
    assert events == [ACTION]
    assert list(tmp_path.iterdir()) == [path]
