"""verl's own rule-based scorers (see each file's header)."""
