"""Every ``--webtask-*`` option and ``webtask_*`` ini value, in one help group, and the run's
settings built from them (the precedence itself lives in ``Settings.from_sources``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..errors import ConfigurationError
from ..settings import CLI_FIELDS, FIELDS, Mode, Settings

EXPORT_HELP = ("write each passing test that replays or records steps as a plain "
               "pytest-playwright test file in DIR (Playwright locators, expect assertions, "
               "variables as parameters, secrets from the environment variables "
               "WEBTASK_SECRET_<TEST>_<NAME> or WEBTASK_SECRET_<NAME>)")
REPORT_HELP = ("write one self-contained HTML file at PATH showing every step of the run: how "
               "it ran, its checks, a screenshot, the model's prompts and replies, failures")


def add_options(parser: pytest.Parser) -> None:
    group = parser.getgroup("webtask", "pytest-webtask: plain-English steps, recorded recipes")
    group.addoption("--webtask-record", action="store_true", default=False,
                    help="record the selected tests' steps again with the model, replacing "
                    "their recipes")
    group.addoption("--webtask-replay-only", action="store_true", default=False,
                    help="never call a model: a step without a recipe fails")
    group.addoption("--webtask-prune", action="store_true", default=False,
                    help="delete unused recipes and the unused steps at the end of recipes "
                    "(only when the whole suite was collected, selected and run)")
    group.addoption("--webtask-heal", nargs="?", const="on", default=None,
                    metavar="on|suggest|off", help=FIELDS["heal"][3])
    group.addoption("--webtask-model", default=None, help=FIELDS["model"][3])
    for name in CLI_FIELDS[1:]:
        group.addoption(f"--webtask-{name.replace('_', '-')}", type=FIELDS[name][0],
                        default=None, help=FIELDS[name][3])
    group.addoption("--webtask-strict", action="store_true", default=None,
                    help=FIELDS["strict"][3])
    group.addoption("--webtask-shard", default=None, metavar="i/n",
                    help="run only slice i of n of the selected tests (CI shards: every job "
                    "runs the same command with its own i); a shard reports no unused recipes")
    group.addoption("--webtask-export", metavar="DIR", default=None, help=EXPORT_HELP)
    group.addoption("--webtask-report", metavar="PATH", default=None, help=REPORT_HELP)
    for name, (_typ, _default, env, help_) in FIELDS.items():
        suffix = f" (env {env})" if env else ""
        parser.addini(f"webtask_{name}", help_ + suffix, default=None)
    parser.addini("webtask_export", EXPORT_HELP, default=None)
    parser.addini("webtask_report", REPORT_HELP, default=None)


def build(config: pytest.Config) -> Settings:
    """Settings for the run: CLI > ini > environment > defaults."""
    if config.getoption("webtask_record") and config.getoption("webtask_replay_only"):
        raise pytest.UsageError("--webtask-record and --webtask-replay-only exclude each other.")
    mode: Mode = "auto"
    if config.getoption("webtask_record"):
        mode = "record"
    elif config.getoption("webtask_replay_only"):
        mode = "replay"
    cli = {name: config.getoption(f"webtask_{name}") for name in (*CLI_FIELDS, "strict", "heal")}
    try:
        return Settings.from_sources(ini=lambda name: config.getini(f"webtask_{name}"),
                                     cli=cli, mode=mode)
    except ConfigurationError as exc:
        raise pytest.UsageError(str(exc)) from None


def path_option(config: pytest.Config, name: str) -> Path | None:
    """``--webtask-<name>`` or the ini's ``webtask_<name>``: a path, relative to where pytest
    was started; None when neither is set."""
    raw = config.getoption(f"webtask_{name}", None) or config.getini(f"webtask_{name}")
    if not raw:
        return None
    path = Path(raw)
    return path if path.is_absolute() else Path(config.invocation_params.dir) / path


def export_dir(config: pytest.Config) -> Path | None:
    """``--webtask-export``: where passing tests are written as plain pytest-playwright."""
    return path_option(config, "export")


def report_path(config: pytest.Config) -> Path | None:
    """``--webtask-report``: the HTML report's path."""
    return path_option(config, "report")


def parts_dir(path: Path) -> Path:
    """Where each test (on any xdist worker) leaves its report fragment for the controller."""
    return path.with_name(path.name + ".parts")
