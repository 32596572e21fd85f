"""Rule sets as data: one RuleSet text-format file per variant (shipped as the package oracle.specs)."""
