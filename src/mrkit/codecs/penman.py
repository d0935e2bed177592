"""PENMAN codec: AMR text <-> :class:`mrkit.model.graph.Graph`.

Reading is streaming: the file is consumed block by block (graphs are separated by blank
lines; a block holding several graphs is also accepted), each block is tokenized and
parsed here, with an explicit stack (nesting depth is data, not a limit), and the line
where each graph starts is kept for error messages. The grammar is PENMAN's, as the
``penman`` library reads it, but malformed input that the library logs and accepts is an
error: a node without a concept, a role without a value, text after a graph. Comment-only
blocks, such as the ``# AMR release ...`` header of the official releases, are skipped.
``# ::key value`` metadata is kept in ``Graph.metadata``. Writing lays graphs out as
``penman.Tree`` objects and formats them as ``penman.format`` does, also without
recursion.

Surface alignments (``want-01~e.2``) are removed from labels and kept in
``Node.extra["alignment"]`` / ``Edge.extra["alignment"]`` as lists of token indices.
"""

from __future__ import annotations

import io
import os
import re

from ..errors import InputError
from ._patterns import later  # compiled on first use (start-up)
from ..model.graph import Edge, Graph, Node, Property
from ._after_import import after_import

TYPE_CHECKING = False  # typing is not loaded at run time (start-up, issue 14)
if TYPE_CHECKING:
    from typing import IO, Iterable, Iterator


def _quiet_penman(logging) -> None:
    logging.getLogger("penman").addHandler(logging.NullHandler())


# mrkit reads PENMAN itself (below) and uses the library only for its Tree type; should
# any of the library's code log, nothing reaches the user through Python's last-resort
# handler (configured when ``logging`` loads: the penman library imports it)
after_import("logging", _quiet_penman)

if TYPE_CHECKING:
    import penman
# The library (its Tree type) is imported where a tree is built: the compiled reader needs
# none, so reading and scoring PENMAN do not pay its import (~35 ms) at start-up.

_ALIGN = later(r"~(?:[a-zA-Z]+\.?)?(\d+(?:,\d+)*)$")


MAX_ALIGNMENT_DIGITS = 9
"""Token indices in alignment markers have at most this many digits (no sentence has a
billion tokens; longer numbers are refused rather than carried along)."""


def _split_alignment(token: str, file: str | None = None, line: int | None = None,
                     graph: str | None = None) -> tuple[str, list[int] | None]:
    if "~" not in token:
        return token, None
    m = _ALIGN.search(token)
    if not m:
        return token, None
    digits = m.group(1).split(",")
    if any(len(d) > MAX_ALIGNMENT_DIGITS for d in digits):
        raise InputError(f"alignment marker {_show(token[m.start():])} has an index of more than "
                         f"{MAX_ALIGNMENT_DIGITS} digits", file, line, graph)
    return token[: m.start()], [int(x) for x in digits]


def _unquote(token: str) -> tuple[str, bool]:
    if len(token) >= 2 and token[0] == '"' and token[-1] == '"':
        body = token[1:-1]
        return (re.sub(r'\\(.)', r"\1", body) if "\\" in body else body), True
    return token, False


