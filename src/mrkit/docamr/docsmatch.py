"""Moved to :mod:`mrkit.metrics.document.docsmatch` (the metric) and
:mod:`mrkit.pipeline.document` (files in, corpus result out); kept for one release."""

from mrkit.metrics.document.docsmatch import *  # noqa: F401,F403


def docsmatch_files(gold_path, system_path, config=None):
    """Document Smatch of two PENMAN files of document graphs, paired in order, as a
    :class:`~mrkit.metrics.document.docsmatch.DocSmatchResult` (kept for one release:
    :func:`mrkit.pipeline.document.score_documents` streams the pairs and returns the
    common corpus result)."""
    from mrkit.align import AlignConfig
    from mrkit.codecs.docgraphs import read_document_graphs
    from mrkit.errors import InputError
    from mrkit.metrics.document.docsmatch import docsmatch_graphs

    golds = read_document_graphs(gold_path)
    systems = read_document_graphs(system_path)
    if len(golds) != len(systems):
        raise InputError(f"holds {len(systems)} graphs but the gold file {gold_path} holds {len(golds)}",
                         system_path)
    return docsmatch_graphs(golds, systems, config or AlignConfig())
