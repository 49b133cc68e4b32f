"""The report as one HTML file: no script, no server, no network; screenshots inlined."""

from __future__ import annotations

from html import escape
from typing import Any

STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.4em}table.sum td{padding:.1em .8em .1em 0}
.test{border:1px solid #ccc;border-radius:6px;margin:1em 0;padding:.5em 1em}
.test>h2{font-size:1.1em;margin:.3em 0}.passed>h2{color:#17692d}.failed>h2{color:#b00020}
.step{border-top:1px solid #eee;padding:.5em 0;display:flex;gap:1em}
.step .info{flex:1;min-width:0}.step img{width:320px;border:1px solid #ddd;align-self:start}
.step img.before{width:auto;max-width:240px;max-height:160px;margin:.2em 0}
.how{font-size:.8em;padding:.1em .4em;border-radius:3px;background:#eee}
.how.recorded{background:#fff2c6}.how.failed{background:#ffd6d6}.how.replayed{background:#dff3e4}
.how.unverified{background:#ffd9a8}.unverified-why{color:#8a4b00}
.fail{white-space:pre-wrap;background:#fff4f4;border-left:3px solid #b00020;padding:.4em}
pre{white-space:pre-wrap;max-height:20em;overflow:auto;background:#f6f6f6;padding:.4em}
ul{margin:.2em 0}.held{color:#17692d}.before{color:#777}.model{color:#555;font-size:.9em}
.pictures{display:flex;gap:.6em;flex-wrap:wrap;margin:.4em 0}.pictures figure{margin:0}
.pictures figcaption{font-size:.85em;color:#555}
.step .pictures img{width:auto;max-width:360px;border:1px solid #ddd}
"""


def render(tests: list[dict[str, Any]]) -> str:
    steps = [s for t in tests for s in t["steps"]]
    count = {how: sum(s["how"] == how for s in steps) for how in ("replayed", "recorded",
                                                                  "failed")}
    calls = [c for s in steps for c in s["calls"]]
    summary = (
        "<table class='sum'>"
        f"<tr><td>tests</td><td id='tests'>{len(tests)}</td></tr>"
        f"<tr><td>steps replayed</td><td id='replayed'>{count['replayed']}</td></tr>"
        f"<tr><td>steps recorded</td><td id='recorded'>{count['recorded']}</td></tr>"
        f"<tr><td>steps failed</td><td id='failed'>{count['failed']}</td></tr>"
        f"<tr><td>steps that verified nothing</td><td id='unverified'>"
        f"{sum(bool(s.get('unverified')) for s in steps)}</td></tr>"
        f"<tr><td>steps recorded over advice</td><td id='doubted'>"
        f"{sum(bool(s.get('doubted')) for s in steps)}</td></tr>"
        f"<tr><td>model calls</td><td id='calls'>"
        f"{sum(not c.get('error') for c in calls)}</td></tr>"
        f"<tr><td>tokens</td><td id='tokens'>{sum(c['tokens'] for c in calls)}</td></tr>"
        f"<tr><td>seconds waiting for the model</td><td id='model-seconds'>"
        f"{sum(c.get('seconds', 0) for c in calls):.1f}</td></tr>"
        f"<tr><td>model requests timed out</td><td id='timeouts'>"
        f"{sum(c.get('timeouts', 0) for c in calls)}</td></tr>"
        f"<tr><td>reply formats refused (json_schema)</td><td id='refusals'>"
        f"{sum(c.get('refusals', 0) for c in calls)}</td></tr>"
        "</table>")
    body = "".join(_test(t) for t in tests)
    return ("<!DOCTYPE html><html><head><meta charset='utf-8'>"
            "<title>pytest-webtask report</title>"
            f"<style>{STYLE}</style></head><body><h1>pytest-webtask report</h1>"
            f"{summary}{body}</body></html>\n")


def _test(t: dict[str, Any]) -> str:
    steps = "".join(_step(i, s) for i, s in enumerate(t["steps"], 1))
    return (f"<section class='test {escape(t['outcome'])}'><h2>{escape(t['test'])} — "
            f"{escape(t['outcome'])} ({t['seconds']:.2f}s)</h2>{steps}</section>")


def _step(n: int, s: dict[str, Any]) -> str:
    how = escape(s["how"])
    parts = [f"<div class='info'><b>Step {n}</b> {escape(s['kind'])}: "
             f"<q>{escape(s['text'])}</q> <span class='how {how}'>{how}</span> "
             f"{s['seconds']:.2f}s"]
    if s["calls"]:
        parts.append(f" <span class='model'>{_model_use(s['calls'])}</span>")
    if s.get("rules"):
        parts.append(f"<div class='rules'>agent rules that fired: "
                     f"{escape(', '.join(s['rules']))}</div>")
    if s.get("doubted"):
        parts.append(" <span class='how unverified'>doubted</span><div class='unverified-"
                     "why'>Recorded over advice that read the task's words ("
                     f"{escape(', '.join(s['doubted']))}): review whether its checks prove "
                     "the statement.</div>")
    if s.get("unverified"):
        parts.append(" <span class='how unverified'>unverified</span><div "
                     "class='unverified-why'>This step verified nothing: it has no check, or "
                     "only checks that held before it, so it passes whatever the page did."
                     "</div>")
    if s["actions"]:
        parts.append("<ul class='actions'>" + "".join(
            f"<li>{escape(a['tool'])} {escape(a['target'])} "
            f"<code>{escape(a['params']) if a['params'] != '{}' else ''}</code>"
            + (f"<br><img class='before' alt='before: {escape(a['target'])}' "
               f"src='data:image/jpeg;base64,{a['before']}'>" if a.get("before") else "")
            + "</li>" for a in s["actions"]) + "</ul>")
    if s["checks"]:
        parts.append("<ul class='checks'>" + "".join(
            f"<li class='{'before' if c['held_before'] else 'held'}'>"
            f"{'✓' if c['held'] else '✗'} {escape(c['says'])}"
            f"{' (held before the step)' if c['held_before'] else ''}</li>"
            for c in s["checks"]) + "</ul>")
    if s.get("pictures"):
        parts.append(_pictures(s["pictures"]))
    if s["how"] == "failed":
        parts.append(f"<div class='fail'>{escape(s['message'])}</div>")
    elif s["message"]:
        parts.append(f"<div class='message'>{escape(s['message'])}</div>")
    for i, c in enumerate(s["calls"], 1):
        said = (f"<div class='fail'>{escape(c['error'])}</div>" if c.get("error") else
                f"<pre class='reply'>{escape(c['reply'])}</pre>")
        parts.append(f"<details class='call'><summary>model call {i} "
                     f"({_model_use([c], calls_shown=False)})</summary>"
                     f"<pre class='prompt'>{escape(c['prompt'])}</pre>{said}</details>")
    parts.append("</div>")
    if s["shot"]:
        parts.append(f"<img class='shot' alt='the page after step {n}' "
                     f"src='data:image/jpeg;base64,{s['shot']}'>")
    return f"<div class='step {how}'>{''.join(parts)}</div>"


def _pictures(pictures: dict[str, str]) -> str:
    """A visual check's expected, actual and diff pictures, side by side."""
    return "<div class='pictures'>" + "".join(
        f"<figure class='{escape(name)}'><figcaption>{escape(name)}</figcaption>"
        f"<img alt='{escape(name)}' src='data:image/png;base64,{png}'></figure>"
        for name, png in pictures.items() if png) + "</div>"


def _model_use(calls: list[dict[str, Any]], *, calls_shown: bool = True) -> str:
    """What model calls cost: "3 model calls, 4500 tokens, 11.2s, 1 timed out"."""
    tokens = sum(c["tokens"] for c in calls)
    seconds = sum(c.get("seconds", 0) for c in calls)
    timeouts = sum(c.get("timeouts", 0) for c in calls)
    refusals = sum(c.get("refusals", 0) for c in calls)
    failed = sum(bool(c.get("error")) for c in calls)
    answered = len(calls) - failed
    parts = [f"{answered} model call{'s' if answered != 1 else ''}"] if calls_shown else []
    parts.append(f"{tokens} tokens")
    if seconds:
        parts.append(f"{seconds:.1f}s")
    if timeouts:
        parts.append(f"{timeouts} timed out")
    if refusals:
        parts.append(f"{refusals} refused json_schema")
    if failed and calls_shown:
        parts.append(f"{failed} failed")
    return ", ".join(parts)
