"""Results for the HTML report tests: the audit demo, rescores and diffs on small choice and JSON
tables, and each report full of hostile model text."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import polars as pl

from answer_audit.analysis.audit import AuditResult, AuditSettings, audit
from answer_audit.analysis.diff import DiffResult, diff_labelings
from answer_audit.analysis.rescore import RescoreResult, rescore
from answer_audit.sources import ColumnMap, write_runs
from answer_audit.sources.demo import demo_rows
from answer_audit.sources.spec import SourceSpec, load

# Each must reach the page as literal text: never as markup, script or template code.
HOSTILE = (
    "<script>window.__pwned=1;document.title='PWNED'</script>",
    "<img src=x onerror=\"window.__pwned=1;document.title='PWNED'\">",
    "</textarea><script>window.__pwned=1;document.title='PWNED'</script>",
    "</mark><b>bold?</b>",
    "{{ 7*7 }}",
)
STAMP = "2026-01-01 00:00 UTC"


class Elements(HTMLParser):
    """Start tags with their attributes, and the text and class of every <mark>, in document order."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.marks: list[str] = []
        self.mark_classes: list[str] = []
        self._in_mark = False
        self.feed(page)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))
        if tag == "mark":
            self._in_mark = True
            self.marks.append("")
            self.mark_classes.append(dict(attrs).get("class") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "mark":
            self._in_mark = False

    def handle_data(self, data: str) -> None:
        if self._in_mark:
            self.marks[-1] += data

    def with_class(self, name: str) -> list[dict[str, str]]:
        return [a for _, a in self.tags if name in a.get("class", "").split()]


def demo_result(tmp: Path) -> AuditResult:
    """The audit `make demo` runs (same rows, groups and settings)."""
    metadata = write_runs(demo_rows(0), tmp / "runs")
    loaded, groups = load(SourceSpec(runs_dir=tmp / "runs", metadata=metadata), ColumnMap())
    return audit(loaded.frame, settings=AuditSettings(group_by=groups))


def hostile_result() -> AuditResult:
    """Every hostile string in raw outputs (inside and outside the extracted span), ids, truths,
    stored parses and group values; each row flips, so each becomes an example."""
    raws, ids, groups = [], [], []
    for k, text in enumerate(HOSTILE):
        # freeform/v2 answers after </think>: the span is the hostile text + "London" (wrong),
        # while the stored parse (the whole text) contains the truth "Paris" (right).
        raws.append(f"Paris? {text}\n</think>\n{text} London")
        ids.append(f"{text}#{k}")
        groups.append(text)
    n = len(raws)
    frame = pl.DataFrame(
        {"id": ids, "raw": raws, "parsed": raws, "label": [True] * n, "truth": ["Paris"] * n,
         "g": groups}
    )  # fmt: skip
    return audit(frame, settings=AuditSettings(group_by=("g",), n_boot=200))


# A multiple-choice results table: raw output, the stored parse of an older parser (the last a-d
# letter anywhere), the truth, and a group; choice/v3 reads the answer line instead.
CHOICE_RAWS = (
    ("Answer: b", "b"),
    ("Options a, b, c, d.\nAnswer: c", "d"),
    ("I would say (a) because of the date.\nAnswer: a", "a"),
    ("Answer: d\nNote: see section b", "b"),
    ("The correct one is b.", "b"),
    ("Answer: a\nWait, that is wrong.\nAnswer: c", "a"),
    ("no idea", None),
)


def choice_table(rows: int = 48) -> pl.DataFrame:
    """``rows`` rows over three groups; the truth cycles so every group has several classes."""
    raws, parsed, truth, groups = [], [], [], []
    for k in range(rows):
        raw, stored = CHOICE_RAWS[k % len(CHOICE_RAWS)]
        raws.append(raw)
        parsed.append(stored)
        truth.append("abcd"[(k * 7) % 4] if k % 3 else (stored or "a"))
        groups.append(("run-1", "run-2", "run-3")[k % 3])
    return pl.DataFrame({"id": [f"q{k}" for k in range(rows)], "raw": raws, "parsed": parsed,
                         "truth": truth, "g": groups})  # fmt: skip


def choice_rescore() -> RescoreResult:
    return rescore(choice_table(), "choice/v3", group_by=("g",), n_boot=200, seed=3)


def choice_diff() -> DiffResult:
    return diff_labelings(choice_table(), "choice/v1", "choice/v3", group_by=("g",))


def json_rescore() -> RescoreResult:
    """json/isup_grade (grades 0-5): valid, null, missing-key, out-of-range and fallback rows."""
    raws = ['{"isup_grade": 3}', '{"isup_grade": null}', '{"grade": 4}', '{"isup_grade": 7}',
            "grade 2 at 15", '{"isup_grade": 1}', "nothing", '{"isup_grade": 0}']  # fmt: skip
    frame = pl.DataFrame({"id": [str(k) for k in range(8)], "raw": raws,
                          "parsed": ["3", "0", None, "7", "2", "1", None, "0"],
                          "truth": ["3", "1", "4", "5", "2", "1", "0", "0"], "site": list("AABBAABB")})  # fmt: skip
    return rescore(frame, "json/isup_grade", group_by=("site",), n_boot=100, seed=1)


def hostile_table() -> pl.DataFrame:
    """Each hostile string in a raw output (before and after a </think>), in the stored parse,
    the id and the group; freeform/v1 reads the whole text, freeform/v2 only the tail."""
    raws = [f"Paris? {text}\n</think>\n{text} London" for text in HOSTILE]
    return pl.DataFrame({"id": [f"{text}#{k}" for k, text in enumerate(HOSTILE)], "raw": raws,
                         "parsed": raws, "truth": ["Paris"] * len(raws), "g": list(HOSTILE)})  # fmt: skip


def hostile_rescore() -> RescoreResult:
    return rescore(hostile_table(), "freeform/v2", group_by=("g",), n_boot=50)


def hostile_diff() -> DiffResult:
    return diff_labelings(hostile_table(), "freeform/v1", "freeform/v2", group_by=("g",))


def assert_self_contained(page: str) -> None:
    """No network reference anywhere, only in-page or data: URLs, and our CSP first in <head>."""
    from markupsafe import escape

    from answer_audit.report.html import CSP

    assert "http://" not in page and "https://" not in page
    assert "url(" not in page and "@import" not in page
    for tag, attrs in Elements(page).tags:
        for key in ("src", "href", "srcset", "action", "data"):
            value = attrs.get(key)
            if value is not None:
                assert value.startswith(("#", "data:")), (tag, key, value)
    head = page[: page.index("<style>")]
    assert f'<meta http-equiv="Content-Security-Policy" content="{escape(CSP)}">' in head
    assert head.index("Content-Security-Policy") < head.index("<title>")
