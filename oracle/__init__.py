"""canasta-oracle: a rules referee for Canasta (rules as data, answers with citations)."""

__version__ = "0.1.0"
