"""Secrets out of what a test leaves behind: its reports and its artifacts folder (traces,
failure messages), masked after the fact as a last line behind masking at the source."""

from __future__ import annotations

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
    fd, tmp = tempfile.mkstemp(suffix=".zip", dir=path.parent)
    os.close(fd)
    try:
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as dst:
            for info, data in masked:
                dst.writestr(info, data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
