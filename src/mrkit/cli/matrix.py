"""``mrkit matrix FILE [OTHER]``: all-pairs similarity of AMR graphs with any registered metric."""

from __future__ import annotations

import argparse

from ..errors import MrkitError
from .common import add_engine_options, add_executor_options, executor_of, progress_bar, to_json

HELP = """\
Similarity of every pair of graphs of one PENMAN file (or of every graph of FILE with
every graph of OTHER) under one registered metric (smatch, sema, sembleu, s2match, wlk,
wwlk, wwlk-k3e2n, simple), written as a sparse table: one row per pair (source, target,
their ids from '# ::id', score, and 'certified' for smatch and s2match), or with --top-k K
the K most similar graphs of each graph (a 'rank' column; ties go to the earlier graph).
Positions are 1-based. A graph is never paired with itself; a symmetric metric (all but
sembleu) on one file computes each unordered pair once, (i, j) with i < j (without
--top-k, only those rows are written).

The pairs are computed in blocks of --block graphs per side (raw text shipped to the
workers, so neither file needs to fit in one worker's memory), in this process, in worker
processes (-j N) or on a Dask cluster (--executor dask, --scheduler ADDRESS); the table is
the same whatever the workers and the block size, row for row. It goes to -o FILE
(Parquet when FILE ends in .parquet or .pq or with --table-format parquet, else TSV),
written atomically (nothing is left when the run fails), or as TSV to standard output;
with -o, a summary (graphs, pairs scored, rows, certified pairs) is printed (--json: as
JSON).

Metric options as for `mrkit score`: smatch/s2match the engine options, s2match --vectors
and --cutoff, sembleu -k, wlk -k and --edge-to-node, wwlk --vectors and -k.
"""

TABLE_FORMATS = ("tsv", "parquet")


def add_parser(sub) -> argparse.ArgumentParser:
    from ..metrics.registry import available

    p = sub.add_parser("matrix", help="all-pairs similarity (nearest neighbours) of AMR graphs, any metric",
                       description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", help="PENMAN file")
    p.add_argument("other", nargs="?", help="a second PENMAN file: pairs are FILE x OTHER (default: FILE x FILE)")
    p.add_argument("-m", "--metric", default="smatch", choices=available(), help="the metric (default smatch)")
    p.add_argument("--top-k", type=int, metavar="K", help="keep the K most similar graphs of each graph")
    p.add_argument("--min-score", type=float, metavar="X", help="keep only pairs scoring at least X")
    p.add_argument("--block", type=int, metavar="N",
                   help="graphs per side of a block of pairs sent to a worker (default: 64, smaller "
                        "for small inputs so that every worker gets eight blocks); the table does not "
                        "depend on it")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write the table to FILE (atomically; Parquet if FILE ends in .parquet/.pq)")
    p.add_argument("--table-format", choices=TABLE_FORMATS,
                   help="tsv or parquet (default: from the suffix of -o, else tsv)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON (with -o)")
    p.add_argument("--vectors", metavar="FILE", help="s2match/wwlk: word vectors (GloVe text) or 'none'")
    p.add_argument("-k", type=int, help="sembleu: longest n-gram; wlk/wwlk: Weisfeiler-Leman rounds")
    p.add_argument("--edge-to-node", action="store_true", help="wlk: turn edges into nodes first")
    p.add_argument("--cutoff", type=float, help="s2match: similarity cutoff (default 0.5)")
    add_engine_options(p)
    add_executor_options(p)
    return p


def table_format(args) -> str:
    if args.table_format:
        return args.table_format
    out = (args.output or "").lower()
    return "parquet" if out.endswith((".parquet", ".pq")) else "tsv"


def metric_options(args) -> dict:
    """The metric's options from the command line (as `mrkit score`; the executor runs
    the blocks, never inside the metric)."""
    from .score import options

    return options(argparse.Namespace(**{**vars(args), "workers": 0, "executor": "auto", "scheduler": None}))


def _tsv_value(v) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return repr(v)  # the shortest text that reads back as the same float
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v).replace("\t", " ").replace("\n", " ")


class _TSV:
    def __init__(self, fh) -> None:
        self.fh, self.header = fh, False

    def write(self, batch: dict) -> None:
        names = list(batch)
        if not self.header:
            self.fh.write(("\t".join(names) + "\n").encode("utf-8"))
            self.header = True
        cols = [batch[n].tolist() if hasattr(batch[n], "tolist") else batch[n] for n in names]
        self.fh.write("".join("\t".join(map(_tsv_value, row)) + "\n" for row in zip(*cols)).encode("utf-8"))

    def close(self) -> None:
        pass


class _Parquet:
    def __init__(self, fh) -> None:
        try:
            import pyarrow  # noqa: F401
            import pyarrow.parquet  # noqa: F401
        except ImportError:
            raise MrkitError("Parquet output needs pyarrow (pip install 'mrkit[dask]' or pyarrow)") from None
        self.fh, self.writer = fh, None

    def write(self, batch: dict) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        types = {"source": pa.int64(), "source_id": pa.string(), "target": pa.int64(), "target_id": pa.string(),
                 "rank": pa.int64(), "score": pa.float64(), "certified": pa.bool_()}
        table = pa.table({n: pa.array(v, type=types[n]) for n, v in batch.items()})
        if self.writer is None:
            self.writer = pq.ParquetWriter(self.fh, table.schema)
        self.writer.write_table(table)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def run(args) -> int:
    from ..codecs._files import atomic_stream
    from ..metrics.registry import declaration
    from ..pipeline.matrix import MatrixRun
    from ..runtime.executor import PARALLEL_MIN_PAIRS

    fmt = table_format(args)
    if fmt == "parquet" and not args.output:
        raise MrkitError("a Parquet table needs -o FILE")
    options = metric_options(args)
    run_ = MatrixRun(args.file, args.other, metric=args.metric, options=options, top_k=args.top_k,
                     min_score=args.min_score, block=args.block)
    worth = declaration(args.metric).aligns and run_.pairs_to_score() >= PARALLEL_MIN_PAIRS
    with executor_of(args, parallel_worth_it=worth) as executor:
        run_.use(executor)
        with atomic_stream(args.output or "-") as fh:
            writer = _Parquet(fh) if fmt == "parquet" else _TSV(fh)
            with progress_bar(run_.n_tasks(), "matrix", enabled=None if args.output else False) as tick:
                for batch in run_.batches(progress=tick):
                    writer.write(batch)
            writer.close()
    if args.output and args.output != "-":
        res = run_.result
        if args.json:
            print(to_json({**res.to_dict(), "output": args.output, "table_format": fmt}))
        else:
            cert = "" if res.certified is None else f", {res.certified} certified optimal"
            print(f"{res.metric}: {res.graphs_left} x {res.graphs_right} graphs, {res.pairs} pairs scored"
                  f"{cert}; {res.rows} rows written to {args.output} ({fmt})")
    return 0
