"""Document coreference: the readers of MS-AMR XML and chain JSON (the data structures are in
:mod:`mrkit.model.document`).

A :class:`Document` is a list of sentence graphs plus cross-sentence annotation over
them: identity :class:`Chain` s of (sentence, variable) :class:`Mention` s, implicit
roles (a predicate of one sentence whose argument is a chain) and bridging relations
between chains (:class:`Bridge`: ``set-member`` or ``part-whole``).  Sentence indices
are 0-based positions in ``Document.sentences``.

Two inputs are read here:

* the MS-AMR XML of AMR 3.0 (``<identchain>`` with ``<mention>`` / ``<implicitrole>``,
  ``<singletons>``, ``<bridging>`` with ``<setmember>`` / ``<partwhole>``) together with
  the sentence AMR files it points to (:func:`read_msamr`);
* mrkit's chain JSON (:func:`read_chain_json` / :func:`write_chain_json`)::

      {"document": "doc1",
       "sentences": ["id-of-sentence-1", ...],                 (optional, checked)
       "chains": [{"id": "c1", "mentions": [[0, "i"], [3, "i2"]],
                   "implicit": [[2, "f", "ARG1"]]}],          (optional)
       "bridges": [{"kind": "set-member", "parent": "c1", "children": ["c2"]}]}

Every mention is checked against the sentence graphs: a mention that names a missing
sentence or variable is an :class:`~mrkit.errors.InputError`, and so is a chain JSON value
of the wrong type (a sentence index ``1.9`` or ``true``); an identity chain with a single
mention is harmless and only warned about.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence
from xml.parsers import expat

from ..errors import InputError
from ..model.document import Bridge, Chain, Checker, Document, ImplicitRole, Mention, check_document
from ..model.graph import Graph

# ------------------------------------------------------------------ MS-AMR XML

@dataclass
class _Elem:
    """An XML element with the line it starts on."""

    tag: str
    attrib: dict[str, str]
    line: int
    children: list["_Elem"] = field(default_factory=list)

    def find(self, tag: str) -> "_Elem | None":
        return next((c for c in self.children if c.tag == tag), None)


def _parse_xml(path: str) -> _Elem:
    """A tiny element tree that remembers line numbers (for error messages)."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", path) from None
    parser = expat.ParserCreate()
    root = _Elem("#root", {}, 0)
    stack = [root]

    def refuse(*_args):  # entity declarations: refused whatever the system's expat allows
        raise InputError("XML entity declarations are not accepted", path, parser.CurrentLineNumber)

    def doctype(name, system_id, public_id, has_internal_subset):
        # MS-AMR files name an external DTD (<!DOCTYPE msamr SYSTEM "msamr.dtd">), which is
        # never read; an internal subset (where declarations live) is refused
        if has_internal_subset:
            raise InputError("XML with an internal DTD subset (declarations) is not accepted", path,
                             parser.CurrentLineNumber)

    def start(tag, attrib):
        e = _Elem(tag, dict(attrib), parser.CurrentLineNumber)
        stack[-1].children.append(e)
        stack.append(e)

    def end(tag):
        stack.pop()

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.StartDoctypeDeclHandler = doctype
    parser.EntityDeclHandler = refuse
    parser.UnparsedEntityDeclHandler = refuse
    parser.ExternalEntityRefHandler = refuse
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise InputError(f"malformed XML: {expat.ErrorString(exc.code)}", path, exc.lineno) from None
    except (LookupError, ValueError, UnicodeError) as exc:  # unknown or wrong encoding
        raise InputError(f"cannot decode the XML: {exc}", path, parser.CurrentLineNumber or 1) from None
    except RecursionError:
        raise InputError("XML nested too deeply", path, parser.CurrentLineNumber) from None
    return root


def _index_graphs(amr_paths: str | os.PathLike | Iterable[str | os.PathLike]) -> dict[str, Graph]:
    from .penman import iter_penman

    if isinstance(amr_paths, (str, os.PathLike)):
        amr_paths = [amr_paths]
    by_id: dict[str, Graph] = {}
    for path in amr_paths:
        for g in iter_penman(path):
            by_id.setdefault(str(g.id), g)
    return by_id


def _need(e: _Elem, key: str, file: str) -> str:
    if key not in e.attrib:
        raise InputError(f"<{e.tag}> has no {key!r} attribute", file, e.line)
    return e.attrib[key]


