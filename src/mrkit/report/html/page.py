"""The page every HTML report shares: head with the inline style, header, footer
(command, version, input checksums), embedded JSON data and inline script.

Nothing is fetched: style, script and pictures are in the file, the favicon is an empty
``data:`` URL (so a browser does not ask for ``/favicon.ico``), fonts are the system's.  The
output depends only on its inputs (no dates, no random ids).
"""

from __future__ import annotations

import hashlib
import json
import shlex
from html import escape
from importlib.resources import files
from typing import Iterable, Sequence


def asset(name: str) -> str:
    """The text of a file of ``report/html/assets``."""
    return (files(__package__) / "assets" / name).read_text(encoding="utf-8")


def sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def command_line(argv: Sequence[str]) -> str:
    return shlex.join(["mrkit", *argv])


def json_script(data, element_id: str = "mrkit-data") -> str:
    """``data`` as compact JSON inside a non-executed script element (``</`` escaped)."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    text = text.replace("</", "<\\/").replace("<!--", "<\\!--")
    return f'<script type="application/json" id="{element_id}">{text}</script>'


def footer(command: str, inputs: Iterable[tuple[str, str]], notes: Sequence[str] = ()) -> str:
    """The footer: the command that made the page, mrkit's version, the inputs' sha256."""
    from ... import __version__

    rows = "".join(f"<tr><td>{escape(role)}</td><td><code>{escape(path)}</code></td>"
                   f"<td><code>sha256:{sha256(path)}</code></td></tr>" for role, path in inputs)
    extra = "".join(f"<p>{n}</p>" for n in notes)
    return (f'<footer><p>Made by mrkit {escape(__version__)} with</p><p><code>{escape(command)}</code></p>'
            f"<table>{rows}</table>{extra}</footer>")


def page(title: str, subtitle: str, body: str, foot: str, data=None, script: bool = True) -> str:
    """A whole HTML document."""
    parts = ['<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             '<meta name="generator" content="mrkit">',
             '<link rel="icon" href="data:,">',
             f"<title>{escape(title)}</title><style>{asset('report.css')}</style></head>",
             "<body>" if script else '<body class="static">',
             f'<header class="top"><h1>{escape(title)}</h1><p>{subtitle}</p></header><main>',
             body, "</main>", foot]
    if data is not None:
        parts.append(json_script(data))
    if script:
        parts.append(f"<script>{asset('report.js')}</script>")
    parts.append("</body></html>\n")
    return "".join(parts)
