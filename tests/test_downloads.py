"""Downloads: a step whose action downloads a file records a ``download`` check (a name of
the same shape, size bounds, the text a text, CSV or PDF file begins with), and a replay
checks the file it downloads, with no model. Each wrong file fails the replay."""

from __future__ import annotations

import re
import zlib
from pathlib import Path
from typing import Any

import pytest
import yaml
from playwright.sync_api import Browser

from pytest_webtask.browser.downloads import downloaded, pdf_text
from pytest_webtask.llm.request import ModelRequest
from pytest_webtask.testing import ScriptedLLM, open_webtask
from tests.server import LocalServer

CSV = b"id,item,qty,total\r\n1,Blue Oxford Shirt,1,39.00\r\n2,Shipping,1,3.00\r\nTotal,,,42.00\r\n"
OTHER_CSV = b"date,amount\r\n2026-11-26,42.00\r\n"


def pdf(*lines: str) -> bytes:
    """A one-page PDF showing ``lines`` in Helvetica, written by hand as a small generator
    writes one (objects, a Flate-compressed content stream, the cross-reference table): a
    PDF of another maker than Chromium's."""
    ops = b"BT /F1 12 Tf 72 720 Td " + b" 0 -16 Td ".join(
        b"(" + line.encode("latin-1").replace(b"(", b"\\(").replace(b")", b"\\)") + b") Tj"
        for line in lines) + b" ET"
    stream = zlib.compress(ops)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length " + str(len(stream)).encode() + b" /Filter /FlateDecode >>\nstream\n"
        + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    out, offsets = b"%PDF-1.4\n", []
    for n, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{n} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += (f"trailer << /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n"
            "%%EOF\n").encode()
    return out


PDF = pdf("Invoice 1042", "Blue Oxford Shirt (size M)", "Total: $42.00")


def line_id(page: str, pattern: str) -> str:
    found = re.search(r"^\s*- (?:\w+ > )*([a-z0-9-]+-\d+)\b[^\n]*" + pattern, page, re.MULTILINE)
    assert found, f"no line matches {pattern!r} in:\n{page}"
    return found.group(1)


class Downloading:
    """``do(task)`` on /invoices in a fresh context: the model clicks ``link`` and reports
    the task done citing ``evidence`` (none: the file is the outcome)."""

    def __init__(self, browser: Browser, server: LocalServer, tmp_path: Path, task: str,
                 link: str, evidence: list[Any] | None = None) -> None:
        self.browser, self.server, self.task, self.link = browser, server, task, link
        self.evidence = evidence or []
        self.recipe = tmp_path / "download.yaml"
        self.prompts: list[str] = []
        self.llm = ScriptedLLM(self.reply)

    def reply(self, context: ModelRequest) -> dict[str, Any]:
        self.prompts.append(context.to_text())
        if context.step == 1:
            page = context.blocks[-1].text
            return {"complete": False, "message": "download it", "actions": [
                {"reason": "download", "tool": "click",
                 "parameters": {"element_id": line_id(page, f'"{self.link}"')}}]}
        return {"complete": True, "message": "downloaded", "evidence": self.evidence}

    def serve(self, csv: bytes = CSV, pdf_file: bytes = PDF, csv_name: str = "invoice-1042.csv",
              pdf_name: str = "invoice-1042.pdf") -> None:
        self.server.files["/files/invoice-1042.csv"] = ("text/csv", csv_name, csv)
        self.server.files["/files/invoice-1042.pdf"] = ("application/pdf", pdf_name, pdf_file)

    def run(self, mode: str) -> None:
        context = self.browser.new_context()
        try:
            with open_webtask(context.new_page(), self.recipe, mode, base_url=self.server.url,
                              llm=self.llm if mode != "replay" else None, test_name="dl",
                              timeout=2.0) as task:
                task.goto("/invoices")
                task.do(self.task)
        finally:
            context.close()

    def fails(self, **served: Any) -> str:
        self.serve(**served)
        with pytest.raises(pytest.fail.Exception) as failure:
            self.run("replay")
        return str(failure.value)

    def check(self) -> dict[str, Any]:
        step = yaml.safe_load(self.recipe.read_text())["steps"][0]
        [check] = step["checks"]
        return dict(check)


