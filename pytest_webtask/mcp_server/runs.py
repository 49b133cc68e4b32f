"""The processes ``webtask mcp`` starts: pytest (recording, healing, replaying) and
``webtask explore``, each exactly as a person would start it, in the project's folder with the
project's configuration; those that need a model get the bridge (the coding agent) as theirs.
Their output goes to a log file: this process's stdout is the MCP channel."""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from .bridge import ModelBridge, Parked

# what would give a replay a model: never passed to one (CI rules)
MODEL_ENV = ("WEBTASK_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY", "WEBTASK_LLM_TIMEOUT",
             "WEBTASK_LLM_RETRIES", "WEBTASK_RESPONSE_FORMAT")


@dataclass
class Finished:
    """A process that ended: its exit code and output."""

    returncode: int
    output: str
    seconds: float


@dataclass
class Run:
    """A process started with ``args`` (after ``python``); with a ``bridge``, its model
    requests are parked there for the coding agent."""

    what: str
    args: list[str]
    cwd: Path
    bridge: ModelBridge | None = None
    env: dict[str, str | None] = field(default_factory=dict)
    started: float = field(default_factory=time.monotonic)
    current: Parked | None = None  # the request the agent answers next
    previous: Parked | None = None
    finished: Finished | None = None

    async def start(self) -> None:
        env = dict(os.environ)
        env.pop("PYTEST_ADDOPTS", None)
        if self.bridge is not None:
            env.pop("CI", None)  # a model is asked only outside CI
            env.update(self.bridge.env())
        for key, value in self.env.items():
            if value is None:
                env.pop(key, None)
            else:
                env[key] = value
        self._log = tempfile.TemporaryFile(mode="w+", encoding="utf-8")
        self._proc = await asyncio.create_subprocess_exec(
            sys.executable, *self.args, cwd=self.cwd, env=env, stdin=asyncio.subprocess.DEVNULL,
            stdout=self._log, stderr=asyncio.subprocess.STDOUT)
        self._waiter = asyncio.ensure_future(self._proc.wait())

    async def next(self, timeout: float = 600) -> Parked | Finished | None:
        """The next request for the agent, the end of the process, or None after
        ``timeout`` seconds of neither (still working)."""
        if self.current is not None and not self.current.answered:
            return self.current
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.bridge is not None:
                parked = await asyncio.to_thread(self.bridge.next, 0.2)
                if parked is not None:
                    self.previous, self.current = self.current, parked
                    return parked
            else:
                await asyncio.sleep(0.2)
            if self._waiter.done():
                return self._finish()
        return None

    async def wait(self) -> Finished:
        await self._waiter
        return self._finish()

    def _finish(self) -> Finished:
        if self.finished is None:
            self._log.seek(0)
            self.finished = Finished(self._waiter.result(), self._log.read(),
                                     time.monotonic() - self.started)
            self._log.close()
            if self.bridge is not None:
                self.bridge.close()
        return self.finished

    async def stop(self) -> None:
        """End the process (the agent opened something else, or went away)."""
        if self.finished is None:
            if self._proc.returncode is None:
                self._proc.terminate()
            try:
                await asyncio.wait_for(asyncio.shield(self._waiter), 10)
            except asyncio.TimeoutError:
                self._proc.kill()
                await self._waiter
            self._finish()


    def kill(self) -> None:
        """End the process now, from outside its event loop (this server is exiting)."""
        try:
            self._proc.kill()
        except (ProcessLookupError, RuntimeError, AttributeError):
            pass


def tail(output: str, lines: int = 60) -> str:
    kept = output.rstrip().splitlines()
    cut = len(kept) - lines
    return (f"[... {cut} lines cut]\n" if cut > 0 else "") + "\n".join(kept[-lines:])
