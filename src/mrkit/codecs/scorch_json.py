"""Reader for scorch's JSON documents (the input of the ``scorch`` coreference scorer).

One document per file, as scorch reads it: ``{"type": "clusters", "clusters": {"name":
[mention, ...], ...}}`` or a mention-link graph ``{"type": "graph", "mentions": [...],
"links": [[a, b], ...]}`` whose clusters are the connected components (mentions without a
link are singletons).  A mention is a string or an integer.  A directory holds one file
per document (``*.json``, in name order), the document id being the file name without its
suffix, as scorch pairs gold and system directories; a file alone is one document named
by its stem.  Bad input is an :class:`~mrkit.errors.InputError` naming the file.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import InputError
from ..model.clusters import CorefDocument
from ..model.union_find import UnionFind
from ._coref_json import show
from ._files import parse_json, read_text


def _mention(value, name: str):
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise InputError(f"a mention must be a string or an integer, not {show(value)}", name)
    return value


def read_scorch_file(path: str | os.PathLike) -> CorefDocument:
    name = os.fspath(path)
    obj = parse_json(read_text(name), name)
    if not isinstance(obj, dict) or obj.get("type") not in ("clusters", "graph"):
        raise InputError('not a scorch document: an object with "type": "clusters" or "graph" is expected', name, 1)
    doc_id = Path(name).stem
    if obj["type"] == "clusters":
        clusters = obj.get("clusters")
        if not isinstance(clusters, dict):
            raise InputError('"clusters" must be an object: cluster name -> list of mentions', name, 1)
        out = []
        for key, members in clusters.items():
            if not isinstance(members, list):
                raise InputError(f"cluster {show(key)} must be a list of mentions, not {show(members)}", name, 1)
            out.append([_mention(m, name) for m in members])
        return CorefDocument(doc_id, [c for c in out if c], name, 1)
    mentions, links = obj.get("mentions"), obj.get("links")
    if not isinstance(mentions, list) or not isinstance(links, list):
        raise InputError('a graph needs "mentions" and "links" lists', name, 1)
    nodes = list(dict.fromkeys(_mention(m, name) for m in mentions))
    sets = UnionFind()
    for link in links:
        if not (isinstance(link, list) and len(link) == 2):
            raise InputError(f"a link must be [mention, mention], not {show(link)}", name, 1)
        sets.union(*(_mention(m, name) for m in link))
    groups: dict = {}
    for m in list(dict.fromkeys(nodes + [m for link in links for m in link])):
        groups.setdefault(sets.find(m), []).append(m)
    return CorefDocument(doc_id, list(groups.values()), name, 1)


def read_scorch(path: str | os.PathLike) -> list[CorefDocument]:
    """The documents of a scorch JSON file or of a directory of them."""
    name = os.fspath(path)
    if os.path.isdir(name):
        files = sorted(p for p in Path(name).iterdir() if p.suffix == ".json" and p.is_file())
        if not files:
            raise InputError("directory holds no .json document", name)
        return [read_scorch_file(p) for p in files]
    return [read_scorch_file(name)]
