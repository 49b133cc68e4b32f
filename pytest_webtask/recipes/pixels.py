"""Pictures compared pixel by pixel, with the tolerance Playwright's ``toHaveScreenshot`` uses:
no model, no image library.

A pixel differs when its colour distance in YIQ space (the perceptual metric pixelmatch and
Playwright use) exceeds ``threshold`` (0-1), unless it is anti-aliasing: pixelmatch's test
(Vysniauskas, "Anti-aliased pixel and intensity slope detector", 2009) says a pixel on the
edge of a shape whose neighbours span a colour gradient is a rendering difference, not a
change. A picture matches when at most ``max_diff_ratio`` of its pixels differ, and no
*blob* is among them.

A blob is where a word or a shape changed, however small a share of the picture: a cluster
of pixels that each changed by more than half the range (``STRONG``: from background to ink
or back), at least ``blob_pixels`` of them, no line (3 pixels or more in both directions)
and dense (a fifth of its box or more). Anti-aliasing is none: it moves an edge by a
fraction of a pixel, so each pixel along it changes by that fraction of its contrast, and
what changes is a line one pixel wide. One changed glyph of a 12 px label ("Mar" to "May",
"k$" to "k€") is 10-60 strong pixels in a box of about 6x8; everything drawn a quarter of a
pixel off changes no pixel by more than a quarter (tests/test_visual_checks.py measures
both on a canvas chart).

Pure Python on purpose: numpy and Pillow are not dependencies of the plugin, and a replay
compares small regions (a chart, not a page). Identical PNG bytes match at once; identical
rows are skipped with one comparison each, so only changed rows cost a per-pixel loop.
PNGs are read as Chromium writes them (8-bit RGB or RGBA, any filter, not interlaced).
"""

from __future__ import annotations

import struct
import sys
import zlib
from array import array
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import accumulate

SIGNATURE = b"\x89PNG\r\n\x1a\n"
THRESHOLD = 0.2  # Playwright's default per-pixel threshold for toHaveScreenshot
MAX_DIFF_RATIO = 0.002  # at most 0.2% of the region's pixels may differ
BLOB_PIXELS = 6  # strong pixels in one compact cluster that fail a check (0: never)
STRONG = 0.5  # a pixel that changed by over half the range (YIQ distance 0-1): ink, not AA


class PictureError(ValueError):
    """A file that is not a PNG this module reads; ``str()`` says why."""


@dataclass(frozen=True)
class Picture:
    """An RGBA picture: ``width`` x ``height`` pixels, 4 bytes each, row by row."""

    width: int
    height: int
    rgba: bytes

    def row(self, y: int) -> bytes:
        n = self.width * 4
        return self.rgba[y * n:(y + 1) * n]


@dataclass(frozen=True)
class Comparison:
    """How two pictures differ: pixels over the threshold (``different``), pixels taken for
    anti-aliasing (``antialiased``), of ``total``; ``size`` says why they can't be compared
    (another size), else ""; ``blob`` the largest blob (strong pixels, x, y, width,
    height), if any."""

    different: int
    antialiased: int
    total: int
    size: str = ""
    blob: tuple[int, int, int, int, int] | None = None

    @property
    def ratio(self) -> float:
        return self.different / self.total if self.total else 0.0

    def matches(self, max_diff_ratio: float) -> bool:
        return not self.size and self.ratio <= max_diff_ratio and self.blob is None

    def describe(self) -> str:
        if self.size:
            return self.size
        text = (f"{self.different:,} of {self.total:,} pixels differ "
                f"({self.ratio:.2%}; {self.antialiased:,} more taken for anti-aliasing)")
        if self.blob is not None:
            n, x, y, w, h = self.blob
            text += (f", {n} of them changed from background to ink or back in one "
                     f"{w}x{h} patch at x={x}, y={y} (a changed word or shape)")
        return text


# -- PNG ------------------------------------------------------------------------------------

