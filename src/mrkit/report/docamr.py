"""Reports of ``mrkit docamr stats`` and ``mrkit docamr agreement``: a text table or JSON,
printed or written atomically."""

from __future__ import annotations

from .output import emit as write


def stats_lines(stats: dict) -> list[str]:
    """The statistics table: one row per count, one column per document (at most 6) and
    the total."""
    from ..docamr.stats import ROWS

    docs = stats["documents"]
    shown = docs if len(docs) <= 6 else []
    head = ["", *[str(d["id"]) for d in shown], "total"]
    rows = [[label, *[str(d[k]) for d in shown], str(stats["total"][k])] for k, label in ROWS]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    fmt = lambda r: "  ".join([r[0].ljust(widths[0]), *[c.rjust(w) for c, w in zip(r[1:], widths[1:])]])  # noqa: E731
    return [fmt(head).rstrip(), *[fmt(r) for r in rows]]


def emit_stats(stats: dict, as_json: bool, output: str | None) -> None:
    from .result import to_json

    write(to_json(stats) if as_json else "\n".join(stats_lines(stats)), output)


def agreement_lines(a, d: int = 4) -> list[str]:
    def num(x):
        return "undefined" if x is None else f"{x:.{d}f}"

    lines = [f"Documents: {a.documents}",
             f"Implicit roles ({', '.join(['ARG0', 'ARG1', 'ARG2', 'ARG3', 'ARG4'])} slots of every predicate): "
             f"{a.items} items, marked {a.marked_a} / {a.marked_b}, both {a.marked_both}",
             f"  Cohen's kappa: {num(a.kappa)}",
             f"  conditional kappa (slots both marked; same entity {a.same_entity}/{a.marked_both}): "
             f"{num(a.conditional_kappa)}"]
    if a.coref:
        lines.append("Coreference over variables: " + "  ".join(
            f"{m.upper() if m != 'conll' else 'CoNLL'} F1 {v['f1']:.{d}f}" for m, v in a.coref.items()))
    return lines


def emit_agreement(a, as_json: bool, output: str | None, digits: int = 4) -> None:
    from .result import to_json

    write(to_json(a.to_dict()) if as_json else "\n".join(agreement_lines(a, digits)), output)
