"""The release home: what the release is, its leaderboards, and the contamination monitor."""