def decode_png(data: bytes) -> Picture:
    """The pixels of an 8-bit RGB or RGBA PNG (Chromium's screenshots), as RGBA."""
    if not data.startswith(SIGNATURE):
        raise PictureError("not a PNG file (its first bytes are not the PNG signature)")
    pos, idat = len(SIGNATURE), []
    width = height = depth = colour = interlace = -1
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _c, _f, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + length
    if width <= 0 or not idat:
        raise PictureError("a PNG file without its header or pixels (cut short?)")
    if depth != 8 or colour not in (2, 6) or interlace != 0:
        raise PictureError(f"a PNG of a kind not read here (bit depth {depth}, colour type "
                           f"{colour}, interlace {interlace}); 8-bit RGB or RGBA is")
    channels = 4 if colour == 6 else 3
    try:
        raw = zlib.decompress(b"".join(idat))
    except zlib.error as exc:
        raise PictureError(f"a damaged PNG file ({exc})") from None
    stride = width * channels
    if len(raw) < (stride + 1) * height:
        raise PictureError("a PNG file whose pixels are cut short")
    rows: list[bytes] = []
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        row = _unfilter(raw[start], bytearray(raw[start + 1:start + 1 + stride]), prev,
                        channels)
        rows.append(bytes(row))
        prev = row
    pixels = b"".join(rows)
    if channels == 3:
        out = bytearray(width * height * 4)
        out[0::4], out[1::4], out[2::4] = pixels[0::3], pixels[1::3], pixels[2::3]
        out[3::4] = b"\xff" * (width * height)
        pixels = bytes(out)
    return Picture(width, height, pixels)


def _unfilter(kind: int, row: bytearray, prev: bytearray, bpp: int) -> bytearray:
    if kind == 0:
        return row
    n = len(row)
    if kind == 1:  # Sub: each channel is a running sum, modulo 256
        for channel in range(bpp):
            row[channel::bpp] = _low_bytes(accumulate(row[channel::bpp]))
    elif kind == 2:  # Up: the two rows added byte by byte, in one addition of two integers
        row[:] = _add_bytes(row, prev)
    elif kind == 3:  # Average
        for i in range(n):
            left = row[i - bpp] if i >= bpp else 0
            row[i] = (row[i] + ((left + prev[i]) >> 1)) & 0xFF
    elif kind == 4:  # Paeth
        for i in range(n):
            a = row[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
    else:
        raise PictureError(f"a PNG row with an unknown filter ({kind})")
    return row


_WORD = "I" if array("I").itemsize == 4 else "L"  # an unsigned 32-bit array item
_LOW = 0 if sys.byteorder == "little" else 3  # where its lowest byte is


def _low_bytes(values: Iterable[int]) -> bytes:
    """The lowest byte of each of ``values`` (sums of at most a row's bytes: < 2**32)."""
    return array(_WORD, values).tobytes()[_LOW::4]


def _add_bytes(a: bytes | bytearray, b: bytes | bytearray) -> bytes:
    """``a`` and ``b`` added byte by byte, modulo 256: the low seven bits of each byte
    added (their carry stays inside the byte), the top bit set by the carry and both tops."""
    n = len(a)
    x, y = int.from_bytes(a, "little"), int.from_bytes(b, "little")
    low7, top = int.from_bytes(b"\x7f" * n, "little"), int.from_bytes(b"\x80" * n, "little")
    return (((x & low7) + (y & low7)) ^ ((x ^ y) & top)).to_bytes(n, "little")


def encode_png(picture: Picture) -> bytes:
    """``picture`` as an 8-bit RGBA PNG (no filter: these are small, written on failure)."""
    stride = picture.width * 4
    raw = b"".join(b"\x00" + picture.rgba[y * stride:(y + 1) * stride]
                   for y in range(picture.height))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", picture.width, picture.height, 8, 6, 0, 0, 0)
    return (SIGNATURE + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 6))
            + chunk(b"IEND", b""))


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's header, without reading its pixels."""
    if not data.startswith(SIGNATURE) or data[12:16] != b"IHDR":
        raise PictureError("not a PNG file")
    width, height = struct.unpack(">II", data[16:24])
    return width, height


