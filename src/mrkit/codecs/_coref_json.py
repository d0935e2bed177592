"""JSON-lines reading shared by the coreference readers: every failure is an InputError."""

from __future__ import annotations

import json
import os
from typing import Iterator

from ..errors import InputError
from ._files import numbered_lines


def json_objects(path: str | os.PathLike) -> Iterator[tuple[int, dict]]:
    """``(line number, object)`` of every non-blank line, each line a JSON object.

    Nesting too deep for the decoder (it recurses), numbers too long to convert, and
    values other than an object are clean :class:`InputError`\\ s naming the line.
    """
    name = os.fspath(path)
    for lineno, line in numbered_lines(name):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"not JSON: {exc.msg}", name, lineno) from None
        except RecursionError:
            raise InputError("JSON nested too deeply", name, lineno) from None
        except ValueError as exc:  # e.g. an integer literal longer than Python converts
            raise InputError(f"not JSON: {exc}", name, lineno) from None
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
