"""The library's catalogue, opening hours and its one known reader: what tests compare with."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Book:
    id: int
    title: str
    author: str
    year: int
    shelf: str
    on_loan_until: str = ""  # "" when the book is on the shelf

    @property
    def availability(self) -> str:
        return f"On loan, due back {self.on_loan_until}" if self.on_loan_until else "Available"


BOOKS: tuple[Book, ...] = (
    Book(1, "The Night Orchard", "Ines Calder", 2019, "Fiction, F CAL"),
    Book(2, "Salt and Iron", "Helen Okafor", 2015, "Fiction, F OKA", "14 June"),
    Book(3, "A Short History of Bridges", "Tomas Reyes", 2008, "Non-fiction, 624.2 REY"),
    Book(4, "The Lantern Keeper's Daughter", "Maud Ellery", 1998, "Fiction, F ELL"),
    Book(5, "Gardening on Clay", "Priya Natarajan", 2021, "Non-fiction, 635 NAT", "2 July"),
    Book(6, "Winter Birds of the North", "Olaf Lindqvist", 2012, "Non-fiction, 598 LIN"),
    Book(7, "The Cartographer's Apprentice", "Jonah Whitlock", 2017, "Fiction, F WHI"),
    Book(8, "Cooking for One", "Delia Hart", 2010, "Non-fiction, 641.5 HAR"),
    Book(9, "Paper Moons", "Sofia Amaral", 2022, "Fiction, F AMA"),
    Book(10, "The Clockmaker's Secret", "Edwin Marsh", 1987, "Fiction, F MAR", "30 June"),
    Book(11, "Rivers Remember", "Amara Nwosu", 2020, "Non-fiction, 551.48 NWO"),
    Book(12, "Learning to Knit", "Beth Corrigan", 2005, "Non-fiction, 746.43 COR"),
)

HOURS: tuple[tuple[str, str], ...] = (
    ("Monday", "9:00 to 18:00"),
    ("Tuesday", "9:00 to 18:00"),
    ("Wednesday", "9:00 to 20:00"),
    ("Thursday", "9:00 to 18:00"),
    ("Friday", "9:00 to 17:00"),
    ("Saturday", "10:00 to 16:00"),
    ("Sunday", "closed"),
)

# email -> (password, first name)
READERS = {"mara@example.org": ("quiet-shelves-9", "Mara")}

NAME = "Alder Vale Public Library"