# -- comparing ------------------------------------------------------------------------------

def _blend(c: float, a: float) -> float:
    return 255 + (c - 255) * a  # on white, as pixelmatch does


def _yiq(p: bytes | bytearray, k: int) -> tuple[float, float, float]:
    r, g, b, a = p[k], p[k + 1], p[k + 2], p[k + 3]
    if a < 255:
        f = a / 255
        r, g, b = _blend(r, f), _blend(g, f), _blend(b, f)  # type: ignore[assignment]
    return (r * 0.29889531 + g * 0.58662247 + b * 0.11448223,
            r * 0.59597799 - g * 0.27417610 - b * 0.32180189,
            r * 0.21147017 - g * 0.52261711 + b * 0.31114694)


def colour_delta(p1: bytes, k: int, p2: bytes, m: int, y_only: bool = False) -> float:
    """pixelmatch's ``colorDelta``: the squared YIQ distance of pixel ``k`` of ``p1`` and
    pixel ``m`` of ``p2`` (byte offsets), negative when the first is lighter; with ``y_only``
    the brightness difference alone."""
    if p1[k:k + 4] == p2[m:m + 4]:
        return 0.0
    y1, i1, q1 = _yiq(p1, k)
    y2, i2, q2 = _yiq(p2, m)
    y = y1 - y2
    if y_only:
        return y
    i, q = i1 - i2, q1 - q2
    delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
    return -delta if y1 > y2 else delta


def _many_siblings(p: bytes, x1: int, y1: int, w: int, h: int) -> bool:
    """Three or more neighbours of the same colour as pixel (x1, y1)."""
    x0, y0, x2, y2 = max(x1 - 1, 0), max(y1 - 1, 0), min(x1 + 1, w - 1), min(y1 + 1, h - 1)
    k = (y1 * w + x1) * 4
    zeroes = 1 if x1 in (x0, x2) or y1 in (y0, y2) else 0
    here = p[k:k + 4]
    for x in range(x0, x2 + 1):
        for y in range(y0, y2 + 1):
            if x == x1 and y == y1:
                continue
            m = (y * w + x) * 4
            if p[m:m + 4] == here:
                zeroes += 1
                if zeroes > 2:
                    return True
    return False


def antialiased(p: bytes, x1: int, y1: int, w: int, h: int, other: bytes) -> bool:
    """pixelmatch's ``antialiased``: is pixel (x1, y1) of ``p`` likely anti-aliasing (its
    neighbours span both darker and lighter, and the extremes are solid in both pictures)?"""
    x0, y0, x2, y2 = max(x1 - 1, 0), max(y1 - 1, 0), min(x1 + 1, w - 1), min(y1 + 1, h - 1)
    k = (y1 * w + x1) * 4
    zeroes = 1 if x1 in (x0, x2) or y1 in (y0, y2) else 0
    lo = hi = 0.0
    lo_x = lo_y = hi_x = hi_y = 0
    for x in range(x0, x2 + 1):
        for y in range(y0, y2 + 1):
            if x == x1 and y == y1:
                continue
            delta = colour_delta(p, k, p, (y * w + x) * 4, True)
            if delta == 0:
                zeroes += 1
                if zeroes > 2:
                    return False
            elif delta < lo:
                lo, lo_x, lo_y = delta, x, y
            elif delta > hi:
                hi, hi_x, hi_y = delta, x, y
    if lo == 0 or hi == 0:
        return False
    return ((_many_siblings(p, lo_x, lo_y, w, h) and _many_siblings(other, lo_x, lo_y, w, h))
            or (_many_siblings(p, hi_x, hi_y, w, h)
                and _many_siblings(other, hi_x, hi_y, w, h)))