def _blocks(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """Yield (first line number, text) of each blank-line separated block."""
    buf: list[str] = []
    start = 0
    for lineno, line in enumerate(lines, 1):
        if line.strip():
            if not buf:
                start = lineno
            buf.append(line)
        elif buf:
            yield start, "".join(buf)
            buf = []
    if buf:
        yield start, "".join(buf)


def _tree_to_graph(tree: penman.Tree, index: int, file: str | None, line: int) -> Graph:
    gid = tree.metadata.get("id", str(index))
    g = Graph(id=gid, metadata=dict(tree.metadata), source_file=file, source_line=line)
    if "id" not in tree.metadata:
        g.extra["auto_id"] = True
    g.text = tree.metadata.get("snt") or tree.metadata.get("tok")

    # first pass: every variable defined in the tree
    variables: set[str] = set()
    stack = [tree.node]
    while stack:
        var, branches = stack.pop()
        if var in variables:
            raise InputError(f"variable {var!r} is defined twice", file, line, gid)
        variables.add(var)
        for _, target in branches:
            if isinstance(target, tuple):
                stack.append(target)

    nodes = g.nodes
    edges = g.edges

    def start(node: tuple) -> tuple:
        var, branches = node
        n = Node(var)
        nodes[var] = n
        return (n, iter(branches), [])

    # depth-first in written order with an explicit stack (nesting depth is data, not a
    # limit): nodes and edges are stored in the order they are written
    work = [start(tree.node)]
    while work:
        n, branches, props = work[-1]
        var = n.id
        for role, target in branches:
            if role == "/":
                if target is not None:
                    label, align = _split_alignment(target, file, line, gid)
                    n.label = label
                    if align is not None:
                        n.extra["alignment"] = align
                continue
            role, role_align = _split_alignment(role, file, line, gid)
            role = role[1:] if role[:1] == ":" else role
            if type(target) is tuple:
                e = Edge(var, target[0], role)  # edges in written order
                edges.append(e)
                if role_align is not None:
                    e.extra["alignment"] = role_align
                work.append(start(target))
                break
            if target is None:
                raise InputError(f"role :{role} of {var!r} has no value", file, line, gid)
            value, align = _split_alignment(target, file, line, gid)
            text, quoted = _unquote(value)
            if not quoted and text in variables:
                e = Edge(var, text, role)
                edges.append(e)
                if role_align is not None:
                    e.extra["alignment"] = role_align
            else:
                props.append(Property(role, text, quoted))
                if align is not None:
                    n.extra.setdefault("property_alignments", {})[len(props) - 1] = align
        else:
            n.properties = props
            work.pop()

    g.tops = [tree.node[0]]
    return g


# ---------------------------------------------------------------------------- parsing

_TOKEN = later(r"""
    (?P<COMMENT>\#.*$)
  | (?P<STRING>"[^"\\]*(?:\\.[^"\\]*)*")
  | (?P<LPAREN>\()
  | (?P<RPAREN>\))
  | (?P<SLASH>/)
  | (?P<ROLE>:[^\s"()/:~]*)
  | (?P<SYMBOL>[^\s"()/:~]+)
  | (?P<ALIGNMENT>~(?:[a-z]\.?)?[0-9]+(?:,[0-9]+)*)
  | (?P<UNEXPECTED>\S)
""", re.VERBOSE)
"""PENMAN tokens, the same classes as the ``penman`` library's lexer."""


def _tokens(block: str) -> list[tuple[str, str, int]]:
    """(type, text, line number within the block) of every token, line by line."""
    out = []
    for lineno, ln in enumerate(block.splitlines(), 1):
        for m in _TOKEN.finditer(ln):
            out.append((m.lastgroup, m.group(), lineno))
    return out


def _show(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:40] + "...")


