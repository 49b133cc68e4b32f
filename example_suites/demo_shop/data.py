"""The shop's catalogue: the single source of truth tests compare against."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Product:
    id: int
    name: str
    category: str
    price: float
    description: str
    sizes: tuple[str, ...] = ("S", "M", "L")


PRODUCTS: tuple[Product, ...] = (
    Product(1, "Blue Oxford Shirt", "Shirts", 39.0, "Classic cotton oxford in sky blue."),
    Product(2, "White Linen Shirt", "Shirts", 45.0, "Breathable linen for warm days."),
    Product(3, "Red Flannel Shirt", "Shirts", 42.0, "Brushed flannel, warm and soft."),
    Product(4, "Black Denim Jeans", "Trousers", 59.0, "Slim fit, stretch denim."),
    Product(5, "Khaki Chinos", "Trousers", 49.0, "Lightweight twill chinos."),
    Product(6, "Grey Wool Trousers", "Trousers", 79.0, "Tailored wool for the office."),
    Product(7, "Navy Rain Jacket", "Jackets", 99.0, "Waterproof with taped seams."),
    Product(8, "Green Field Jacket", "Jackets", 129.0, "Waxed cotton with four pockets."),
    Product(9, "Canvas Tote Bag", "Accessories", 19.0, "Sturdy canvas, one size.", ("One size",)),
    Product(10, "Leather Belt", "Accessories", 29.0, "Full-grain leather belt."),
    Product(11, "Wool Beanie", "Accessories", 15.0, "Ribbed merino beanie.", ("One size",)),
    Product(12, "Linen Trousers", "Trousers", 55.0, "Relaxed linen trousers."),
    Product(13, "Striped Polo Shirt", "Shirts", 35.0, "Pique cotton with navy stripes."),
)

USERS = {"ada@example.com": ("lovelace-1815", "Ada")}
PER_PAGE = 6


def generated_products(count: int) -> tuple[Product, ...]:
    """A larger catalogue for benchmarks: ``count`` distinct products."""
    cats = ("Shirts", "Trousers", "Jackets", "Accessories")
    return tuple(
        Product(1000 + i, f"Item {i:04d}", cats[i % 4], 10.0 + (i * 7) % 90,
                f"Generated product number {i}.")
        for i in range(count)
    )
