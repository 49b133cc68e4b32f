"""--webtask-report: one HTML file for the run, opened in Chromium and read like a person
would: the summary, every step with its screenshot, the model's prompts, a failure's
expected and found, and no secret anywhere (fields that hold one are masked in the
screenshots)."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.example_run import ExampleRun, recipe_steps
from tests.plugin.conftest import DEFAULT_SCRIPTS, Inner
from tests.plugin.conftest import inner_process as inner_process  # the pytester project

SECRET = "lovelace-1815"

# Pixels of Playwright's mask colour (#FF00FF) in an image of the report, read back through
# a canvas: JPEG shifts colours a little, so "clearly magenta".
MAGENTA = """img => {
  const c = document.createElement('canvas');
  c.width = img.naturalWidth; c.height = img.naturalHeight;
  const g = c.getContext('2d'); g.drawImage(img, 0, 0);
  const d = g.getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i] > 200 && d[i + 1] < 90 && d[i + 2] > 200) n++;
  return n;
}"""


RED = MAGENTA.replace("d[i] > 200 && d[i + 1] < 90 && d[i + 2] > 200",
                      "d[i] > 180 && d[i + 1] < 70 && d[i + 2] < 90")


def test_the_example_suites_report_shows_every_step_with_a_screenshot(
        example_run: ExampleRun, page: Page) -> None:
    assert example_run.returncode == 0, example_run.failure()
    path, out = example_run.report, example_run.stdout
    assert f"webtask report: {path} (" in out  # one file, written by the xdist controller
    assert not path.with_name(path.name + ".parts").exists()
    html = path.read_text(encoding="utf-8")
    assert SECRET not in html
    assert "<script" not in html and "http" not in html.replace("http://127.0.0.1", "")
    cases = example_run.cases()
    replayed = sum(c.stats().get("replayed", 0) for c in cases)
    assert replayed > 0
    page.goto(path.as_uri())
    assert page.locator("#tests").inner_text() == str(len(cases))
    assert page.locator("#replayed").inner_text() == str(replayed)
    assert page.locator("#recorded").inner_text() == "0"
    assert page.locator("#calls").inner_text() == "0"
    assert page.locator("section.test").count() == len(cases)
    assert page.locator("section.test.passed").count() == len(cases)
    steps = page.locator(".step.replayed")
    assert steps.count() == replayed
    assert page.locator(".step.replayed img.shot").count() == replayed
    widths = page.locator("img.shot").evaluate_all("imgs => imgs.map(i => i.naturalWidth)")
    assert min(widths) > 100  # real images, decoded by the browser
    test = page.locator("section.test", has_text="test_sign_in_button_waits_for_both_fields")
    email = test.locator(".step", has_text="type the email")
    password = test.locator(".step", has_text="type the password")
    assert 'fill textbox "Email" {"value": "{email}"}' in email.inner_text()
    assert "{password}" in password.inner_text()
    # the password field is masked in the screenshot after it was typed; the email step's
    # page (no secret yet) has no mask at all
    assert password.locator("img.shot").evaluate(MAGENTA) > 200
    assert email.locator("img.shot").evaluate(MAGENTA) == 0
    # before each replayed action, the part of the page around its target, the target boxed
    actions = sum(len(step.get("actions") or []) for step in recipe_steps())
    assert page.locator("ul.actions li").count() == actions > 0
    assert page.locator("ul.actions li img.before").count() == actions
    assert email.locator("img.before").evaluate(RED) > 50


def test_a_recording_and_a_failed_replay_in_the_report(inner_process: Inner, page: Page) -> None:
    """Recorded and replayed under xdist: the workers' steps, prompts and failures reach
    the controller's one file."""
    inner = inner_process
    inner.tests('''
import os


def test_add(webtask):
    webtask.goto("/")
    webtask.do("add the Blue Oxford Shirt in size M to the cart")
    webtask.check("the cart total is $39.00")


def test_sign_in(webtask):
    webtask.goto("/signin")
    webtask.do("sign in as {email}", email="ada@example.com",
               secrets={"password": os.environ["SHOP_PASSWORD"]})
''')
    inner.scripts(DEFAULT_SCRIPTS)
    report = inner.path / "out" / "report.html"
    first = inner.run("-n", "2", f"--webtask-report={report}",
                      env={"SHOP_PASSWORD": SECRET})
    first.assert_outcomes(passed=2)
    assert SECRET not in report.read_text(encoding="utf-8")
    page.goto(report.as_uri())
    assert page.locator("#recorded").inner_text() == "3"
    # as scripted: two replies to add the shirt, one for the total, two to sign in
    assert page.locator("#calls").inner_text() == "5"
    assert page.locator("details.call").count() == 5
    sign_in = page.locator(".step", has_text="sign in as {email}")
    prompt = sign_in.locator("pre.prompt").first.text_content() or ""
    assert "sign in as {email}" in prompt and "Password" in prompt
    assert '"tool": "fill"' in (sign_in.locator("pre.reply").first.text_content() or "")

    # the recorded total changes: the replay must fail, and the report shows both sides
    recipe = inner.recipe("test_add")
    recipe.write_text(recipe.read_text().replace("Total: $39.00", "Total: $41.00"))
    second = inner.run("-n", "2", f"--webtask-report={report}",
                       env={"SHOP_PASSWORD": SECRET, "CI": "1", "FORBID_LLM": "1"})
    second.assert_outcomes(passed=1, failed=1)
    html = report.read_text(encoding="utf-8")
    assert SECRET not in html
    page.goto(report.as_uri())
    assert page.locator("#failed").inner_text() == "1"
    assert page.locator("#calls").inner_text() == "0"
    failed = page.locator(".step.failed")
    assert failed.count() == 1
    text = failed.locator(".fail").inner_text()
    assert "Total: $41.00" in text and "Total: $39.00" in text  # expected, and what was found
    assert failed.locator("img.shot").count() == 1
    assert page.locator("section.test.failed h2").inner_text().startswith("test_shop.py::test_add")


def test_a_target_s_picture_is_the_region_around_it_scrolled_into_view_frames_too(
        page: Page) -> None:
    """The report's picture before an action: the target scrolled into view, boxed, and the
    region around it (its box read in one round trip in the page's own document, by
    Playwright in a frame's); none for a target with no box."""
    import base64

    from pytest_webtask.report._sync.shots import MARGIN, report_clip, report_shot
    from pytest_webtask.types import Secrets

    page.set_content('<div style="height:1500px">x</div><button id=m>Main</button><iframe '
                     'srcdoc="<div style=height:900px></div><button>In</button>" '
                     'style="margin-left:300px;height:300px"></iframe>')
    for target in (page.locator("#m"), page.frame_locator("iframe").locator("button")):
        clip = report_clip(page, target)
        box = target.bounding_box()  # in view now, as the clip was taken
        assert box is not None and clip is not None
        assert clip["x"] == max(box["x"] - MARGIN[0], 0)
        assert clip["y"] == max(box["y"] - MARGIN[1], 0)
        assert clip["x"] + clip["width"] >= box["x"] + box["width"]
        assert clip["y"] + clip["height"] >= box["y"] + box["height"]
    shot = report_shot(page, Secrets(), page.locator("#m"))
    assert shot is not None
    img = "data:image/jpeg;base64," + base64.b64encode(shot).decode()
    page.set_content(f'<img src="{img}">')
    boxed = f"async (i) => {{ await i.decode(); return ({RED})(i); }}"
    assert page.locator("img").evaluate(boxed) > 50  # the target's red box
    page.set_content('<button style="display:none">h</button>')
    assert report_clip(page, page.locator("button")) is None
