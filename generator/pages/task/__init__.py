"""Public task pages and deep dives (§5.2): a task's card, its runs and item verdicts. Held-out
tasks get no page (§4.4).
"""
