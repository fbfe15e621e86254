"""A combination's pages (§5.1): its result card and tables, its configuration record, its
HarnessCard's page, and configuration differences between two combinations.
"""
