"""JSON-lines reading shared by the coreference readers: every failure is an InputError."""

from __future__ import annotations

import json
import os
from typing import Callable, Iterator

from ..errors import InputError
from ._files import json_lines


def json_objects(path: str | os.PathLike, key: str | None = None, unit: str = "document"
                 ) -> Iterator[tuple[int, dict]]:
    """``(line number, object)`` of every non-blank line, each line a JSON object.

    Reading and decoding failures (bad JSON, nesting too deep for the decoder, numbers too
    long to convert, a lone surrogate escape: then the record's ``key`` is named as a
    ``unit``) are :func:`~mrkit.codecs._files.json_lines`'s clean
    :class:`InputError`\\ s; a value other than an object is one too.
    """
    name = os.fspath(path)

    def record(obj) -> tuple[object, str]:
        rid = obj.get(key) if isinstance(obj, dict) and key else None
        return (str(rid) if isinstance(rid, str) or is_int(rid) else None), unit

    for lineno, obj in json_lines(name, record):
        if not isinstance(obj, dict):
            raise InputError("expected a JSON object", name, lineno)
        yield lineno, obj


def is_int(value) -> bool:
    """A JSON integer (not a boolean, not a float such as 1.0)."""
    return type(value) is int


def show(value, limit: int = 60) -> str:
    """A short ``repr`` for error messages (never the whole of a huge value)."""
    try:
        text = json.dumps(value) if not isinstance(value, (set, tuple)) else repr(value)
    except (RecursionError, ValueError):  # nested nearly as deep as the decoder allows
        import reprlib

        text = reprlib.repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def record_id(value, what: str, name: str, lineno: int, unit: str) -> tuple[str, Callable[[str], InputError]]:
    """The id of a record (a string or an integer, as a string) and a function making an
    :class:`InputError` that names the file, line and record; another value is an error
    (``what`` names the field in its message)."""
    if not (isinstance(value, str) or is_int(value)):
        raise InputError(f"{what} must be a string or an integer, not {show(value)}", name, lineno)
    rid = str(value)

    def bad(message: str) -> InputError:
        return InputError(message, name, lineno, rid, unit=unit)

    return rid, bad
