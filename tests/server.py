"""A small local web server for the tests: static pages plus form and upload endpoints."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from pytest_webtask.testing import LoopbackServer

PAGES = Path(__file__).parent / "pages"


class LocalServer:
    """Serves tests/pages/*.html; records every POST in ``.posts`` as (path, fields, files)."""

    def __init__(self) -> None:
        self.posts: list[tuple[str, dict[str, str], dict[str, bytes]]] = []
        self.requests: list[str] = []
        self.pages: dict[str, str] = {}  # extra pages a test adds: path -> html
        self.redirects: dict[str, str] = {}  # path -> URL it redirects to (302)
        # path -> what a POST there answers (status, html) from its fields, instead of the echo
        self.answers: dict[str, Callable[[dict[str, str]], tuple[int, str]]] = {}
        # path -> a file a GET there downloads: (content type, file name, bytes)
        self.files: dict[str, tuple[str, str, bytes]] = {}
        self.delays: dict[str, float] = {}  # path -> seconds a GET there waits before answering
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802
                path = urlsplit(self.path).path
                outer.requests.append(path)
                if path in outer.delays:
                    time.sleep(outer.delays[path])
                if path in outer.redirects:
                    self.send_response(302)
                    self.send_header("Location", outer.redirects[path])
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                if path in outer.pages:
                    return self._send(200, outer.pages[path])
                if path in outer.files:
                    ctype, name, data = outer.files[path]
                    self.send_response(200)
                    self.send_header("Content-Type", ctype)
                    self.send_header("Content-Disposition", f'attachment; filename="{name}"')
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                    return
                name = "index.html" if path == "/" else path.lstrip("/")
                file = PAGES / name
                if not file.suffix:
                    file = file.with_suffix(".html")
                if file.is_file() and PAGES in file.resolve().parents:
                    return self._send(200, file.read_text(encoding="utf-8"))
                self._send(404, "<h1>Not found</h1>")

            def do_HEAD(self) -> None:  # noqa: N802 - redirects only; enough for the guard
                path = urlsplit(self.path).path
                outer.requests.append("HEAD " + path)
                self.send_response(302 if path in outer.redirects else 200)
                if path in outer.redirects:
                    self.send_header("Location", outer.redirects[path])
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_POST(self) -> None:  # noqa: N802
                path = urlsplit(self.path).path
                outer.requests.append(path)
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                ctype = self.headers.get("Content-Type", "")
                fields: dict[str, str] = {}
                files: dict[str, bytes] = {}
                if ctype.startswith("multipart/form-data"):
                    msg = BytesParser(policy=HTTP).parsebytes(
                        b"Content-Type: " + ctype.encode() + b"\r\n\r\n" + raw
                    )
                    for part in msg.iter_parts():
                        name = part.get_param("name", header="content-disposition")
                        payload = part.get_payload(decode=True) or b""
                        if part.get_filename():
                            files[f"{name}:{part.get_filename()}"] = payload
                        else:
                            fields[name] = payload.decode()
                else:
                    fields = {k: v[0] for k, v in parse_qs(raw.decode()).items()}
                outer.posts.append((path, fields, files))
                if path in outer.answers:
                    return self._send(*outer.answers[path](fields))
                body = "<h1>Success!</h1><p>Received: " + json.dumps(fields) + "</p>"
                if files:
                    body += "<p>Files: " + ", ".join(files) + "</p>"
                self._send(200, f"<html><body><div>{body}</div></body></html>")

            def _send(self, status: int, body: str) -> None:
                data = body.encode()
                self.send_response(status)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self._server = LoopbackServer(Handler)
        self.url = self._server.url

    def stop(self) -> None:
        self._server.stop()
