"""The efficiency page (§4.2(2)): outcome against tokens, time and turns per domain, with
Pareto frontiers and reliability@k curves.
"""
