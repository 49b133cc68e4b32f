"""The library app: a second small web app, never tuned on, for the validation bench."""

from .app import LibraryApp
from .data import BOOKS, HOURS, READERS, Book
from .mutants import MUTANTS

__all__ = ["BOOKS", "HOURS", "MUTANTS", "READERS", "Book", "LibraryApp"]
