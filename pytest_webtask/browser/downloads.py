"""What a downloaded file holds, as a download check reads it: its size, and the text of a
text, CSV or PDF file.

A PDF's text is read by pypdf, as people make PDFs: Chromium's ``page.pdf()`` (what most web
apps print invoices and statements with) writes fonts whose text is readable only through
their ToUnicode tables, which a reader of the content streams alone never sees. pypdf is
imported when a PDF is read, never when the plugin loads.
"""

from __future__ import annotations

import io
import logging

from ..types import DownloadedFile

log = logging.getLogger(__name__)

TEXT_LIMIT = 20_000  # characters of a file's text kept to check
SHOWN_LIMIT = 1_500  # characters of it the model is shown, after the action that downloaded it
TEXT_SUFFIXES = (".txt", ".csv", ".tsv", ".json", ".xml", ".html", ".htm", ".md", ".log",
                 ".ics", ".vcf", ".yaml", ".yml")


def downloaded(name: str, data: bytes) -> DownloadedFile:
    """The file as a check sees it."""
    return DownloadedFile(name=name, size=len(data), text=file_text(name, data))


def file_text(name: str, data: bytes) -> str | None:
    """The text of a text or PDF file, None for other files (an image, an archive) and for a
    PDF that cannot be read."""
    lower = name.lower()
    if lower.endswith(".pdf") or data.startswith(b"%PDF-"):
        text = pdf_text(data)
        return text[:TEXT_LIMIT] if text is not None else None
    if lower.endswith(TEXT_SUFFIXES) or (data and b"\0" not in data[:4096]):
        try:
            return data.decode("utf-8-sig")[:TEXT_LIMIT]
        except UnicodeDecodeError:
            if lower.endswith(TEXT_SUFFIXES):
                return data.decode("latin-1")[:TEXT_LIMIT]
    return None


def pdf_text(data: bytes) -> str | None:
    """The text a PDF shows, page by page (pypdf's reading order), or None when it is not a
    PDF pypdf can read (damaged, encrypted)."""
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    try:
        reader = PdfReader(io.BytesIO(data))
        pages = [page.extract_text() or "" for page in reader.pages]
    except (PyPdfError, ValueError, KeyError, TypeError, OSError) as exc:
        log.debug("the PDF could not be read: %s", exc)
        return None
    lines = [line.strip() for page in pages for line in page.splitlines()]
    return "\n".join(line for line in lines if line)


def flat(text: str) -> str:
    """Text with each run of whitespace as one space: how a download check compares."""
    return " ".join(text.split())


def shown(file: DownloadedFile, limit: int = SHOWN_LIMIT) -> str:
    """The file's text as the model is shown it (its first ``limit`` characters), "" when
    it has none."""
    text = "\n".join(line.rstrip() for line in (file.text or "").strip().splitlines())
    if len(text) > limit:
        text = text[:limit] + f"\n[... {len(text) - limit:,} more characters]"
    return text


def content_problem(files: list[DownloadedFile], text: str) -> str:
    """Why no file of ``files`` holds ``text`` (whitespace aside), "" when one does: what a
    ``download`` claim is checked by while recording."""
    if not flat(text):
        return "a 'download' claim needs the text the downloaded file holds, as written in it"
    if not files:
        return "no file was downloaded by this task's actions"
    want = flat(text)
    if any(f.text is not None and want in flat(f.text) for f in files):
        return ""
    names = ", ".join(f.describe() + ("" if f.text is not None else ": no text to read")
                      for f in files)
    return (f"no downloaded file holds {text!r} (downloaded: {names}); cite a part of the "
            "file's text exactly as it is written there")