def _parse_trees(block: str, start: int, label: str, index: int) -> list[tuple[int, penman.Tree]]:
    """The (first line, tree) of every graph of one block, read without recursion.

    The grammar is PENMAN's (``Node := '(' Variable '/' Concept (Role (Constant | Node))* ')'``),
    but stricter than the ``penman`` library, which logs and accepts some malformed
    input: every node needs a variable and a concept, every role a value, and nothing
    but comments may follow a graph.
    """
    toks = _tokens(block)
    n = len(toks)
    pos = 0
    import penman

    trees: list[tuple[int, penman.Tree]] = []
    block_id = _block_id(block)
    gid = ""

    def fail(message: str, at: int) -> InputError:
        tok = toks[at] if at < n else toks[-1]
        return InputError(f"malformed PENMAN: {message}", label, start + tok[2] - 1, gid)

    def open_node(pos: int) -> tuple[int, tuple[str, list]]:
        # toks[pos] is '('
        pos += 1
        if pos >= n or toks[pos][0] != "SYMBOL":
            if pos < n and toks[pos][0] == "RPAREN":
                raise fail("an empty node '()': a node needs a variable and a concept", pos)
            raise fail("a node needs a variable after '('", min(pos, n - 1))
        var = toks[pos][1]
        pos += 1
        if pos >= n or toks[pos][0] != "SLASH":
            raise fail(f"node {var!r} has no concept (write '({var} / concept ...)')", pos - 1)
        pos += 1
        if pos >= n or toks[pos][0] not in ("SYMBOL", "STRING"):
            raise fail(f"node {var!r} has no concept after '/'", pos - 1)
        concept = toks[pos][1]
        pos += 1
        if pos < n and toks[pos][0] == "ALIGNMENT":
            concept += toks[pos][1]
            pos += 1
        return pos, (var, [("/", concept)])

    while pos < n:
        metadata: dict[str, str] = {}
        first_line = start + toks[pos][2] - 1  # where the graph's comments begin
        while pos < n and toks[pos][0] == "COMMENT":
            comment = toks[pos][1]
            while comment:
                comment, found, meta = comment.rpartition("::")
                if found:
                    key, _, value = meta.partition(" ")
                    metadata[key] = value.rstrip()
            pos += 1
        if pos == n:
            break  # comments after the last graph
        if toks[pos][0] != "LPAREN":
            if trees:  # name the graph the text follows
                raise fail(f"unexpected text after the graph: {_show(toks[pos][1])}", pos)
            gid = metadata.get("id") or block_id or str(index + 1)
            raise fail(f"expected a PENMAN graph starting with '(' but found {_show(toks[pos][1])}", pos)
        # the id this graph gets when read (its own comments' ::id, else its number): an
        # ::id written further down the block belongs to a later graph
        gid = metadata.get("id") or str(index + len(trees) + 1)

        # the open nodes, innermost last; a closed node becomes the value of the role
        # written last in its parent
        pos, root = open_node(pos)
        stack = [root]
        while stack:
            if pos >= n:
                raise fail(f"the graph ends with {len(stack)} node(s) not closed "
                           "(unbalanced parentheses)", pos)
            typ, text, _ = toks[pos]
            if typ == "RPAREN":
                pos += 1
                node = stack.pop()
                if stack:
                    branches = stack[-1][1]
                    branches[-1] = (branches[-1][0], node)
                continue
            if typ != "ROLE":
                raise fail(f"expected a role or ')' but found {_show(text)}", pos)
            if len(text) < 2:
                raise fail("a role without a name (':')", pos)
            role = text
            pos += 1
            if pos < n and toks[pos][0] == "ALIGNMENT":
                role += toks[pos][1]
                pos += 1
            ttyp = toks[pos][0] if pos < n else None
            if ttyp in ("SYMBOL", "STRING"):
                target = toks[pos][1]
                pos += 1
                if pos < n and toks[pos][0] == "ALIGNMENT":
                    target += toks[pos][1]
                    pos += 1
                stack[-1][1].append((role, target))
            elif ttyp == "LPAREN":
                stack[-1][1].append((role, None))  # the node, once it is closed
                pos, child = open_node(pos)
                stack.append(child)
            elif ttyp is None:
                continue  # reported as an unclosed node
            else:
                raise fail(f"role {text} of {stack[-1][0]!r} has no value", pos - 1)
        trees.append((first_line, penman.Tree(root, metadata=metadata)))
    return trees


def iter_penman(source: str | os.PathLike | IO[str], name: str | None = None) -> Iterator[Graph]:
    """Stream the graphs of a PENMAN file (a path or an open text file)."""
    label = _source_label(source, name)
    if isinstance(source, (str, os.PathLike)):
        yield from _iter_lines(_path_lines(source, label), label)
    else:
        yield from _iter_lines(source, label)


def _source_label(source, name: str | None) -> str:
    if isinstance(source, (str, os.PathLike)):
        return name or str(source)
    return name or getattr(source, "name", "<input>")


def _path_lines(path: str | os.PathLike, label: str) -> Iterator[str]:
    """The decoded lines of a file (a byte that is not UTF-8 is an error naming its line)."""
    try:
        fh = open(path, "rb")
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", label) from None
    with fh:
        yield from _decoded_lines(fh, label)


