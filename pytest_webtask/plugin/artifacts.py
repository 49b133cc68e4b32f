"""Secrets out of what a test leaves behind: its reports and its artifacts folder (traces,
failure messages), masked after the fact as a last line behind masking at the source."""

from __future__ import annotations

import json
import logging
import os
import tempfile
import zipfile
from pathlib import Path

import pytest

from ..types import Secrets

log = logging.getLogger("pytest_webtask")

TEXT_SUFFIXES = {".txt", ".json", ".log", ".yaml", ".html", ".xml"}


def redact_report(report: pytest.TestReport, mask: Secrets) -> None:
    """Mask secrets in a report's failure text and captured output (terminal, JUnit)."""
    if report.longrepr is not None:
        text = str(report.longrepr)
        masked = mask.mask(text)
        if masked != text:
            report.longrepr = masked
    report.sections = [(title, mask.mask(content)) for title, content in report.sections]


def scrub_folder(folder: Path, secrets: Secrets) -> None:
    """Mask secrets in every trace (zip) and text file in ``folder``."""
    for path in sorted(folder.rglob("*")):
        try:
            if path.suffix == ".zip":
                scrub_zip(path, secrets)
            elif path.suffix in TEXT_SUFFIXES:
                data = path.read_bytes()
                masked = secrets.mask_bytes(data)
                if masked != data:
                    path.write_bytes(masked)
        except (OSError, zipfile.BadZipFile) as exc:
            log.warning("could not mask secrets in %s: %s", path, exc)


def scrub_zip(path: Path, secrets: Secrets) -> None:
    """Rewrite a zip (a Playwright trace) with every entry masked; untouched if clean."""
    with zipfile.ZipFile(path) as src:
        entries = [(info, src.read(info)) for info in src.infolist()]
    masked = [(info, secrets.mask_bytes(data)) for info, data in entries]
    if all(a[1] == b[1] for a, b in zip(entries, masked, strict=True)):
        return
    _rewrite_zip(path, masked)


def _rewrite_zip(path: Path, entries: list[tuple[zipfile.ZipInfo, bytes]]) -> None:
    """Replace the zip at ``path`` with ``entries``, through a temporary file beside it (the
    old one stays whole if writing fails)."""
    fd, tmp = tempfile.mkstemp(suffix=".zip", dir=path.parent)
    os.close(fd)
    try:
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as dst:
            for info, data in entries:
                dst.writestr(info, data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def drop_pictures(folder: Path) -> None:
    """Drop what may picture a secret the page showed unmasked: every trace's screencast
    frames (its actions, DOM snapshots and network stay, masked as text) and every video,
    which cannot be cut frame by frame without encoding it again."""
    for path in sorted(folder.rglob("*")):
        try:
            if path.suffix == ".zip":
                drop_screencast(path)
            elif path.suffix == ".webm":
                path.unlink()
        except (OSError, zipfile.BadZipFile) as exc:
            log.warning("could not drop the pictures in %s: %s", path, exc)


def drop_screencast(path: Path) -> None:
    """Rewrite a Playwright trace without its screencast frames: their events in the
    ``*.trace`` files and the JPEG files they name."""
    with zipfile.ZipFile(path) as src:
        entries = [(info, src.read(info)) for info in src.infolist()]
    frames: set[str] = set()
    kept: list[tuple[zipfile.ZipInfo, bytes]] = []
    for info, data in entries:
        if info.filename.endswith(".trace"):
            lines = []
            for line in data.splitlines(keepends=True):
                if b'"screencast-frame"' in line:
                    event = json.loads(line)
                    if event.get("type") == "screencast-frame":
                        name = event.get("file") or "resources/" + str(event.get("sha1"))
                        frames.add(name)
                        continue
                lines.append(line)
            data = b"".join(lines)
        kept.append((info, data))
    _rewrite_zip(path, [(info, data) for info, data in kept if info.filename not in frames])
