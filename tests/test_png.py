"""The PNG reader (recipes/pixels.py) against PNGs written with each of the five row
filters, the way the PNG specification defines them, on pixels that make every filter's
arithmetic wrap (bytes near 0 and 255). Fast tier: no browser."""

from __future__ import annotations

import random
import struct
import zlib

import pytest

from pytest_webtask.recipes.pixels import SIGNATURE, PictureError, decode_png


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def _filtered(kind: int, row: bytes, prev: bytes, bpp: int) -> bytes:
    """``row`` filtered with ``kind``, byte by byte as the specification says."""
    out = bytearray()
    for i, x in enumerate(row):
        a = row[i - bpp] if i >= bpp else 0
        b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
        predictor = [0, a, b, (a + b) >> 1, _paeth(a, b, c)][kind]
        out.append((x - predictor) & 0xFF)
    return bytes(out)


def _png(width: int, height: int, pixels: bytes, channels: int, kinds: list[int]) -> bytes:
    stride = width * channels
    prev, raw = bytes(stride), b""
    for y in range(height):
        row = pixels[y * stride:(y + 1) * stride]
        kind = kinds[y % len(kinds)]
        raw += bytes([kind]) + _filtered(kind, row, prev, channels)
        prev = row
    return _file(width, height, channels, raw)


def _file(width: int, height: int, channels: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))

    colour = 6 if channels == 4 else 2
    header = struct.pack(">IIBBBBB", width, height, 8, colour, 0, 0, 0)
    return (SIGNATURE + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw))
            + chunk(b"IEND", b""))


@pytest.mark.parametrize("channels", [3, 4])
@pytest.mark.parametrize("kinds", [[0], [1], [2], [3], [4], [0, 1, 2, 3, 4, 2, 2, 1]],
                         ids=["none", "sub", "up", "average", "paeth", "mixed"])
def test_each_filter_reads_back_the_pixels_it_wrote(channels: int, kinds: list[int]) -> None:
    rng = random.Random(channels * 10 + len(kinds) + kinds[0])
    width, height = 37, 9
    # bytes near both ends, so every sum and difference wraps somewhere
    pixels = bytes(rng.choice([0, 1, 2, 127, 128, 129, 253, 254, 255, rng.randrange(256)])
                   for _ in range(width * height * channels))
    picture = decode_png(_png(width, height, pixels, channels, kinds))
    assert (picture.width, picture.height) == (width, height)
    if channels == 4:
        assert picture.rgba == pixels
    else:
        rgba = bytearray(width * height * 4)
        rgba[0::4], rgba[1::4], rgba[2::4] = pixels[0::3], pixels[1::3], pixels[2::3]
        rgba[3::4] = b"\xff" * (width * height)
        assert picture.rgba == bytes(rgba)


def test_a_wide_sub_row_sums_past_two_bytes() -> None:
    """A row of 4,000 pixels of 255 under Sub: the running sums pass 65,535 (the reader
    keeps only their lowest byte)."""
    width = 4000
    pixels = b"\xff\xff\xff\xff" * width
    assert decode_png(_png(width, 1, pixels, 4, [1])).rgba == pixels


def test_an_unknown_filter_is_a_clear_error() -> None:
    raw = b"\x07" + b"\x00" * 8  # a row of two RGBA pixels under filter type 7: none such
    with pytest.raises(PictureError, match="unknown filter"):
        decode_png(_file(2, 1, 4, raw))
