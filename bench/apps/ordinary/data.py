"""The ordinary app's data: products, orders, the team, announcements and the tasks a fresh
app starts with. What the app serves and what its tests compare with."""

from __future__ import annotations

from dataclasses import dataclass

NAME = "Fernhill Outfitters"
ME = "Sam Ortiz"  # the one signed-in user
ME_EMAIL = "sam.ortiz@fernhill.example"


@dataclass(frozen=True)
class Product:
    id: int
    name: str
    category: str  # a CATEGORIES slug
    price: str


CATEGORIES: tuple[tuple[str, str], ...] = (
    ("jackets", "Jackets"), ("boots", "Boots"), ("backpacks", "Backpacks"),
    ("tents", "Tents"), ("accessories", "Accessories"),
)

# The catalogue in its shop order (30: the first page of "All products" holds 24).
PRODUCTS: tuple[Product, ...] = (
    Product(1, "Storm Shell Jacket", "jackets", "£149.00"),
    Product(2, "Ridge Walking Boots", "boots", "£119.00"),
    Product(3, "Daypack 22", "backpacks", "£54.00"),
    Product(4, "Two-Person Dome Tent", "tents", "£189.00"),
    Product(5, "Merino Hiking Socks", "accessories", "£14.00"),
    Product(6, "Down Jacket", "jackets", "£179.00"),
    Product(7, "Trail Running Shoes", "boots", "£95.00"),
    Product(8, "Alpine Pack 45", "backpacks", "£129.00"),
    Product(9, "Solo Ridge Tent", "tents", "£139.00"),
    Product(10, "Fleece Jacket", "jackets", "£59.00"),
    Product(11, "Winter Snow Boots", "boots", "£135.00"),
    Product(12, "Roll-Top Dry Bag", "backpacks", "£32.00"),
    Product(13, "Headtorch 300", "accessories", "£29.00"),
    Product(14, "Packable Rain Jacket", "jackets", "£69.00"),
    Product(15, "Approach Shoes", "boots", "£109.00"),
    Product(16, "Family Tunnel Tent", "tents", "£329.00"),
    Product(17, "Hydration Pack 12", "backpacks", "£48.00"),
    Product(18, "Softshell Jacket", "jackets", "£89.00"),
    Product(19, "Insulated Bottle", "accessories", "£22.00"),
    Product(20, "Leather Hiking Boots", "boots", "£159.00"),
    Product(21, "Ultralight Trekking Tent", "tents", "£259.00"),
    Product(22, "Travel Pack 40", "backpacks", "£99.00"),
    Product(23, "Insulated Jacket", "jackets", "£129.00"),
    Product(24, "Trekking Poles", "accessories", "£45.00"),
    Product(25, "Gaiters", "boots", "£27.00"),
    Product(26, "Kids' Rucksack 15", "backpacks", "£28.00"),
    Product(27, "Trail Beanie", "accessories", "£16.00"),
    Product(28, "Windproof Jacket", "jackets", "£75.00"),
    Product(29, "Bivvy Shelter", "tents", "£99.00"),
    Product(30, "Sun Hat", "accessories", "£19.00"),
)

PRODUCTS_PER_PAGE = 24

STATUSES = ("Pending", "Shipped", "Delivered", "Cancelled")


@dataclass(frozen=True)
class Order:
    number: int
    customer: str
    date: str
    status: str
    total: str


_CUSTOMERS = ("Ada Lovelace", "Ben Okoro", "Carla Mendes", "Dev Patel", "Elena Rossi",
              "Farid Haddad", "Grace Kim", "Hugo Laurent", "Isla Murray", "Jon Aas")
# 40 orders, newest first: 18 pending, 14 shipped, 5 delivered, 3 cancelled, mixed so that
# every page of the unfiltered table holds orders of several statuses.
_STATUS_ORDER = "PPSPSDPPSPCSPPSDPSPPSPCSPDPSPSPSDSPCDSPS"
_STATUS = {"P": "Pending", "S": "Shipped", "D": "Delivered", "C": "Cancelled"}

ORDERS: tuple[Order, ...] = tuple(
    Order(number=1040 - i, customer=_CUSTOMERS[(i * 3) % len(_CUSTOMERS)],
          date=f"2026-11-{30 - (i * 29) // 40:02d}", status=_STATUS[code],
          total=f"£{(37 + (i * 53) % 260)}.{(i * 7) % 10}0")
    for i, code in enumerate(_STATUS_ORDER))

ORDERS_PER_PAGE = 15


@dataclass(frozen=True)
class Member:
    name: str
    role: str
    email: str


TEAM: tuple[Member, ...] = (
    Member("Sam Ortiz", "Office manager", "sam.ortiz@fernhill.example"),
    Member("Priya Natarajan", "Buyer, footwear", "priya.natarajan@fernhill.example"),
    Member("Jonas Berg", "Warehouse lead", "jonas.berg@fernhill.example"),
    Member("Mei Tanaka", "Customer service", "mei.tanaka@fernhill.example"),
    Member("Liam O'Connor", "Web shop editor", "liam.oconnor@fernhill.example"),
    Member("Amara Nwosu", "Finance", "amara.nwosu@fernhill.example"),
    Member("Tomasz Nowak", "Warehouse", "tomasz.nowak@fernhill.example"),
    Member("Hannah Weiss", "Buyer, clothing", "hannah.weiss@fernhill.example"),
    Member("Diego Alvarez", "Customer service", "diego.alvarez@fernhill.example"),
    Member("Sofia Lind", "Marketing", "sofia.lind@fernhill.example"),
    Member("Kwame Mensah", "Warehouse", "kwame.mensah@fernhill.example"),
    Member("Ruth Ellison", "Director", "ruth.ellison@fernhill.example"),
)

ANNOUNCEMENTS: tuple[dict[str, str], ...] = (
    {"title": "Office closed on 24 December", "date": "2026-11-27", "author": "Ruth Ellison",
     "body": "The office and the warehouse close at noon on 23 December and open again on "
             "27 December. Orders placed in between ship on the 27th."},
    {"title": "New coffee machine in the kitchen", "date": "2026-11-20",
     "author": "Sam Ortiz",
     "body": "It grinds its own beans. Please empty the drip tray when the light comes on."},
    {"title": "Stocktake on Saturday 5 December", "date": "2026-11-14",
     "author": "Jonas Berg",
     "body": "Everyone in the warehouse from 8:00. Lunch is on us."},
)


@dataclass
class Task:
    id: int
    title: str
    assignee: str
    due: str  # ISO date


def fresh_tasks() -> list[Task]:
    """The task list a fresh app starts with (8 tasks, 3 of them Sam Ortiz's)."""
    return [
        Task(1, "Water the plants", "Jonas Berg", "2026-12-04"),
        Task(2, "Book the venue", ME, "2026-12-10"),
        Task(3, "Call the courier", ME, "2026-12-03"),
        Task(4, "Renew the parking permit", "Priya Natarajan", "2026-12-15"),
        Task(5, "Empty the dishwasher", "Mei Tanaka", "2026-12-02"),
        Task(6, "Send the invoices", ME, "2026-12-08"),
        Task(7, "Update the price list", "Hannah Weiss", "2026-12-11"),
        Task(8, "Order more packing tape", "Kwame Mensah", "2026-12-07"),
    ]
