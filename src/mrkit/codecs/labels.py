"""Human judgements for a meta-evaluation: per-item preference and acceptability.

An *item* is one sentence: its gold graph and one candidate graph per system.  Labels:

- ``preference``: which of the first two systems the annotators prefer:
  ``1`` = the first, ``0`` = the second, ``0.5`` = equal; ``None`` = not judged;
- ``acceptable``: per system, ``1`` if its graph is acceptable (no meaning-distorting
  error), ``0`` if not, ``None`` if not judged.

Three file formats are read (:func:`read_labels` picks one from the content):

1. the study format of Opitz & Frank 2022 (``LABEL.txt`` of Heidelberg-NLP/AMRParseEval):
   one tab-separated line per item ``PREF<TAB>ACC_FIRST<TAB>ACC_SECOND<TAB>ID``, each
   followed by a line ``see above`` (the study's files list each item twice);
2. TSV with a header line whose first column is ``id``; the other columns are
   ``preference`` (optional) and one ``accept_<system>`` column per system, in the order
   the systems are given (``accept_1``, ``accept_bart``, ...).  Empty cells, ``NA`` and
   ``-`` mean not judged; lines starting with ``#`` are comments;
3. JSON: a list of objects ``{"id": ..., "preference": 1, "acceptable": [1, 0]}``, or an
   object ``{"items": [...]}`` holding that list.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError

_PREFERENCES = {0.0, 0.5, 1.0}
_MISSING = {"", "na", "nan", "-", "none", "null"}


@dataclass
class HumanLabels:
    """Human labels of the items of a study, in item order."""

    preference: list[float | None]
    acceptable: list[list[int | None]]
    ids: list[str | None]
    source: str = "<labels>"
    lines: list[int | None] = field(default_factory=list)
    """Line (or list index) of each item in its file, for error messages."""

    def __len__(self) -> int:
        return len(self.preference)

    @property
    def n_systems(self) -> int:
        return max((len(a) for a in self.acceptable), default=0)

    def counts(self) -> dict:
        """How many items prefer the first / second system or neither, and acceptability per system."""
        pref = [p for p in self.preference if p is not None]
        acc = [[row[k] for row in self.acceptable if k < len(row) and row[k] is not None]
               for k in range(self.n_systems)]
        return {
            "items": len(self),
            "prefer_first": sum(1 for p in pref if p == 1.0),
            "prefer_second": sum(1 for p in pref if p == 0.0),
            "equal": sum(1 for p in pref if p == 0.5),
            "acceptable": [sum(a) for a in acc],
            "judged": [len(a) for a in acc],
        }


def _value(text: str, allowed: set[float], what: str, file: str, line: int | None,
           item: str | None) -> float | None:
    t = str(text).strip()
    if t.lower() in _MISSING:
        return None
    try:
        v = float(t)
    except ValueError:
        raise InputError(f"{what} {t!r} is not a number", file, line, item) from None
    if v not in allowed:
        choices = ", ".join(f"{a:g}" for a in sorted(allowed))
        raise InputError(f"{what} {t!r} must be one of {choices}", file, line, item)
    return v


def _pref(text, file, line, item):
    return _value(text, _PREFERENCES, "preference", file, line, item)


def _acc(text, file, line, item):
    v = _value(text, {0.0, 1.0}, "acceptability", file, line, item)
    return None if v is None else int(v)


def _read_study(lines: list[str], file: str) -> HumanLabels:
    out = HumanLabels([], [], [], file)
    for lineno, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.lower() == "see above" or line.startswith("#"):
            continue
        fields = line.split("\t") if "\t" in line else line.split()
        if len(fields) < 3:
            raise InputError(f"expected PREFERENCE, ACCEPT_FIRST, ACCEPT_SECOND[, ID], got {line!r}",
                             file, lineno)
        item = fields[3].strip() if len(fields) > 3 and fields[3].strip() else None
        out.preference.append(_pref(fields[0], file, lineno, item))
        out.acceptable.append([_acc(fields[1], file, lineno, item), _acc(fields[2], file, lineno, item)])
        out.ids.append(item)
        out.lines.append(lineno)
    return out


def _read_tsv(lines: list[str], file: str) -> HumanLabels:
    out = HumanLabels([], [], [], file)
    header: list[str] | None = None
    for lineno, raw in enumerate(lines, 1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        fields = [f.strip() for f in raw.rstrip("\n\r").split("\t")]
        if header is None:
            header = [h.lower() for h in fields]
            if header[0] != "id":
                raise InputError("the first column of the header must be 'id'", file, lineno)
            bad = [h for h in header[1:] if h != "preference" and not h.startswith("accept")]
            if bad:
                raise InputError(f"unknown column {bad[0]!r} (expected preference, accept_<system>)",
                                 file, lineno)
            continue
        if len(fields) != len(header):
            raise InputError(f"{len(fields)} columns but the header has {len(header)}", file, lineno)
        item = fields[0] or None
        row = dict(zip(header, fields))
        out.ids.append(item)
        out.preference.append(_pref(row.get("preference", ""), file, lineno, item))
        out.acceptable.append([_acc(v, file, lineno, item)
                               for h, v in zip(header, fields) if h.startswith("accept")])
        out.lines.append(lineno)
    if header is None:
        raise InputError("no header line", file)
    return out


def _read_json(text: str, file: str) -> HumanLabels:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"invalid JSON: {exc.msg}", file, exc.lineno) from None
    from ._files import refuse_surrogates

    refuse_surrogates(text, data, file, 1)
    if isinstance(data, dict):
        data = data.get("items")
    if not isinstance(data, list):
        raise InputError("expected a list of items (or an object with 'items')", file)
    out = HumanLabels([], [], [], file)
    for k, obj in enumerate(data):
        if not isinstance(obj, dict):
            raise InputError(f"item {k + 1} is not an object", file)
        item = obj.get("id")
        item = None if item is None else str(item)
        where = f"{item} (item {k + 1})" if item else f"item {k + 1}"
        pref = obj.get("preference")
        out.ids.append(item)
        out.preference.append(None if pref is None else _pref(pref, file, None, where))
        acc = obj.get("acceptable", [])
        if not isinstance(acc, list):
            raise InputError("'acceptable' must be a list with one value per system", file, None, where)
        out.acceptable.append([None if a is None else _acc(a, file, None, where) for a in acc])
        out.lines.append(None)
    return out


def parse_labels(text: str, file: str = "<labels>") -> HumanLabels:
    """Parse label text in any of the three formats (see the module docstring)."""
    stripped = text.lstrip()
    if stripped.startswith(("[", "{")):
        return _read_json(text, file)
    lines = text.splitlines()
    first = next((ln for ln in lines if ln.strip() and not ln.lstrip().startswith("#")), "")
    if first.split("\t")[0].strip().lower() == "id":
        return _read_tsv(lines, file)
    return _read_study(lines, file)


def read_labels(path: str | Path) -> HumanLabels:
    """Read a label file (study LABEL.txt, TSV with header, or JSON)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", str(path)) from None
    return parse_labels(text, str(path))


