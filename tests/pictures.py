"""Pictures a test run left behind, decoded, so a test can check what they show rather than
trust how they were made: PNG and JPEG through Chromium's own decoders (a canvas), videos
through ffmpeg (frames written as PNG, then decoded the same way).

The field under test is found in each picture by its border, a pure blue no other part of
the page has (pictures come in several sizes: a screenshot with a clip makes the screencast
send a frame of the clipped part), and its inside is read as grey levels. A masked field
shows a row of discs whatever it holds; a field showing its value shows glyphs. ``blobs``
tells them apart by shape: a disc is a small round blob, a glyph is tall, thin or wide.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Page

INK = 96  # grey levels: a pixel this much darker than white is ink, not noise
DIFFERENT = 96  # grey levels two pictures may differ by at one pixel before it counts


@dataclass(frozen=True)
class Crop:
    """The inside of the field in one picture, as grey levels (0 black .. 255 white):
    ``width`` x ``height`` bytes, row by row."""

    name: str
    width: int
    height: int
    data: bytes

    def at(self, x: int, y: int) -> int:
        return self.data[y * self.width + x]

    def inked(self, x: int) -> list[int]:
        return [y for y in range(self.height) if self.at(x, y) < 255 - INK]

    def blobs(self) -> list[tuple[int, int]]:
        """(width, height) of each run of columns holding ink, left to right."""
        out: list[tuple[int, int]] = []
        rows: list[int] = []
        width = 0
        for x in range(self.width + 1):
            ink = self.inked(x) if x < self.width else []
            if ink:
                rows += ink
                width += 1
            elif width:
                out.append((width, max(rows) - min(rows) + 1))
                rows, width = [], 0
        return out

    def not_discs(self) -> list[tuple[int, int]]:
        """The blobs that are no disc: taller than a third of the field, or not round."""
        return [(w, h) for w, h in self.blobs()
                if h > self.height / 3 or w > 1.5 * h + 2 or h > 1.5 * w + 2]

    def ink_span(self) -> float:
        """How far right ink reaches, as a share of the field's width."""
        right = max((x + 1 for x in range(self.width) if self.inked(x)), default=0)
        return right / self.width


FIELD_JS = """async ({images, inset}) => {
  const out = [];
  for (const [name, b64] of images) {
    const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes]));
    const c = new OffscreenCanvas(bitmap.width, bitmap.height);
    const g = c.getContext('2d');
    g.drawImage(bitmap, 0, 0);
    const all = g.getImageData(0, 0, bitmap.width, bitmap.height).data;
    const [x0, y0, x1, y1] = blue(all, bitmap.width, bitmap.height);
    if (x1 - x0 < 40 || y1 - y0 < 10) continue;  // the field is not in this picture
    const [x, y, w, h] = [x0 + inset, y0 + inset, x1 - x0 + 1 - 2 * inset,
                          y1 - y0 + 1 - 2 * inset];
    const d = g.getImageData(x, y, w, h).data;
    let grey = '';
    for (let i = 0; i < d.length; i += 4)
      grey += String.fromCharCode(Math.round(0.299 * d[i] + 0.587 * d[i + 1] + 0.114 * d[i + 2]));
    out.push([name, w, h, btoa(grey)]);
  }
  return out;

  // The box around the border's blue pixels (x0 > x1 if none): a function of its own, which
  // V8 optimises (inline in the loop above it ran 40x slower, 50 ms a frame).
  function blue(rgba, width, height) {
    const px = new Uint32Array(rgba.buffer, rgba.byteOffset, width * height);  // ABGR
    let x0 = Infinity, y0 = Infinity, x1 = -1, y1 = -1;
    for (let y = 0; y < height; y++) {
      const row = y * width;
      for (let x = 0; x < width; x++) {
        const p = px[row + x];
        if (((p >>> 16) & 255) > 150 && (p & 255) < 100 && ((p >>> 8) & 255) < 100) {
          if (x < x0) x0 = x;
          if (y < y0) y0 = y;
          if (x > x1) x1 = x;
          if (y > y1) y1 = y;
        }
      }
    }
    return [x0, y0, x1, y1];
  }
}"""


