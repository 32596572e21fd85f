"""Values only: cards and their notation, actions, game states, hand-end tables, scores and events.

Owns the immutable domain values every other layer passes around. Imports nothing of the package but
itself (no rule set, no protobuf, no I/O).
"""
