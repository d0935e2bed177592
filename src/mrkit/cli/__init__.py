"""The ``mrkit`` command line: a thin layer over the Python API.

Every subcommand lives in its own module of this package with two functions,
``add_parser(subparsers)`` and ``run(args) -> int``.  Errors in the input reach the user
as one line ``mrkit: <file:line, graph id: message>`` with exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from ..errors import MrkitError

# subcommand name -> module in this package
COMMANDS = {
    "smatch": "smatch",
    "mrp": "mrp",
    "convert": "convert",
    "validate": "validate",
    "score": "score",
    "compare": "compare",
    "coref": "coref",
    "hierarchy": "hierarchy",
    "docamr": "docamr",
    "docsmatch": "docsmatch",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mrkit",
        description="Read, convert, build and score meaning-representation graphs.",
    )
    from .. import __version__

    parser.add_argument("--version", action="version", version=f"mrkit {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, module in COMMANDS.items():
        mod = importlib.import_module(f".{module}", __name__)
        p = mod.add_parser(sub)
        p.set_defaults(_run=mod.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args._run(args) or 0)
    except MrkitError as exc:
        print(f"mrkit: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("mrkit: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
