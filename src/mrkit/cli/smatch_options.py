"""The options of ``mrkit smatch`` beyond classic Smatch: subscores, triple kinds,
conventions, several references (their parsing and their text lines)."""

from __future__ import annotations

from ..errors import MrkitError


def add_variant_options(p) -> None:
    g = p.add_argument_group("fine-grained evaluation and conventions")
    g.add_argument("--subscores", action="store_true",
                   help="also report amr-evaluation's eight subscores (Unlabeled, No WSD, Reentrancies, SRL "
                        "exact and certified; Concepts, Named Ent., Negations, Wikification)")
    just = g.add_mutually_exclusive_group()
    for kind in ("instance", "attribute", "relation"):
        just.add_argument(f"--just{kind}", action="store_true",
                          help=f"score the {kind} triples only (smatch.py's --just{kind}"
                               + ("; TOP counts as an attribute, as in smatch.py)" if kind == "attribute" else ")"))
    g.add_argument("--top", choices=("smatch", "concept"), default=None,
                   help="TOP triple: smatch = (TOP, root, top), matched when roots align (default); "
                        "concept = the root's concept, matched when aligned roots share it (smatchpp, amr-evaluation)")
    g.add_argument("--mod-domain", action="store_true",
                   help="read (a :domain b) as (b :mod a) (AMR guidelines; smatchpp's domain2mod; "
                        "smatch.py 1.0.4's reader does the same)")
    g.add_argument("--roles", choices=("as-written", "reify", "dereify", "dereify-smatchpp"), default=None,
                   help="reify or dereify roles with penman's AMR model table before scoring (default: as "
                        "written); dereify-smatchpp: only the dereifications smatchpp's standardiser makes")
    g.add_argument("--standardize", action="store_true",
                   help="smatchpp's AMR standardisation: --top concept --mod-domain --roles dereify-smatchpp")
    g.add_argument("--also-gold", action="append", metavar="GOLD2",
                   help="another reference file of the same sentences (repeatable): multi-reference Smatch")
    g.add_argument("--multi-ref", choices=("best", "mean"), default="best",
                   help="with --also-gold: per sentence the best reference (highest F1) or the mean of the counts")


def conventions_of(args):
    from ..features.conventions import Conventions

    if args.standardize:
        if (args.top not in (None, "concept") or args.roles not in (None, "dereify-smatchpp")):
            raise MrkitError("--standardize sets --top concept and --roles dereify-smatchpp: do not ask for others")
        return Conventions.standardized()
    return Conventions(args.top or "smatch", args.mod_domain, args.roles or "as-written")


def default_conventions(args) -> bool:
    """``conventions_of(args).is_default``, told from the options alone (without importing
    the conventions: start-up of a classic ``mrkit smatch``)."""
    return (not args.standardize and (args.top or "smatch") == "smatch" and not args.mod_domain
            and (args.roles or "as-written") == "as-written")


def just_of(args) -> str | None:
    for kind in ("instance", "attribute", "relation"):
        if getattr(args, f"just{kind}", False):
            return kind
    return None


def subscore_lines(detail: dict, digits: int) -> list[str]:
    """The text table of ``detail["subscores"]``."""
    d = digits
    table = detail["subscores"]
    w = 6 + d
    lines = ["", f"Subscores{'':7}{'P':>{w}}{'R':>{w}}{'F1':>{w}}  matched/gold/system  kind"]
    for name, row in table.items():
        empty = row["gold"] == 0 and row["system"] == 0
        kind = row["kind"] + (" (none in gold or system)" if empty else "")
        ci = row.get("ci_f1")
        extra = f"  F1 CI [{ci[0]:.{d}f}, {ci[1]:.{d}f}]" if ci else ""
        lines.append(f"{row['title']:<16}{row['precision']:>{w}.{d}f}{row['recall']:>{w}.{d}f}{row['f1']:>{w}.{d}f}"
                     f"  {row['matched']:g}/{row['gold']}/{row['system']}  {kind}{extra}")
    n, c = detail.get("subscores_pairs"), detail.get("subscores_certified")
    if n is not None:
        lines.append(f"Alignment-based subscores certified optimal: {c}/{n} pairs "
                     "(amr-evaluation hill-climbs them and can report less)")
    return lines
