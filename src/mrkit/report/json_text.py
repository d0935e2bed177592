"""JSON text of a report without importing :mod:`json` (start-up, issue 14).

``json`` compiles five regular expressions when it is imported (about 2 ms of a
``mrkit score --json`` on a corpus, more than writing the report), and with ``indent`` its
encoder is the pure-Python one anyway.  :func:`dumps` writes what
``json.dumps(obj, indent=2, ensure_ascii=False)`` writes, byte for byte, for the values a
report holds (dicts with string keys, lists and tuples, strings, ints, floats, booleans,
None); for anything else it hands the whole object to :func:`json.dumps` (its output, or its
error).  Tested against ``json.dumps`` on generated values (``tests/report/test_json_text.py``).
"""

from __future__ import annotations

# json.encoder.ESCAPE_DCT: the characters ``encode_basestring`` escapes (ensure_ascii=False)
_ESCAPES = {i: f"\\u{i:04x}" for i in range(0x20)}
_ESCAPES.update({ord("\\"): "\\\\", ord('"'): '\\"', ord("\b"): "\\b", ord("\f"): "\\f",
                 ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t"})

_INFINITY = float("inf")


class _Other(Exception):
    """A value this writer does not write: json.dumps writes (or refuses) the whole object."""


def _float(x: float) -> str:
    if x != x:
        return "NaN"
    if x == _INFINITY:
        return "Infinity"
    if x == -_INFINITY:
        return "-Infinity"
    return float.__repr__(x)


def _write(obj, out: list, indent: str) -> None:
    if isinstance(obj, str):
        out.append('"' + obj.translate(_ESCAPES) + '"')
    elif obj is None:
        out.append("null")
    elif obj is True:
        out.append("true")
    elif obj is False:
        out.append("false")
    elif isinstance(obj, int):
        out.append(int.__repr__(obj))
    elif isinstance(obj, float):
        out.append(_float(obj))
    elif isinstance(obj, (list, tuple)):
        if not obj:
            out.append("[]")
            return
        inner = indent + "  "
        sep = "[\n" + inner
        for value in obj:
            out.append(sep)
            _write(value, out, inner)
            sep = ",\n" + inner
        out.append("\n" + indent + "]")
    elif isinstance(obj, dict):
        if not obj:
            out.append("{}")
            return
        inner = indent + "  "
        sep = "{\n" + inner
        for key, value in obj.items():
            if not isinstance(key, str):
                raise _Other
            out.append(sep + '"' + key.translate(_ESCAPES) + '": ')
            _write(value, out, inner)
            sep = ",\n" + inner
        out.append("\n" + indent + "}")
    else:
        raise _Other


def dumps(obj) -> str:
    """``json.dumps(obj, indent=2, ensure_ascii=False)``."""
    out: list[str] = []
    try:
        _write(obj, out, "")
    except _Other:
        import json

        return json.dumps(obj, indent=2, ensure_ascii=False)
    return "".join(out)
