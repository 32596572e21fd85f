"""The rule book: the compiled, typed view of every RuleSet field, loading spec files and inline rule sets,
`extends` inheritance, validation with file/line/field, and the catalogue of shipped rule sets.

May import: oracle.model and the generated oracle.api. Never the rules, games or anything above.
"""