def check_labels(labels: HumanLabels, n_items: int, n_systems: int,
                 ids: list[str | None] | None = None, gold_file: str | None = None) -> None:
    """Check that the labels fit a study of ``n_items`` items and ``n_systems`` systems.

    ``ids``: the gold graphs' ids (``None`` where a graph has no ``# ::id``); where both a
    label and its graph carry an id they must agree.
    """
    src = labels.source
    if len(labels) != n_items:
        gold = f"the gold file {gold_file}" if gold_file else "the gold file"
        raise InputError(f"holds labels for {len(labels)} items but {gold} holds {n_items} graphs", src)
    for k, acc in enumerate(labels.acceptable):
        line = labels.lines[k] if k < len(labels.lines) else None
        if acc and len(acc) != n_systems:
            raise InputError(f"{len(acc)} acceptability labels but {n_systems} systems are compared",
                             src, line, labels.ids[k] or k + 1)
        if ids is not None and labels.ids[k] and ids[k] and labels.ids[k] != ids[k]:
            raise InputError(f"label id {labels.ids[k]!r} does not match gold graph {k + 1} ({ids[k]!r})",
                             src, line, labels.ids[k])
    if n_systems < 2 and any(p is not None for p in labels.preference):
        raise InputError("preferences need at least two systems", src)
