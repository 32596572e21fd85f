"""The canasta-oracle command line, one module per group of verbs; each verb calls the layers below.

May import every other layer; nothing imports it.
"""
