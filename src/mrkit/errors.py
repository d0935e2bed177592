"""Errors that reach the user as one line and exit status 2."""

from __future__ import annotations


class MrkitError(Exception):
    """Base class: the CLI prints ``mrkit: <message>`` and exits with status 2."""


class InputError(MrkitError):
    """Bad input data: names the file, the graph (index or id) and the line."""

    def __init__(
        self,
        message: str,
        file: str | None = None,
        line: int | None = None,
        graph: str | int | None = None,
        unit: str = "graph",
    ) -> None:
        self.file = file
        self.unit = unit
        """What ``graph`` names: a graph, or a document (coreference files)."""
        self.line = line
        self.graph = graph
        self.detail = message
        super().__init__(self._format())

    def __reduce__(self):  # survive the trip back from a worker process
        return (type(self), (self.detail, self.file, self.line, self.graph, self.unit))

    def _format(self) -> str:
        where = ""
        if self.file:
            where = str(self.file)
            if self.line is not None:
                where += f":{self.line}"
        parts = [p for p in (where, self._graph_part()) if p]
        prefix = ", ".join(parts)
        return f"{prefix}: {self.detail}" if prefix else self.detail

    def _graph_part(self) -> str:
        if self.graph is None:
            return ""
        return f"{self.unit} {self.graph}"


class OutputError(MrkitError):
    """An output file that cannot be written: ``cannot write PATH: reason``."""
