"""Signing in: secrets never reach the model or the recipe."""

from __future__ import annotations

from pytest_webtask import WebTask

PASSWORD = "lovelace-1815"


def test_sign_in(webtask: WebTask) -> None:
    webtask.goto("/signin")
    webtask.do("sign in as {email}", email="ada@example.com", secrets={"password": PASSWORD})


def test_wrong_password_is_refused(webtask: WebTask) -> None:
    webtask.goto("/signin")
    webtask.do("try to sign in as {email} with the password {password}",
               email="ada@example.com", secrets={"password": "not-the-password"})
    webtask.check("the page says the email or password is wrong")
