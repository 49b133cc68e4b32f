"""The ordinary app: a small staff site of ordinary UI patterns, for the recording bench
(issue 73)."""

from .app import OrdinaryApp
from .data import ANNOUNCEMENTS, ME, ORDERS, PRODUCTS, TEAM, fresh_tasks
from .mutants import MUTANTS

__all__ = ["ANNOUNCEMENTS", "ME", "MUTANTS", "ORDERS", "PRODUCTS", "TEAM", "OrdinaryApp",
           "fresh_tasks"]
