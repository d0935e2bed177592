"""Selecting graphs, as mtool's ``--id``, ``--filter`` and ``--n``: by id, by a file of
ids, by framework, and the first N of what remains (in file order)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from ..errors import InputError
from ..model.graph import Graph


@dataclass(frozen=True)
class Selection:
    """Which graphs to keep: ``ids`` (None: all), then at most ``limit`` (None: all)."""

    ids: frozenset[str] | None = None
    limit: int | None = None

    @property
    def active(self) -> bool:
        return self.ids is not None or self.limit is not None


def read_ids(path: str) -> set[str]:
    """The ids of a file: the first tab-separated field of each non-blank line (a line
    ``id<TAB>text`` of a sentence file works too)."""
    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except OSError as exc:
        raise InputError(f"cannot read the ids file: {exc.strerror}", path) from None
    except UnicodeDecodeError as exc:
        raise InputError(f"the ids file is not UTF-8 text ({exc.reason})", path) from None
    return {line.split("\t", 1)[0].strip() for line in lines if line.strip()}


def select_graphs(graphs: Iterable[Graph], selection: Selection = Selection(),
                  frameworks: Iterable[str] | None = None) -> list[Graph]:
    """The graphs of ``frameworks`` (case-insensitive; None: all) whose id is selected,
    at most ``selection.limit`` of them, in their order."""
    wanted = {f.lower() for f in frameworks} if frameworks else None
    out: list[Graph] = []
    for g in graphs:
        if selection.limit is not None and len(out) >= selection.limit:
            break
        if wanted is not None and (g.framework or "").lower() not in wanted:
            continue
        if selection.ids is not None and g.id not in selection.ids:
            continue
        out.append(g)
    return out


def select_pairs_sides(golds: Sequence[Graph], systems: Sequence[Graph], selection: Selection
                       ) -> tuple[list[Graph], list[Graph]]:
    """Gold graphs selected (ids, then the first ``limit``); system graphs kept only where
    a selected gold graph has the same (framework, id), so that a selection never shows
    up as unpaired system graphs."""
    if not selection.active:
        return list(golds), list(systems)
    chosen = select_graphs(golds, selection)
    keys = {((g.framework or "").lower(), g.id) for g in chosen}
    return chosen, [s for s in systems if ((s.framework or "").lower(), s.id) in keys]


__all__ = ["Selection", "read_ids", "select_graphs", "select_pairs_sides"]
