"""What a downloaded file holds, as a download check reads it: its size, and the text of a
text, CSV or PDF file. PDF text is read from the page content streams' text operators
(uncompressed or Flate-compressed, as most generators write them); a PDF whose fonts need
their own encoding tables to read shows no text."""

from __future__ import annotations

import re
import zlib

from ..types import DownloadedFile

TEXT_LIMIT = 20_000  # characters of a file's text kept to check
TEXT_SUFFIXES = (".txt", ".csv", ".tsv", ".json", ".xml", ".html", ".htm", ".md", ".log",
                 ".ics", ".vcf", ".yaml", ".yml")


def downloaded(name: str, data: bytes) -> DownloadedFile:
    """The file as a check sees it."""
    return DownloadedFile(name=name, size=len(data), text=file_text(name, data))


def file_text(name: str, data: bytes) -> str | None:
    """The text of a text or PDF file, None for other files (an image, an archive)."""
    lower = name.lower()
    if lower.endswith(".pdf") or data.startswith(b"%PDF-"):
        return pdf_text(data)[:TEXT_LIMIT]
    if lower.endswith(TEXT_SUFFIXES) or (data and b"\0" not in data[:4096]):
        try:
            return data.decode("utf-8-sig")[:TEXT_LIMIT]
        except UnicodeDecodeError:
            if lower.endswith(TEXT_SUFFIXES):
                return data.decode("latin-1")[:TEXT_LIMIT]
    return None


_STREAM = re.compile(rb"<<(.*?)>>\s*stream\r?\n(.*?)\r?\nendstream", re.DOTALL)
_TEXT_OPS = re.compile(rb"\[(.*?)\]\s*TJ|(\((?:\\.|[^\\)])*\))\s*(?:Tj|'|\")|(T\*|Td|TD|ET)",
                       re.DOTALL)
_STRING = re.compile(rb"\((?:\\.|[^\\)])*\)", re.DOTALL)
_ESCAPES = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f"}


def pdf_text(data: bytes) -> str:
    """The text shown by a PDF's content streams, one line per text line."""
    lines: list[str] = []
    for head, body in _STREAM.findall(data):
        if b"/FlateDecode" in head:
            try:
                body = zlib.decompress(body)
            except zlib.error:
                continue
        elif b"/Filter" in head:
            continue  # another filter: an image, most likely
        if b"BT" not in body:
            continue
        line = ""
        for array, single, breaks in _TEXT_OPS.findall(body):
            if breaks:
                if line.strip():
                    lines.append(line.strip())
                line = ""
                continue
            for raw in _STRING.findall(array) if array else [single]:
                line += _unescape(raw[1:-1]).decode("latin-1")
        if line.strip():
            lines.append(line.strip())
    return "\n".join(lines)


def _unescape(raw: bytes) -> bytes:
    def one(m: re.Match[bytes]) -> bytes:
        c = m.group(1)
        if c[:1].isdigit():
            return bytes([int(c, 8) & 0xFF])
        return _ESCAPES.get(c, c)
    return re.sub(rb"\\([0-7]{1,3}|.)", one, raw, flags=re.DOTALL)


def first_line(text: str | None, limit: int = 80) -> str | None:
    """The first line with words in it, cut to ``limit`` characters at a word."""
    for line in (text or "").splitlines():
        line = " ".join(line.split())
        if re.search(r"\w", line):
            if len(line) > limit:
                line = line[:limit].rsplit(" ", 1)[0] if " " in line[:limit] else line[:limit]
            return line
    return None
