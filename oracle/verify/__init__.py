"""Z3 verification of rule sets: a symbolic model, proved properties, a spec lint, and engine-against-model checks."""
