"""Z3 verification of rule sets: a symbolic model, proved properties, a spec lint, and engine-against-model checks.

May import every layer below it (games, rules, ruleset, model, api). The loader runs its lint only when a caller
hands it in (the CLI does, for its verbs and the server it starts); the layers below never import it.
"""
