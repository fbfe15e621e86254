"""The whitepaper's rules as pure functions on whole columns, each written once."""
