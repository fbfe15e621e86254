"""Stage 3, score: run scores, aggregates and their uncertainty, per protocol (§4.2–4.4)."""
