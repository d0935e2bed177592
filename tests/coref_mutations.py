"""Deterministic mutations of coreference inputs (CoNLL columns, jsonlines clusters,
SciCo jsonl), shared by the robustness test and longer manual runs."""

from __future__ import annotations

import json
import random

ODD_VALUES = [None, True, False, 1.5, -1, 0, 10 ** 18, -(10 ** 18), 2 ** 32, 2 ** 64, 1e308, "x", "0", "",
              [], {}, [[]], [[0]], [0, 1], [[0, 1]], [[[0, 1]]], {"a": 1}, [None, None], ["a", "b"]]


def _paths(obj, prefix=()):
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:6]):
            yield from _paths(v, prefix + (i,))


def _replace(obj, path, value):
    if not path:
        return value
    obj = json.loads(json.dumps(obj))
    parent = obj
    for k in path[:-1]:
        parent = parent[k]
    if value is _DELETE:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return obj


_DELETE = object()


def json_type_mutations(line: str, rng: random.Random, n: int) -> list[str]:
    """``n`` variants of one JSON line, each with one value replaced by an odd value
    (wrong type, negative, huge, float) or deleted."""
    obj = json.loads(line)
    paths = [p for p in _paths(obj) if p]
    out = []
    for _ in range(n):
        path = rng.choice(paths)
        value = rng.choice(ODD_VALUES + [_DELETE])
        out.append(json.dumps(_replace(obj, path, value)))
    return out


def byte_mutations(data: bytes, rng: random.Random, n: int) -> list[bytes]:
    """``n`` variants: truncated, a byte replaced / inserted / deleted (invalid UTF-8
    included), a line duplicated or dropped."""
    out = []
    specials = [b"(", b")", b"|", b"[", b"]", b"{", b"}", b'"', b",", b"-", b"9", b"\n", b"\xff", b"\xc3",
                b"#", b" ", b"\t", b"0", b".5", b"e9", b"99999999999999999999"]
    for _ in range(n):
        kind = rng.randrange(6)
        i = rng.randrange(len(data) + 1)
        if kind == 0:
            out.append(data[:i])
        elif kind == 1:
            out.append(data[:i] + rng.choice(specials) + data[i + 1:])
        elif kind == 2:
            out.append(data[:i] + rng.choice(specials) + data[i:])
        elif kind == 3:
            out.append(data[:i] + data[i + 1:])
        else:
            lines = data.split(b"\n")
            j = rng.randrange(len(lines))
            lines = lines[:j] + ([lines[j]] * 2 if kind == 4 else []) + lines[j + 1:]
            out.append(b"\n".join(lines))
    return out
