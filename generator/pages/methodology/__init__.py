"""The methodology page and the publishing guide: how the numbers are made, what the release
declares, and how to submit.
"""
