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
    """A one-page PDF showing ``lines``, its content stream Flate-compressed."""
    ops = b"BT /F1 12 Tf 72 720 Td " + b" 0 -16 Td ".join(
        b"(" + line.encode("latin-1").replace(b"(", b"\\(").replace(b")", b"\\)") + b") Tj"
        for line in lines) + b" ET"
    stream = zlib.compress(ops)
    return (b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n"
            b"2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n"
            b"3 0 obj << /Type /Page /Parent 2 0 R /Contents 4 0 R >> endobj\n"
            b"4 0 obj << /Length " + str(len(stream)).encode() + b" /Filter /FlateDecode >>\n"
            b"stream\n" + stream + b"\nendstream\nendobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")


PDF = pdf("Invoice 1042", "Blue Oxford Shirt (size M)", "Total: $42.00")


def line_id(page: str, pattern: str) -> str:
    found = re.search(r"^\s*- (?:\w+ > )*([a-z0-9-]+-\d+)\b[^\n]*" + pattern, page, re.MULTILINE)
    assert found, f"no line matches {pattern!r} in:\n{page}"
    return found.group(1)


class Downloading:
    """``do(task)`` on /invoices in a fresh context: the model clicks ``link`` and reports
    the task done citing nothing (the file is the outcome)."""

    def __init__(self, browser: Browser, server: LocalServer, tmp_path: Path, task: str,
                 link: str) -> None:
        self.browser, self.server, self.task, self.link = browser, server, task, link
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
        return {"complete": True, "message": "downloaded", "evidence": []}

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
    assert ("It downloaded invoice-1042.csv (82 bytes), whose text begins "
            "'id,item,qty,total'.") in flow.prompts[1], flow.prompts[1]
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
    message = flow.fails(pdf_file=b"%PDF-1.4\n%%EOF\n" + b" " * 200)  # no text at all
    assert "it does not contain 'Invoice'" in message, message


def test_what_a_download_check_reads_of_a_file() -> None:
    assert pdf_text(PDF) == "Invoice 1042\nBlue Oxford Shirt (size M)\nTotal: $42.00"
    assert downloaded("a.csv", CSV).text == CSV.decode()
    assert downloaded("photo.png", b"\x89PNG\r\n\x1a\n\0\0").text is None
    assert downloaded("notes", "naïve café".encode()).text == "naïve café"
