"""The table of ``mrkit analyze``: one row per statistic (the 22 rows of
``mtool --analyze``, with its digits), one column per framework; TSV/CSV of the same."""

from __future__ import annotations

ROWS: tuple[tuple[str, str, str], ...] = (
    # (label, key, kind): kind "n" count, "share" count (percentage of tuples), "p" percentage,
    # "a" average (three digits)
    ("number of graphs", "graphs", "n"),
    ("number of nodes", "nodes", "n"),
    ("number of tops (%)", "tops", "share"),
    ("number of node labels (%)", "labels", "share"),
    ("number of node properties (%)", "properties", "share"),
    ("number of node anchors (%)", "anchors", "share"),
    ("number of edges (%)", "edges", "share"),
    ("number of edge attributes (%)", "attributes", "share"),
    ("number of edge labels", "edge_labels", "n"),
    ("% graphs trees", "trees", "p"),
    ("% graphs treewidth one", "treewidth_one", "p"),
    ("average treewidth", "treewidth_average", "a"),
    ("maximal treewidth", "treewidth_max", "n"),
    ("average edge density", "edge_density", "a"),
    ("% nodes reentrant", "reentrant", "p"),
    ("% graphs cyclic", "cyclic", "p"),
    ("% graphs not connected", "not_connected", "p"),
    ("% graphs multi-rooted", "multirooted", "p"),
    ("% non-top roots", "nontop_roots", "p"),
    ("average edge length", "edge_length", "a"),
    ("% graphs noncrossing", "noncrossing", "p"),
    ("% graphs pagenumber two", "pagenumber_two", "p"),
)


def cell(stats: dict, key: str, kind: str) -> str:
    value = stats.get(key)
    if value is None:
        return "--"
    if kind == "n":
        return f"{value:d}"
    if kind == "share":
        share = stats["share"][key]
        return f"{value:d} ({share:.2f})" if share is not None else f"{value:d}"
    if kind == "p":
        return f"{value:.2f}"
    return f"{value:.3f}"


def analysis_table(analysis: dict) -> str:
    """The text table of :meth:`mrkit.pipeline.analyze.Analysis.to_dict`."""
    names = list(analysis["frameworks"])
    cols = [[cell(analysis["frameworks"][n], key, kind) for _, key, kind in ROWS] for n in names]
    width0 = max(len(label) for label, _, _ in ROWS)
    widths = [max(len(n), *(len(c) for c in col)) for n, col in zip(names, cols)]
    lines = [" " * width0 + "".join(f"  {n:>{w}}" for n, w in zip(names, widths))]
    for i, (label, _, _) in enumerate(ROWS):
        lines.append(f"{label:<{width0}}" + "".join(f"  {col[i]:>{w}}" for col, w in zip(cols, widths)))
    return "\n".join(lines)


def analysis_rows(analysis: dict) -> list[dict]:
    """One row per framework, the statistics as columns (full precision), for TSV/CSV."""
    rows = []
    for name, stats in analysis["frameworks"].items():
        row = {"framework": name}
        for _, key, kind in ROWS:
            row[key] = stats.get(key)
            if kind == "share":
                row[f"{key}_share"] = stats["share"][key]
        rows.append(row)
    return rows


__all__ = ["ROWS", "analysis_rows", "analysis_table", "cell"]
