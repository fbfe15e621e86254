"""The views a release declares (its profile's ``views``): boards, grids, effects, scatters,
resources, dimensions, sets, transfer and agreement, one module each.
"""
