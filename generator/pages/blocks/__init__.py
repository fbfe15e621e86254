"""Building blocks every page uses: safe text and number formats, cells, tables as data and
their downloads, charts, the page files and their templates.
"""