def _decoded_lines(fh: IO[bytes], label: str) -> Iterator[str]:
    """The lines of a binary file as UTF-8 text (a leading byte order mark is dropped);
    bytes that are not UTF-8 are an error naming the line."""
    try:
        for lineno, raw in enumerate(fh, 1):
            try:
                line = raw.decode("utf-8-sig" if lineno == 1 else "utf-8")
            except UnicodeDecodeError as exc:
                raise InputError(f"not UTF-8 text: byte 0x{raw[exc.start]:02x} at column {exc.start + 1}",
                                 label, lineno) from None
            yield line
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", label) from None


def _iter_lines(lines: Iterable[str], label: str) -> Iterator[Graph]:
    index = 0
    try:
        for start, block in _blocks(lines):
            graphs = parse_block(start, block, label, index)
            index += len(graphs)
            yield from graphs
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text ({exc.reason})", label) from None


def parse_block(start: int, block: str, label: str, index: int) -> list[Graph]:
    """Parse one blank-line separated block that starts at line ``start`` of file ``label``.

    ``index`` is the number of graphs before this block (graphs without ``# ::id`` are
    numbered from 1 in file order).  Comment-only blocks give no graph.
    """
    if _compiled is not None and not os.environ.get("MRKIT_PURE_PENMAN"):
        graphs = _compiled.read_block(block, start, index, label)
        if graphs is not None:  # None: not read cleanly, the Python code reports why
            return graphs
    content = [(k, ln) for k, ln in enumerate(block.splitlines())
               if ln.strip() and not ln.lstrip().startswith("#")]
    if not content:
        return []  # comment-only block (release header)
    if not content[0][1].lstrip().startswith("("):
        raise InputError(f"expected a PENMAN graph starting with '(' but found "
                         f"{content[0][1].strip()[:40]!r}", label, start + content[0][0],
                         _block_id(block) or str(index + 1))
    trees = _parse_trees(block, start, label, index)
    if not trees:
        raise InputError("no PENMAN graph could be read from this block", label, start,
                         _block_id(block) or str(index + 1))
    return [_tree_to_graph(tree, index + k + 1, label, line) for k, (line, tree) in enumerate(trees)]


def iter_blocks(source: str | os.PathLike | IO[bytes], name: str | None = None) -> Iterator[tuple[int, str]]:
    """Stream the (first line, text) blocks of a PENMAN file (a path or a binary stream),
    unparsed: cutting is cheap, parsing (:func:`parse_block`) can happen elsewhere.

    The same blocks as :func:`_blocks` over :func:`_decoded_lines` (lines end at ``\\n``,
    a blank line is one that ``str.strip()`` empties), cut from large chunks of the file
    by the compiled reader (or one regular expression) instead of line by line."""
    for blocks in iter_block_lists(source, name):
        yield from blocks


BLOCK_CHUNK = 1 << 20
"""Bytes read at a time by :func:`iter_blocks` (then completed to the end of a line)."""

_BLOCK = later(r"(?:[^\n]*\S[^\n]*(?:\n|\Z))+")
"""A block: a run of lines that are not blank (that ``str.strip()`` does not empty)."""


def _split_blocks_py(text: str, base: int, content_only: bool) -> tuple[list[tuple[int, str]], int, str | None]:
    """``_penman.split_blocks`` in Python: the blocks of ``text`` numbered from line
    ``base``, but the last one when it runs to the end of ``text`` (returned apart, as the
    tail); ``content_only`` leaves out comment-only blocks."""
    out, at, lineno = [], 0, base
    for m in _BLOCK.finditer(text):
        lineno += text.count("\n", at, m.start())
        at = m.start()
        if m.end() == len(text):
            return out, lineno, m.group()
        if not content_only or _CONTENT.search(m.group()):
            out.append((lineno, m.group()))
    return out, 0, None


_CONTENT = later(r"^[ \t]*[^#\s]", re.M)
"""A line of a block that is not a comment: the block holds a graph (or text to report)."""


def _split_blocks(text: str, base: int, content_only: bool) -> tuple[list[tuple[int, str]], int, str | None]:
    if _compiled is not None:
        return _compiled.split_blocks(text, base, content_only)
    return _split_blocks_py(text, base, content_only)