def read_msamr(xml_path: str | os.PathLike | Iterable[str | os.PathLike],
               amr_paths: str | os.PathLike | Iterable[str | os.PathLike]) -> list[Document]:
    """Read MS-AMR coreference XML file(s) with the sentence AMR file(s) they point to.

    Returns one :class:`Document` per ``<document>``; its sentences are the graphs named
    by ``<sentences><amr id=...>`` in their ``order``.
    """
    xml_paths = [xml_path] if isinstance(xml_path, (str, os.PathLike)) else list(xml_path)
    graphs = _index_graphs(amr_paths)
    docs = []
    for xp in xml_paths:
        file = str(xp)
        root = _parse_xml(file)
        elems = [e for e in root.children if e.tag == "document"]
        if not elems:
            raise InputError("no <document> element (is this MS-AMR XML?)", file, 1)
        docs.extend(_read_document(e, graphs, file) for e in elems)
    return docs


def _read_document(d: _Elem, graphs: dict[str, Graph], file: str) -> Document:
    sent = d.find("sentences")
    if sent is None:
        raise InputError("<document> has no <sentences>", file, d.line)
    amrs = [a for a in sent.children if a.tag == "amr"]
    def order(k: int, a: _Elem) -> int:
        text = a.attrib.get("order")
        if not text:
            return k + 1
        if not text.strip().isascii() or not text.strip().isdigit():
            raise InputError(f"<amr> order {text!r} is not a whole number", file, a.line)
        return int(text)

    ordered = sorted(enumerate(amrs), key=lambda t: (order(*t), t[0]))
    position: dict[str, int] = {}
    sentences: list[Graph] = []
    for _, a in ordered:
        sid = _need(a, "id", file)
        if sid not in graphs:
            raise InputError(f"sentence {sid} is not in the AMR files", file, a.line)
        position[sid] = len(sentences)
        sentences.append(graphs[sid])
    doc = Document(sent.attrib.get("docid") or (sentences[0].id if sentences else "document"),
                   sentences, source_file=file)
    check = Checker(sentences, file)
    lines: dict[str, int] = {}

    def locate(e: _Elem) -> int:
        sid = _need(e, "id", file)
        if sid not in position:
            raise InputError(f"<{e.tag}> names sentence {sid}, which is not in this document", file, e.line)
        return position[sid]

    def read_chain(c: _Elem, singleton: bool) -> None:
        cid = _need(c, "relationid", file)
        lines[cid] = c.line
        mentions = []
        for m in c.children:
            k = locate(m)
            if m.tag == "mention":
                var = _need(m, "variable", file)
                check.mention(k, var, m.line)
                if Mention(k, var) not in mentions:
                    mentions.append(Mention(k, var))
            elif m.tag == "implicitrole":
                var = _need(m, "parentvariable", file)
                check.mention(k, var, m.line, "implicit role")
                doc.implicit.append(ImplicitRole(cid, k, var, _need(m, "argument", file)))
        doc.chains.append(Chain(cid, mentions, singleton))

    rel = d.find("relations")
    if rel is not None:
        for section, singleton in (("identity", False), ("singletons", True)):
            s = rel.find(section)
            for c in (s.children if s is not None else []):
                if c.tag == "identchain":
                    read_chain(c, singleton)
        bridging = rel.find("bridging")
        for b in (bridging.children if bridging is not None else []):
            kind = {"setmember": "set-member", "partwhole": "part-whole"}.get(b.tag)
            if kind is None:
                raise InputError(f"unknown bridging element <{b.tag}>", file, b.line)
            parent, children = None, []
            for m in b.children:
                cid = _need(m, "id", file)
                lines.setdefault("bridge:" + cid, m.line)
                if m.tag in ("superset", "whole"):
                    parent = cid
                else:
                    children.append(cid)
            if parent is None or not children:
                raise InputError(f"<{b.tag}> needs a parent and at least one member", file, b.line)
            doc.bridges.append(Bridge(kind, parent, children))
    check_document(doc, lines)
    return doc


# ------------------------------------------------------------------ chain JSON

