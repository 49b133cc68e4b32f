"""Element state: disabled and enabled buttons, ticked boxes, kept field values, a live
counter, and what the confirmation says about them.
"""

from __future__ import annotations

from pytest_webtask import WebTask

PASSWORD = "lovelace-1815"


def test_sign_in_button_waits_for_both_fields(webtask: WebTask) -> None:
    webtask.goto("/signin")
    webtask.check("the Sign in button is disabled")
    webtask.do("type the email {email}", email="ada@example.com")
    webtask.check("the Sign in button is still disabled")
    webtask.do("type the password", secrets={"password": PASSWORD})


def test_gift_wrap_kept_after_error(webtask: WebTask) -> None:
    webtask.goto("/")
    webtask.do("add the Wool Beanie to the cart")
    webtask.do("go to checkout as {name} ({email}) with gift wrap, leave the address empty "
               "and place the order", name="Ada Lovelace", email="ada@example.com")
    webtask.check("the gift wrap box is still ticked")


def test_gift_wrap_on_confirmation(webtask: WebTask) -> None:
    webtask.goto("/")
    webtask.do("add the Wool Beanie to the cart")
    webtask.do("check out as {name} ({email}), address {address}, gift wrapped with the "
               "message {message}", name="Ada Lovelace", email="ada@example.com",
               address="1 Analytical Row", message="Happy birthday!")
    webtask.check("the confirmation says the order is gift wrapped")


def test_gift_message_counter(webtask: WebTask) -> None:
    webtask.goto("/")
    webtask.do("add the Wool Beanie to the cart")
    webtask.do("go to checkout and write the gift message {message}", message="Happy birthday!")
