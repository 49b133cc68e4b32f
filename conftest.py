"""Repo-level set-up: launch a Chromium this machine has (Playwright's, else a system one)."""

from __future__ import annotations

import pytest

from pytest_webtask.browser.chromium import launch_args


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    return launch_args(browser_type_launch_args)

pytest_plugins = ["pytester"]