def field_crops(page: Page, images: dict[str, bytes], inset: int = 6) -> list[Crop]:
    """The inside of the blue-bordered field (``inset`` picture pixels in from the border's
    outer edge) in each picture that shows it."""
    found = page.evaluate(FIELD_JS, {
        "images": [[name, base64.b64encode(data).decode()] for name, data in images.items()],
        "inset": inset})
    return [Crop(name, w, h, base64.b64decode(grey)) for name, w, h, grey in found]


DIFF_JS = """async ([a, b, limit]) => {
  const load = async (b64) => {
    const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes]));
    const c = new OffscreenCanvas(bitmap.width, bitmap.height);
    const g = c.getContext('2d'); g.drawImage(bitmap, 0, 0);
    return g.getImageData(0, 0, bitmap.width, bitmap.height);
  };
  const [x, y] = [await load(a), await load(b)];
  if (x.width !== y.width || x.height !== y.height) return -1;
  let n = 0;
  for (let i = 0; i < x.data.length; i += 4)
    for (let k = 0; k < 3; k++)
      if (Math.abs(x.data[i + k] - y.data[i + k]) > limit) { n++; break; }
  return n;
}"""


def pixels_differing(page: Page, a: bytes, b: bytes) -> int:
    """How many pixels of two pictures of the same size differ (-1: sizes differ)."""
    return int(page.evaluate(DIFF_JS, [base64.b64encode(a).decode(),
                                       base64.b64encode(b).decode(), DIFFERENT]))


# -- videos ----------------------------------------------------------------------------------


def decoder() -> str | None:
    """An ffmpeg that decodes VP8: the one the imageio-ffmpeg package ships, or the PATH's."""
    try:
        import imageio_ffmpeg  # type: ignore[import-not-found]

        return str(imageio_ffmpeg.get_ffmpeg_exe())
    except (ImportError, RuntimeError):
        return shutil.which("ffmpeg")


def playwright_ffmpeg() -> Path:
    """Where Playwright looks for the ffmpeg it records videos with (Linux)."""
    import playwright

    browsers = Path(playwright.__file__).parent / "driver" / "package" / "browsers.json"
    revision = next(b["revision"] for b in json.loads(browsers.read_text())["browsers"]
                    if b["name"] == "ffmpeg")
    home = os.environ.get("PLAYWRIGHT_BROWSERS_PATH") or \
        str(Path.home() / ".cache" / "ms-playwright")
    return Path(home) / f"ffmpeg-{revision}" / "ffmpeg-linux"


def video_problem() -> str | None:
    """Why this machine can't record and decode a video, or None."""
    if not playwright_ffmpeg().exists():
        return (f"Playwright has no ffmpeg to record videos with ({playwright_ffmpeg()}); "
                "`bash scripts/dev.sh` links the one imageio-ffmpeg ships")
    if decoder() is None:
        return "no ffmpeg to decode videos with (pip install imageio-ffmpeg)"
    return None


def video_frames(video: Path) -> dict[str, bytes]:
    """Every frame of a video, as PNG."""
    exe = decoder()
    assert exe is not None, video_problem()
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([exe, "-v", "error", "-i", str(video), "-fps_mode", "passthrough",
                        str(Path(tmp) / "%05d.png")], check=True, timeout=120)
        return {f"{video.name}#{p.stem}": p.read_bytes() for p in sorted(Path(tmp).iterdir())}


def link_ffmpeg() -> str:
    """Give Playwright an ffmpeg to record videos with, where it has none: its own is a
    download from Playwright's servers (``playwright install ffmpeg``), which scripts/dev.sh
    can't reach, so the binary the imageio-ffmpeg package ships is linked in its place."""
    target = playwright_ffmpeg()
    if target.exists():
        return f"Playwright's ffmpeg: {target}"
    exe = decoder()
    if exe is None:
        return "no ffmpeg for Playwright: tests of --video recordings will be skipped"
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.is_symlink():  # left dangling by a virtual environment since removed
        target.unlink()
    target.symlink_to(exe)
    return f"linked {exe} as Playwright's ffmpeg ({target})"


if __name__ == "__main__":  # scripts/dev.sh: python -m tests.pictures
    print("==> " + link_ffmpeg())
