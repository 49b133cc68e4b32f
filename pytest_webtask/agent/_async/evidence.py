"""Turning the model's evidence (element ids, visible texts) into what a replay can check."""

from __future__ import annotations

from playwright.async_api import Error as PlaywrightError

from ...browser._async.llm_browser import AsyncLLMBrowser
from ...errors import BrowserError
from ..models import Evidence


async def resolve_evidence(browser: AsyncLLMBrowser, cited: list[str]) -> list[Evidence]:
    """Each citation as an element fingerprint (an id from the last page state) or a text,
    with ``found`` False when the page does not show it."""
    snapshot = browser.snapshot
    out: list[Evidence] = []
    for item in (c.strip() for c in cited):
        if snapshot is not None and item in snapshot.elements:
            try:
                fp = await browser.describe(item)
            except BrowserError:
                out.append(Evidence(cited=item, element_id=item, found=False))
                continue
            out.append(Evidence(cited=item, element_id=item, fingerprint=fp,
                                text=fp.text or fp.name or ""))
        else:
            out.append(Evidence(cited=item, text=item, found=await _text_visible(browser, item)))
    return out


async def _text_visible(browser: AsyncLLMBrowser, text: str) -> bool:
    if not text:
        return False
    try:
        if await browser.page.get_by_text(text).filter(visible=True).count() > 0:
            return True
        # as the page state shows it: text merged across inline and block pieces
        return " ".join(text.split()) in await browser.rendered_text()
    except PlaywrightError:
        return False
