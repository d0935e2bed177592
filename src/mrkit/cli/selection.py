"""The graph selection options of the MRP commands (``--id``, ``--ids-file``, ``--limit``),
as mtool's ``--id``, ``--filter``, ``--n``."""

from __future__ import annotations

from ..errors import MrkitError


def add_selection_options(p) -> None:
    g = p.add_argument_group("selection")
    g.add_argument("--id", action="append", dest="ids", metavar="ID",
                   help="only the graph(s) with this id (repeatable)")
    g.add_argument("--ids-file", metavar="FILE",
                   help="only the graphs whose id is listed in FILE (one per line; the first "
                        "tab-separated field, so a sentence file 'id<TAB>text' works too)")
    g.add_argument("--limit", type=int, metavar="N", help="only the first N graphs (after --id/--ids-file)")


def selection_of(args):
    """The :class:`mrkit.pipeline.selection.Selection` of the parsed options."""
    from ..pipeline.selection import Selection, read_ids

    limit = getattr(args, "limit", None)
    if limit is not None and limit < 1:
        raise MrkitError("--limit must be a positive number of graphs")
    ids = None
    if getattr(args, "ids", None):
        ids = set(args.ids)
    if getattr(args, "ids_file", None):
        listed = read_ids(args.ids_file)
        ids = listed if ids is None else ids | listed
    return Selection(frozenset(ids) if ids is not None else None, limit)
