"""spaCy components for scientific and chemical text (imports spaCy)."""
