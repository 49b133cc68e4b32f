"""The demo shop the example suites test: a small real web shop on a loopback port."""

from .app import DemoShop
from .data import PRODUCTS, Product, generated_products

__all__ = ["PRODUCTS", "DemoShop", "Product", "generated_products"]