def test_a_csv_download_records_a_check_and_replays(browser: Browser, server: LocalServer,
                                                    tmp_path: Path) -> None:
    flow = Downloading(browser, server, tmp_path, "download the invoice as CSV", "Download CSV")
    flow.serve()
    flow.run("record")
    # the model is shown what the file holds
    assert ("It downloaded invoice-1042.csv (82 bytes). Its text:\nid,item,qty,total\n"
            "1,Blue Oxford Shirt,1,39.00\n") in flow.prompts[1], flow.prompts[1]
    assert '{"expect": "download", "text": "<a part of its text' in flow.prompts[1]
    assert flow.check() == {"expect": "download", "download": {
        "name": r"invoice-\d+\.csv", "min_bytes": 41, "max_bytes": 1188,
        "contains": ["id,item,qty,total", "Total,,,"]}}
    flow.serve()
    flow.run("replay")  # no model
    # an invoice with another number and total is the same file
    flow.serve(csv=CSV.replace(b"42.00", b"45.00"), csv_name="invoice-1043.csv")
    flow.run("replay")

    where = "Replay failed. Step 1 do('download the invoice as CSV'), check 1: expected a " \
            r"download named /invoice-\d+\.csv/ of 41-1,188 bytes, containing " \
            "'id,item,qty,total' and 'Total,,,'\n  instead: the step downloaded "
    message = flow.fails(csv=PDF, csv_name="receipt.pdf")  # the wrong file
    assert where + "receipt.pdf (" in message and "its name does not match" in message, message
    message = flow.fails(csv=OTHER_CSV)  # the right name, another file
    assert where + "invoice-1042.csv (31 bytes): its size is out of bounds" in message, message
    message = flow.fails(csv=OTHER_CSV * 3)
    assert "invoice-1042.csv (93 bytes): it does not contain 'id,item,qty,total'" in message, \
        message
    message = flow.fails(csv=b"")
    assert "invoice-1042.csv (0 bytes): its size is out of bounds" in message, message


def test_a_link_that_no_longer_downloads_fails_the_replay(browser: Browser, server: LocalServer,
                                                          tmp_path: Path) -> None:
    flow = Downloading(browser, server, tmp_path, "download the invoice as CSV", "Download CSV")
    flow.serve()
    flow.run("record")
    flow.serve()
    del server.files["/files/invoice-1042.csv"]
    server.pages["/files/invoice-1042.csv"] = "<h1>Invoice 1042</h1><p>id,item,qty,total</p>"
    with pytest.raises(pytest.fail.Exception) as failure:
        flow.run("replay")
    assert "instead: no file was downloaded (within 2s)" in str(failure.value), failure.value


def test_a_pdf_download_checks_the_text_it_shows(browser: Browser, server: LocalServer,
                                                 tmp_path: Path) -> None:
    flow = Downloading(browser, server, tmp_path, "download the invoice as PDF", "Download PDF")
    flow.serve()
    flow.run("record")
    check = flow.check()["download"]
    assert check["name"] == r"invoice-\d+\.pdf"
    assert check["contains"] == ["Invoice", "Blue Oxford Shirt (size M)"]
    flow.serve()
    flow.run("replay")
    message = flow.fails(pdf_file=pdf("Credit note 1042", "Blue Oxford Shirt (size M)",
                                      "Total: -$42.00"))
    assert "invoice-1042.pdf (" in message and "it does not contain 'Invoice'" in message, \
        message
    message = flow.fails(pdf_file=b"%PDF-1.4\n%%EOF\n" + b" " * 500)  # no PDF to read
    assert "invoice-1042.pdf (515 bytes): it has no text to read" in message, message


def test_what_a_download_check_reads_of_a_file() -> None:
    assert pdf_text(PDF) == "Invoice 1042\nBlue Oxford Shirt (size M)\nTotal: $42.00"
    assert downloaded("a.pdf", b"%PDF-1.4\n%%EOF\n").text is None  # no PDF pypdf can read
    assert downloaded("a.csv", CSV).text == CSV.decode()
    assert downloaded("photo.png", b"\x89PNG\r\n\x1a\n\0\0").text is None
    assert downloaded("notes", "naïve café".encode()).text == "naïve café"