def iter_block_lists(source: str | os.PathLike | IO[bytes], name: str | None = None,
                     content_only: bool = False) -> Iterator[list[tuple[int, str]]]:
    """The (first line, text) blocks of a PENMAN file as :func:`iter_blocks` gives them,
    a list per megabyte of text read (no Python work per block); ``content_only`` leaves
    out the blocks that hold nothing but comments."""
    label = _source_label(source, name)
    if isinstance(source, (str, os.PathLike)):
        try:
            fh = open(source, "rb")
        except OSError as exc:
            raise InputError(f"cannot read: {exc.strerror}", label) from None
        with fh:
            yield from _chunk_blocks(fh, label, content_only)
    else:
        yield from _chunk_blocks(source, label, content_only)


def _chunk_blocks(fh: IO[bytes], label: str, content_only: bool = False) -> Iterator[list[tuple[int, str]]]:
    carry, carry_line = "", 0  # the unfinished last block of the text read so far
    line = 1  # line number of the next chunk's first line
    first = True
    while True:
        try:
            raw = fh.read(BLOCK_CHUNK)
            if raw and not raw.endswith(b"\n"):
                raw += fh.readline()
        except OSError as exc:
            raise InputError(f"cannot read: {exc.strerror}", label) from None
        if not raw:
            break
        bom = 0
        if first:
            first = False
            if raw.startswith(b"\xef\xbb\xbf"):  # utf-8-sig: dropped, but counted in columns
                raw, bom = raw[3:], 3
        bad = None
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:  # the blocks before the line, then the error
            cut = raw.rfind(b"\n", 0, exc.start) + 1
            text = raw[:cut].decode("utf-8")
            bad = (line + raw.count(b"\n", 0, cut), raw[exc.start], exc.start - cut + 1 + (bom if cut == 0 else 0))
        base = carry_line if carry else line
        line += text.count("\n")
        blocks, carry_line, tail = _split_blocks(carry + text, base, content_only)
        # the last block may go on in the next chunk (or ends at a bad line: dropped)
        carry = tail if tail is not None and bad is None else ""
        if blocks:
            yield blocks
        if bad is not None:
            raise InputError(f"not UTF-8 text: byte 0x{bad[1]:02x} at column {bad[2]}", label, bad[0])
    if carry and (not content_only or _CONTENT.search(carry)):
        yield [(carry_line, carry)]


def read_blocks(path: str | os.PathLike) -> list[tuple[int, str]]:
    """The (first line, text) blocks of a PENMAN file, for parsing in parallel."""
    return list(iter_blocks(path))


try:  # the compiled reader (_penman.c): _tokens + _parse_trees + _tree_to_graph of a block
    from . import _penman as _compiled

    _compiled.configure(Graph, Node, Edge, Property)
except ImportError:  # not built: the Python code reads everything
    _compiled = None


def _block_id(block: str) -> str | None:
    m = re.search(r"#\s*::id\s+(\S+)", block)
    return m.group(1) if m else None


def read_penman(source: str | os.PathLike | IO[str]) -> list[Graph]:
    """Read all graphs of a PENMAN file."""
    from ._files import gc_paused

    with gc_paused():
        return list(iter_penman(source))


def loads(text: str, name: str = "<string>") -> list[Graph]:
    """Parse PENMAN text into graphs."""
    from ._files import gc_paused

    with gc_paused():
        return list(_iter_lines(io.StringIO(text), name))


# ---------------------------------------------------------------------------- writing

def _constant(p: Property) -> str:
    if p.quoted:
        return '"' + p.value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return p.value