def read_chain_json(path: str | os.PathLike, sentences: Sequence[Graph]) -> Document:
    """Read mrkit's chain JSON (see the module docstring) over the given sentence graphs.

    Every value is checked: a chain is an object whose ``id`` is a string or an integer,
    a mention ``[sentence, variable]`` and an implicit role ``[sentence, variable, role]``
    with an integer sentence index (not ``1.9``, not ``true``) and strings, ``singleton``
    a boolean, a bridge an object with a string ``kind``, a ``parent`` chain id and a
    list of ``children`` chain ids.  Anything else is an :class:`InputError` naming the
    file and the chain (the file is one JSON value, so there is no line to name)."""
    file = str(path)
    from ._coref_json import is_int, record_id, show
    from ._files import parse_json, read_text

    data = parse_json(read_text(path), file, 1)
    if not isinstance(data, dict) or not isinstance(data.get("chains", []), list):
        raise InputError("expected an object with a \"chains\" list", file, 1)
    names = data.get("sentences")
    if names is not None and not isinstance(names, list):
        raise InputError("\"sentences\" must be a list of sentence ids", file)
    if names is not None:
        have = [str(g.id) for g in sentences]
        if list(map(str, names)) != have:
            raise InputError(f"lists sentences {names[:3]}... but the AMR file holds {have[:3]}...", file)
    doc_id = data.get("document")
    if doc_id is not None and not (isinstance(doc_id, str) or is_int(doc_id)):
        raise InputError(f"\"document\" must be a string or an integer, not {show(doc_id)}", file)
    doc = Document(str(doc_id or (sentences[0].id if sentences else "document")),
                   list(sentences), source_file=file)
    check = Checker(sentences, file)

    def items(c: dict, key: str, what: str, bad, shape: str, parts: str) -> list:
        value = c.get(key, [])
        if not isinstance(value, list):
            raise bad(f"\"{key}\" must be a list of {shape}, not {show(value)}")
        for j, x in enumerate(value):
            if not (isinstance(x, list) and len(x) == shape.count(",") + 1 and is_int(x[0])
                    and all(isinstance(y, str) for y in x[1:])):
                raise bad(f"{what} {j + 1} must be {shape}: {parts}, not {show(x)}")
        return value

    def chain_id(x) -> bool:
        return isinstance(x, str) or is_int(x)

    for k, c in enumerate(data.get("chains", [])):
        if not isinstance(c, dict):
            raise InputError(f"chain {k + 1} must be an object, not {show(c)}", file)
        cid, bad = record_id(c.get("id", f"c{k}"), f"chain {k + 1}: \"id\"", file, None, unit="chain")
        mentions = []
        for s, v in items(c, "mentions", "mention", bad, "[sentence, variable]",
                          "an integer sentence index (0-based) and a variable name"):
            check.mention(s, v, None, f"chain {cid}: mention")
            if Mention(s, v) not in mentions:
                mentions.append(Mention(s, v))
        for s, v, role in items(c, "implicit", "implicit role", bad, "[sentence, variable, role]",
                                 "an integer sentence index (0-based), a variable name and a role"):
            check.mention(s, v, None, f"chain {cid}: implicit role")
            doc.implicit.append(ImplicitRole(cid, s, v, role.lstrip(":")))
        singleton = c.get("singleton", False)
        if not isinstance(singleton, bool):
            raise bad(f"\"singleton\" must be true or false, not {show(singleton)}")
        doc.chains.append(Chain(cid, mentions, singleton))
    bridges = data.get("bridges", [])
    if not isinstance(bridges, list):
        raise InputError(f"\"bridges\" must be a list, not {show(bridges)}", file)
    for j, b in enumerate(bridges):
        children = b.get("children") if isinstance(b, dict) else None
        if not (isinstance(b, dict) and isinstance(b.get("kind"), str) and chain_id(b.get("parent"))
                and isinstance(children, list) and all(map(chain_id, children))):
            raise InputError(f"bridge {j + 1} must be an object with a \"kind\", a \"parent\" chain id and "
                             f"a list of \"children\" chain ids: {show(b)}", file)
        doc.bridges.append(Bridge(b["kind"], str(b["parent"]), [str(x) for x in children]))
    check_document(doc)
    return doc


def chain_json(doc: Document) -> dict:
    """The JSON object :func:`write_chain_json` writes."""
    chains = []
    for c in doc.chains:
        d: dict = {"id": c.id, "mentions": [[m.sentence, m.variable] for m in c.mentions]}
        imp = [[r.sentence, r.variable, r.role] for r in doc.implicit if r.chain == c.id]
        if imp:
            d["implicit"] = imp
        if c.singleton:
            d["singleton"] = True
        chains.append(d)
    return {
        "document": doc.id,
        "sentences": [g.id for g in doc.sentences],
        "chains": chains,
        "bridges": [{"kind": b.kind, "parent": b.parent, "children": list(b.children)} for b in doc.bridges],
    }


def write_chain_json(doc: Document, path: str | os.PathLike) -> None:
    """Write a document's chains as chain JSON (atomically)."""
    from ._files import atomic_write

    atomic_write(path, json.dumps(chain_json(doc), indent=1, ensure_ascii=False) + "\n")