# -- what a file holds, as a statement names it ----------------------------------------------

INVOICES = (b"invoice,customer,amount\r\nINV-2040,Grace Hopper,87.00\r\n"
            b"INV-2041,Ada Lovelace,1234.50\r\nINV-2042,Alan Turing,99.00\r\n")
LISTS = "download the invoices as CSV; the CSV lists INV-2041 at $1,234.50"
CITED = {"expect": "download", "text": "INV-2041,Ada Lovelace,1234.50"}


def test_a_statement_about_a_csv_s_content_is_proven_from_it(
        browser: Browser, server: LocalServer, tmp_path: Path) -> None:
    flow = Downloading(browser, server, tmp_path, LISTS, "Download CSV", evidence=[CITED])
    flow.serve(csv=INVOICES)
    flow.run("record")
    assert "INV-2041,Ada Lovelace,1234.50" in flow.prompts[1]  # shown the file's text
    check = flow.check()["download"]
    assert check["contains"] == ["invoice,customer,amount", "INV-", CITED["text"]]
    flow.serve(csv=INVOICES)
    flow.run("replay")  # no model
    # another row's amount may change: the statement names INV-2041's
    flow.serve(csv=INVOICES.replace(b"99.00", b"98.00"))
    flow.run("replay")
    message = flow.fails(csv=INVOICES.replace(b"1234.50", b"1243.50"))
    assert ("invoice-1042.csv (113 bytes): it does not contain "
            "'INV-2041,Ada Lovelace,1234.50'") in message, message
    message = flow.fails(csv=INVOICES.replace(b"INV-2041,Ada", b"INV-2051,Ada"))
    assert "it does not contain 'INV-2041,Ada Lovelace,1234.50'" in message, message


def test_without_a_content_claim_a_changed_amount_is_not_seen(
        browser: Browser, server: LocalServer, tmp_path: Path) -> None:
    """The page variant above, with no claim: "download the invoices" proves a file of the
    same shape, its first lines up to a number; what it says is proven only when cited."""
    flow = Downloading(browser, server, tmp_path, "download the invoices as CSV",
                       "Download CSV")
    flow.serve(csv=INVOICES)
    flow.run("record")
    flow.serve(csv=INVOICES.replace(b"1234.50", b"1243.50"))
    flow.run("replay")


def test_a_content_claim_the_file_does_not_hold_is_refused(
        browser: Browser, server: LocalServer, tmp_path: Path) -> None:
    flow = Downloading(browser, server, tmp_path, LISTS, "Download CSV", evidence=[
        {"expect": "download", "text": "INV-2041 at $1,234.50"}])  # not as the file says it
    flow.serve(csv=INVOICES)
    with pytest.raises(pytest.fail.Exception, match="these claims do not hold on the page now"):
        flow.run("record")
    assert not flow.recipe.exists()
    # the model is told why, and what to cite instead
    [_, step] = flow.llm.calls[-2:]
    assert ("no downloaded file holds 'INV-2041 at $1,234.50' (downloaded: "
            "invoice-1042.csv (113 bytes)); cite a part of the file's text exactly") \
        in step.prompt, step.prompt[-3000:]


def chromium_pdf(browser: Browser, *lines: str) -> bytes:
    """A PDF printed by Chromium itself (``page.pdf()``), as a web app prints an invoice."""
    page = browser.new_page()
    try:
        page.set_content("<main style='font: 14px sans-serif'>"
                         + "".join(f"<p>{line}</p>" for line in lines) + "</main>")
        return page.pdf(format="A4")
    finally:
        page.close()


def test_a_chromium_printed_pdf_is_read(browser: Browser) -> None:
    data = chromium_pdf(browser, "Invoice INV-2041", "Ada Lovelace", "Total: $1,234.50")
    # its fonts are subsets whose text is read only through their ToUnicode tables
    assert b"/ToUnicode" in data
    assert pdf_text(data) == "Invoice INV-2041\nAda Lovelace\nTotal: $1,234.50"
    assert downloaded("invoice.pdf", data).text == pdf_text(data)