def to_tree(g: Graph) -> penman.Tree:
    """Lay a graph out as a PENMAN tree from its first top, following edges as stored.

    An edge whose target was already placed becomes a re-entrant reference.  Nodes that
    cannot be reached from the top by outgoing edges are placed where an incoming edge
    reaches them, by writing that edge inverted.  The layout uses an explicit stack, so
    long chains are written whatever their depth.
    """
    import penman

    if not g.nodes:
        raise InputError("cannot write an empty graph as PENMAN", g.source_file, g.source_line, g.id)
    unlabelled = [v for v, node in g.nodes.items() if node.label is None]
    if unlabelled:
        raise InputError(f"node {unlabelled[0]!r} has no label: a PENMAN node needs a concept",
                         g.source_file, g.source_line, g.id)
    out: dict[str, list[Edge]] = {v: [] for v in g.nodes}
    inc: dict[str, list[Edge]] = {v: [] for v in g.nodes}
    for e in g.edges:
        out[e.source].append(e)
        inc[e.target].append(e)
    placed: set[str] = set()
    used: set[int] = set()

    def build(var: str):
        # a generator: yields the variable of each child to lay out, receives its subtree
        placed.add(var)
        node = g.nodes[var]
        branches: list[tuple] = [("/", node.label)]
        for p in node.properties:
            branches.append((":" + p.key, _constant(p)))
        for e in out[var]:
            if id(e) in used:
                continue
            used.add(id(e))
            if e.target in placed:
                branches.append((":" + e.label, e.target))
            else:
                branches.append((":" + e.label, (yield e.target)))
        # nodes only reachable backwards: write the edge inverted
        for e in inc[var]:
            if id(e) in used or e.source in placed:
                continue
            used.add(id(e))
            branches.append((":" + _invert(e.label), (yield e.source)))
        return (var, branches)

    top = g.tops[0] if g.tops else next(iter(g.nodes))
    stack = [build(top)]
    value = None
    root = None
    while stack:
        try:
            child = stack[-1].send(value)
        except StopIteration as done:
            stack.pop()
            value = root = done.value
            continue
        stack.append(build(child))
        value = None
    missing = [v for v in g.nodes if v not in placed]
    if missing:
        raise InputError(f"nodes {missing[:5]} are not connected to the top", g.source_file,
                         g.source_line, g.id)
    meta = dict(g.metadata)
    if g.id is not None and "id" not in meta and not g.extra.get("auto_id"):
        meta = {"id": g.id, **meta}
    return penman.Tree(root, metadata=meta)


MAX_INDENT_DEPTH = 50
"""Nodes nested deeper than this are indented as if at this depth, so that a long chain
gives output linear in its length (the ``penman`` library's layout is quadratic)."""


def format_tree(tree: penman.Tree, indent: int | None = 6) -> str:
    """PENMAN text of a tree, as ``penman.format(tree, indent=indent)`` writes it
    (``indent`` columns per level, or ``None`` for one line), without recursion.
    Indentation stops growing below depth ``MAX_INDENT_DEPTH``."""
    parts = ["# ::{}{}".format(key, " " + value if value else value) for key, value in tree.metadata.items()]
    out: list[str] = []

    # stack of (branches iterator, joiner); a node's text is written as its pieces come
    def enter(node: tuple, depth: int) -> tuple | None:
        var, branches = node
        if not branches:
            out.append(f"({var})")
            return None
        out.append(f"({var} ")
        joiner = " " if indent is None else "\n" + " " * (indent * min(depth, MAX_INDENT_DEPTH))
        return (iter(branches), joiner, depth)

    frame = enter(tree.node, 1)
    stack = [frame] if frame else []
    first = True
    while stack:
        branches, joiner, depth = stack[-1]
        for role, target in branches:
            if not first:
                out.append(joiner)
            first = False
            if role != "/" and not role.startswith(":"):
                role = ":" + role
            if not target:
                out.append(role)
            elif isinstance(target, tuple):
                out.append(role + " ")
                frame = enter(target, depth + 1)
                if frame:
                    stack.append(frame)
                    first = True
                    break
            else:
                out.append(f"{role} {target}")
        else:
            out.append(")")
            stack.pop()
            first = False
    parts.append("".join(out))
    return "\n".join(parts)


def _invert(label: str) -> str:
    from ..model.amr import SMATCH

    return SMATCH.invert(label)


def dumps(graphs: Iterable[Graph], indent: int | None = 6) -> str:
    return "\n\n".join(format_tree(to_tree(g), indent=indent) for g in graphs) + "\n"


def write_penman(graphs: Iterable[Graph], path: str | os.PathLike) -> None:
    """Write graphs to a PENMAN file atomically."""
    from ._files import atomic_write

    atomic_write(path, dumps(graphs))
