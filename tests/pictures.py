"""Pictures a test run left behind, decoded, so a test can check what they show rather than
trust how they were made: PNG and JPEG through Chromium's own decoders (a canvas), videos
through ffmpeg (frames written as PNG, then decoded the same way).

A field's region is compared as grey levels (0 black .. 255 white): a picture shows nothing
of a value when that region is explained by another run's picture of the field, a run that
typed a different value of the same length (see ``explained``).
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

DARK = 96  # grey levels: a pixel this much darker than white is ink, not noise
DIFFERENT = 96  # grey levels two pictures may differ by at one pixel before it counts


@dataclass(frozen=True)
class Box:
    """A rectangle in CSS pixels of the page (the viewport's coordinates)."""

    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class Crop:
    """A grey picture of a box: ``width`` x ``height`` bytes, row by row."""

    name: str
    width: int
    height: int
    data: bytes

    def at(self, x: int, y: int) -> int:
        return self.data[y * self.width + x]

    def uniform(self) -> bool:
        """One flat tone (a blank or black frame, before a page paints): shows nothing."""
        return max(self.data) - min(self.data) <= DARK

    def inked_columns(self) -> int:
        """How far right ink reaches (0: blank)."""
        last = 0
        for x in range(self.width):
            if any(self.at(x, y) < 255 - DARK for y in range(self.height)):
                last = x + 1
        return last


CROP_JS = """async ({images, box, cssWidth, inset}) => {
  const out = [];
  for (const [name, b64] of images) {
    const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes]));
    const s = bitmap.width / cssWidth;
    const x = Math.round(box.x * s) + inset, y = Math.round(box.y * s) + inset;
    const w = Math.round(box.width * s) - 2 * inset, h = Math.round(box.height * s) - 2 * inset;
    const c = new OffscreenCanvas(bitmap.width, bitmap.height);
    const g = c.getContext('2d');
    g.drawImage(bitmap, 0, 0);
    const d = g.getImageData(x, y, w, h).data;
    let grey = '';
    for (let i = 0; i < d.length; i += 4)
      grey += String.fromCharCode(Math.round(0.299 * d[i] + 0.587 * d[i + 1] + 0.114 * d[i + 2]));
    out.push([name, w, h, btoa(grey)]);
  }
  return out;
}"""


def crops(page: Page, images: dict[str, bytes], box: Box, css_width: int = 1280,
          inset: int = 3) -> list[Crop]:
    """The region ``box`` of each picture (scaled from a page ``css_width`` wide to the
    picture's width), ``inset`` picture pixels inside it, as grey levels."""
    found = page.evaluate(CROP_JS, {
        "images": [[name, base64.b64encode(data).decode()] for name, data in images.items()],
        "box": vars(box), "cssWidth": css_width, "inset": inset})
    return [Crop(name, w, h, base64.b64decode(grey)) for name, w, h, grey in found]


def explained(shot: Crop, full: Crop) -> bool:
    """Does ``shot`` show nothing but a left part of ``full`` with blank after it?

    ``full`` is the field as another run left it (its longest picture): a masked field shows
    a row of identical discs whatever the value, so every picture of it, typed in full or in
    part, is explained by the other run's discs. A field showing its value is not: the other
    run's value differs in every character."""
    if shot.uniform():
        return True
    if (shot.width, shot.height) != (full.width, full.height):
        return False
    start = shot.width
    for x in range(shot.width):
        if sum(abs(shot.at(x, y) - full.at(x, y)) > DIFFERENT
               for y in range(shot.height)) > 1:
            start = x
            break
    return all(sum(shot.at(x, y) < 255 - DARK for y in range(shot.height)) <= 1
               for x in range(start, shot.width))


def unexplained(shots: list[Crop], others: list[Crop]) -> list[str]:
    """The names of ``shots`` that ``others``' fullest picture does not explain."""
    full = max((c for c in others if not c.uniform()), key=Crop.inked_columns)
    return [shot.name for shot in shots if not explained(shot, full)]


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
