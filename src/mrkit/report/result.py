"""Reports of a :class:`~mrkit.aggregate.corpus.CorpusResult`, shared by every command:
JSON, TSV/CSV rows, and the text lines of intervals and of a comparison with a second
system.

The command adds its own detail (tables of subscores, tuple types, coreference metrics);
what is common to every metric is written here once.
"""

from __future__ import annotations

TYPE_CHECKING = False  # json, csv and typing load when a report needs them, not at start-up
if TYPE_CHECKING:
    from typing import Any, Iterable

REPORT_FORMATS = ("text", "json", "tsv", "csv")


def _clean(obj: Any) -> Any:
    """JSON-ready: tuples as lists, numpy scalars as numbers, NaN and infinities as null."""
    if isinstance(obj, dict):
        return {str(k): _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    if hasattr(obj, "item") and not isinstance(obj, (str, bytes)):
        try:
            obj = obj.item()
        except (ValueError, TypeError):
            return obj
    if isinstance(obj, float) and obj - obj != 0.0:  # NaN, inf (not math.isfinite; math is not loaded): not JSON
        return None
    return obj


def to_json(obj: Any) -> str:
    from .json_text import dumps  # json.dumps(..., indent=2, ensure_ascii=False) without importing json

    return dumps(_clean(obj))


def statistics_dict(ci: dict | None, against: dict | None) -> dict:
    """The ``ci`` and ``against`` entries of a JSON report (absent when not asked for)."""
    out: dict = {}
    if ci is not None:
        out["ci"] = {k: list(v) for k, v in ci["intervals"].items()}
        out["ci_samples"], out["ci_level"], out["ci_seed"] = ci["samples"], ci["level"], ci["seed"]
    if against is not None:
        out["against"] = against
    return out


def rows_text(rows: Iterable[dict], fmt: str = "tsv") -> str:
    """Rows as TSV (tab-separated, no quoting) or CSV (RFC 4180); the columns are the
    union of the rows' keys, in first-seen order; missing cells are empty."""
    rows = list(rows)
    columns: list[str] = []
    for row in rows:
        for k in row:
            if k not in columns:
                columns.append(k)

    def cell(v: Any) -> str:
        if v is None:
            return ""
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, float):
            return "" if v != v else repr(v)  # NaN: math.isnan without math
        return str(v)

    if fmt == "tsv":
        lines = ["\t".join(columns)]
        for row in rows:
            lines.append("\t".join(cell(row.get(c)).replace("\t", " ").replace("\n", " ") for c in columns))
        return "\n".join(lines) + "\n"
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(columns)
    for row in rows:
        w.writerow([cell(row.get(c)) for c in columns])
    return buf.getvalue()


def _num(v: float | None, d: int) -> str:
    return "n/a" if v is None or (isinstance(v, float) and v != v) else f"{v:.{d}f}"  # v != v: NaN


def statistics_lines(ci: dict | None, against: dict | None, d: int = 4, scale: float = 1.0) -> list[str]:
    """Text lines of the intervals and of the comparison with a second system
    (``scale`` 100 for commands that print percentages)."""
    lines: list[str] = []
    if ci is not None:
        pct = round(100 * ci["level"])
        for k, (lo, hi) in ci["intervals"].items():
            lines.append(f"{pct}% CI {k}: [{_num(lo * scale, d)}, {_num(hi * scale, d)}] "
                         f"({ci['samples']} bootstrap samples)")
    if against is not None:
        lines.append(f"Against {against['system']} ({against['samples']} samples, seed {against['seed']}):")
        for k, t in against["tests"].items():
            lo, hi = t["ci"]
            pr = t["p_randomization"]
            pb = t["p_bootstrap"]
            b = against["summary"].get(k)
            lines.append(f"  {k}: {_num(None if b is None else b * scale, d)}"
                         f"  difference {_num(t['difference'] * scale, d)}"
                         f"  {round(100 * against['level'])}% CI [{_num(lo * scale, d)}, {_num(hi * scale, d)}]"
                         f"  p (randomization) {_num(pr, 4)}  p (bootstrap) {_num(pb, 4)}")
    return lines
