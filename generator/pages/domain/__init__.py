"""A domain's pages, in layers: its headline table, then its scopes' scores, usage, business
views, failure types and paired differences one click away.
"""
