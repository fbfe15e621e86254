"""Configuration disclosure (§5.1.2–5.1.3, §5.3): completeness and fingerprints."""

from generator.disclosure.completeness import Completeness, below_floor, completeness
from generator.disclosure.fingerprint import fingerprint, fingerprint_document

__all__ = ["Completeness", "below_floor", "completeness", "fingerprint", "fingerprint_document"]