def test_a_statement_about_a_chromium_pdf_is_proven_from_it(
        browser: Browser, server: LocalServer, tmp_path: Path) -> None:
    printed = chromium_pdf(browser, "Invoice INV-2041", "Ada Lovelace", "Total: $1,234.50")
    flow = Downloading(browser, server, tmp_path, "download the invoice as PDF; its total "
                       "is $1,234.50", "Download PDF",
                       evidence=[{"expect": "download", "text": "Total: $1,234.50"}])
    flow.serve(pdf_file=printed)
    flow.run("record")
    assert "Its text:\nInvoice INV-2041\nAda Lovelace\nTotal: $1,234.50" in flow.prompts[1]
    assert flow.check()["download"]["contains"] == ["Invoice INV-", "Ada Lovelace",
                                                    "Total: $1,234.50"]
    flow.serve(pdf_file=printed)
    flow.run("replay")
    changed = chromium_pdf(browser, "Invoice INV-2041", "Ada Lovelace", "Total: $1,243.50")
    message = flow.fails(pdf_file=changed)
    assert "invoice-1042.pdf (" in message and "it does not contain 'Total: $1,234.50'" \
        in message, message


def _export(recipe: Path, folder: Path, server: LocalServer) -> tuple[str, Any]:
    """The recorded test exported (--webtask-export's writer), loaded as a module."""
    import importlib.util
    import sys

    from pytest_webtask.export.trail import Trail
    from pytest_webtask.export.writer import export
    from pytest_webtask.recipes.storage import load_recipe

    trail = Trail(recipe_folder=recipe.parent)
    trail.goto(server.url + "/invoices")
    trail.step(load_recipe(recipe).steps[0], {}, {}, {})
    path = export(trail, base_url=server.url, folder=folder, test_name="test_download",
                  module="test_files", origin="x")
    spec = importlib.util.spec_from_file_location(f"exported_{folder.name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return path.read_text(encoding="utf-8"), module


def test_a_download_check_exports_as_expect_download(browser: Browser, server: LocalServer,
                                                     tmp_path: Path) -> None:
    flow = Downloading(browser, server, tmp_path, LISTS, "Download CSV", evidence=[CITED])
    flow.serve(csv=INVOICES)
    flow.run("record")
    source, module = _export(flow.recipe, tmp_path / "exported", server)
    assert "pytest_webtask" not in source
    assert ("    with page.expect_download() as download_info:\n"
            "        page.get_by_role('link', name='Download CSV', exact=True).click()\n"
            "    download = download_info.value\n"
            "    assert re.fullmatch('invoice-\\\\d+\\\\.csv', download.suggested_filename), "
            "download.suggested_filename\n") in source, source
    assert "    assert 'INV-2041,Ada Lovelace,1234.50' in download_text\n" in source

    def run_exported(exported: Any) -> None:
        context = browser.new_context(base_url=server.url)
        try:
            exported.test_download(context.new_page())
        finally:
            context.close()

    run_exported(module)  # plain Playwright, no plugin: passes on the same file
    flow.serve(csv=INVOICES.replace(b"1234.50", b"1243.50"))
    with pytest.raises(AssertionError):
        run_exported(module)
    # a PDF, read by pypdf as the replay reads it
    printed = chromium_pdf(browser, "Invoice INV-2041", "Total: $1,234.50")
    (tmp_path / "pdf").mkdir()
    pdf_flow = Downloading(browser, server, tmp_path / "pdf", "download the invoice as PDF; "
                           "its total is $1,234.50", "Download PDF",
                           evidence=[{"expect": "download", "text": "Total: $1,234.50"}])
    pdf_flow.serve(pdf_file=printed)
    pdf_flow.run("record")
    source, module = _export(pdf_flow.recipe, tmp_path / "exported-pdf", server)
    assert "    assert 'Total: $1,234.50' in download_text\n" in source
    run_exported(module)
    pdf_flow.serve(pdf_file=chromium_pdf(browser, "Invoice INV-2041", "Total: $1,243.50"))
    with pytest.raises(AssertionError):
        run_exported(module)
