"""The pages of the views a release declares (its profile's ``views``): one renderer per
kind, each built from the domains' reports. A release that declares none has none."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from generator.models.profile import Board, Dimensions, Grid, Resources, View
from generator.models.views import Agreement, Effect, Scatter, Sets, Transfer
from generator.pages.blocks.render import Page
from generator.pages.context import VersionContext
from generator.pages.views.agreement import agreement_page
from generator.pages.views.boards import board_page
from generator.pages.views.dimensions import dimensions_page
from generator.pages.views.effects import effect_page
from generator.pages.views.grids import grid_page
from generator.pages.views.resources import resources_page
from generator.pages.views.scatter import scatter_page
from generator.pages.views.sets import sets_page
from generator.pages.views.transfer import transfer_page

#: The nav section that lists the views' pages.
SECTION = "Views"


#: The renderer of each kind of view.
RENDERERS: dict[type, Callable[[VersionContext, Any], Page]] = {
    Board: board_page,
    Grid: grid_page,
    Dimensions: dimensions_page,
    Resources: resources_page,
    Sets: sets_page,
    Transfer: transfer_page,
    Agreement: agreement_page,
    Scatter: scatter_page,
    Effect: effect_page,
}


def view_page(ctx: VersionContext, view: View) -> Page:
    """The page of one declared view, by its kind."""
    return RENDERERS[type(view)](ctx, view)


def view_pages(ctx: VersionContext) -> list[Page]:
    """A page per declared view, in the order the release declares them."""
    return [view_page(ctx, v) for v in ctx.release.profile.views]


def view_nav(pages: list[Page]) -> list[dict[str, object]]:
    """The nav section of the views' pages; none without views."""
    return [{SECTION: [{p.title: p.path} for p in pages]}] if pages else []