def compare(expected: Picture, actual: Picture, threshold: float = THRESHOLD, *,
            blob_pixels: int = BLOB_PIXELS, diff: bytearray | None = None) -> Comparison:
    """How ``actual`` differs from ``expected``, and its largest blob of at least
    ``blob_pixels`` strong pixels (none looked for when 0). ``diff``, when given (``width *
    height * 4`` bytes), is filled as pixelmatch draws it: the expected picture faded to
    grey, different pixels red, anti-aliasing yellow."""
    w, h = expected.width, expected.height
    if (actual.width, actual.height) != (w, h):
        return Comparison(0, 0, w * h, size=f"the region is {actual.width}x{actual.height} "
                                               f"pixels, the baseline {w}x{h}")
    p1, p2 = expected.rgba, actual.rgba
    max_delta = 35215 * threshold * threshold
    strong_delta = max(max_delta, 35215 * STRONG * STRONG)
    strong: set[int] = set()  # pixel indices
    different = aa = 0
    if diff is not None:
        _fade(p1, diff)
    stride = w * 4
    for y in range(h):
        start = y * stride
        if p1[start:start + stride] == p2[start:start + stride]:
            continue
        for x in range(w):
            k = start + x * 4
            if p1[k:k + 4] == p2[k:k + 4]:
                continue
            delta = colour_delta(p1, k, p2, k)
            if abs(delta) <= max_delta:
                continue
            if antialiased(p1, x, y, w, h, p2) or antialiased(p2, x, y, w, h, p1):
                aa += 1
                if diff is not None:
                    diff[k:k + 4] = b"\xff\xff\x00\xff"
            else:
                different += 1
                if abs(delta) > strong_delta:
                    strong.add(y * w + x)
                if diff is not None:
                    diff[k:k + 4] = b"\xff\x00\x00\xff"
    found = largest_blob(strong, w, blob_pixels) if blob_pixels else None
    return Comparison(different, aa, w * h, blob=found)


def largest_blob(strong: set[int], w: int, blob_pixels: int
                 ) -> tuple[int, int, int, int, int] | None:
    """The largest cluster of ``strong`` pixels (indices ``y * w + x``; pixels at most 2
    apart join, so the strokes of one glyph are one cluster) that is a blob: at least
    ``blob_pixels`` of them, 3 pixels or more wide and tall, filling a fifth of its box.
    Returns (pixels, x, y, width, height), or None."""
    if len(strong) < blob_pixels:
        return None
    best: tuple[int, int, int, int, int] | None = None
    seen: set[int] = set()
    for start in strong:
        if start in seen:
            continue
        seen.add(start)
        stack, n = [start], 0
        x0 = x1 = start % w
        y0 = y1 = start // w
        while stack:
            i = stack.pop()
            n += 1
            x, y = i % w, i // w
            x0, x1, y0, y1 = min(x0, x), max(x1, x), min(y0, y), max(y1, y)
            for dy in (-2, -1, 0, 1, 2):
                for dx in (-2, -1, 0, 1, 2):
                    j = i + dy * w + dx
                    if j in strong and j not in seen and 0 <= x + dx < w:
                        seen.add(j)
                        stack.append(j)
        bw, bh = x1 - x0 + 1, y1 - y0 + 1
        if (n >= blob_pixels and bw >= 3 and bh >= 3 and n * 5 >= bw * bh
                and (best is None or n > best[0])):
            best = (n, x0, y0, bw, bh)
    return best


def _fade(p: bytes, out: bytearray) -> None:
    """The picture in light grey (pixelmatch's ``drawGrayPixel`` with alpha 0.1)."""
    for k in range(0, len(p), 4):
        r, g, b, a = p[k], p[k + 1], p[k + 2], p[k + 3]
        y = r * 0.29889531 + g * 0.58662247 + b * 0.11448223
        v = int(255 + (y - 255) * 0.1 * a / 255)
        out[k:k + 4] = bytes((v, v, v, 255))


def diff_png(expected: Picture, actual: Picture, threshold: float = THRESHOLD) -> bytes:
    """The diff picture of two pictures of one size, as a PNG (red: different)."""
    out = bytearray(expected.width * expected.height * 4)
    compare(expected, actual, threshold, blob_pixels=0, diff=out)
    return encode_png(Picture(expected.width, expected.height, bytes(out)))
