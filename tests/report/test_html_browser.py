"""The HTML report in a real headless Chromium: hostile model text never runs, the demo renders
cleanly (no console errors or CSP reports), prints with examples expanded, and screenshots well.

Chromium comes from Debian's `chromium` package, installed by `.ci/run` (never by a test). When it
is missing these tests skip with the command to install it, and fail under `CI=true`. They share one
xdist group: each starts a browser of its own, and two at once on a 2-core machine only time out.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from answer_audit.report.html import render_audit_html
from answer_audit.report.html.diff import render_diff_html
from answer_audit.report.html.rescore import render_rescore_html
from answer_audit.schemes.apply import default_schemes
from browser_support import DevTools, browser_unavailable, find_chromium, run_headless
from html_fixtures import (
    HOSTILE,
    STAMP,
    choice_diff,
    choice_rescore,
    demo_result,
    hostile_diff,
    hostile_rescore,
    hostile_result,
)
from paths import REPO

REPO_TMP = REPO / "tmp"
pytestmark = pytest.mark.xdist_group("browser")


@pytest.fixture(scope="session")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> str:
    binary = find_chromium()
    if binary is None:
        browser_unavailable("no chromium binary was found")
    probe = run_headless(binary, ["--dump-dom", "about:blank"], tmp_path_factory.mktemp("probe"))
    if "<html" not in probe.stdout:
        browser_unavailable(f"{binary} does not run headless here: {probe.stderr.strip()[-300:]}")
    return binary


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("pages")
    hostile = folder / "hostile.html"
    hostile.write_text(render_audit_html(hostile_result(), generated_at=STAMP), encoding="utf-8")
    demo = folder / "demo.html"
    demo.write_text(render_audit_html(demo_result(folder), generated_at=STAMP), encoding="utf-8")
    # A page that does run a script: proves the harness would notice if ours did.
    canary = folder / "canary.html"
    canary.write_text(
        "<!DOCTYPE html><title>ok</title><script>document.title='PWNED'</script>", encoding="utf-8"
    )
    return {"hostile": hostile, "demo": demo, "canary": canary}


@pytest.fixture(scope="module")
def report_pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The rescore and diff reports: each on hostile text, and on a small choice table."""
    folder = tmp_path_factory.mktemp("reports")
    pages = {
        "hostile-rescore": render_rescore_html(hostile_rescore(), generated_at=STAMP),
        "hostile-diff": render_diff_html(hostile_diff(), generated_at=STAMP),
        "rescore": render_rescore_html(choice_rescore(), generated_at=STAMP),
        "diff": render_diff_html(choice_diff(), generated_at=STAMP),
    }
    for name, page in pages.items():
        (folder / f"{name}.html").write_text(page, encoding="utf-8")
    return {name: folder / f"{name}.html" for name in pages}


@pytest.fixture
def devtools(chromium: str, tmp_path: Path) -> Iterator[DevTools]:
    browser = DevTools(chromium, tmp_path / "profile")
    try:
        yield browser
    finally:
        browser.close()


def test_a_missing_browser_is_a_skip_that_says_how_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"no chromium.*`apt install chromium`"):
        browser_unavailable("no chromium binary was found")


def test_a_missing_browser_fails_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(
        pytest.fail.Exception, match=r"CI=true.*no chromium.*`apt install chromium`"
    ):
        browser_unavailable("no chromium binary was found")


def dump_dom(chromium: str, page: Path, profile: Path) -> str:
    done = run_headless(chromium, ["--dump-dom", page.as_uri()], profile)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_the_harness_sees_a_script_that_runs(
    chromium: str, pages: dict[str, Path], tmp_path: Path
) -> None:
    assert "<title>PWNED</title>" in dump_dom(chromium, pages["canary"], tmp_path)


def test_hostile_text_is_shown_literally_and_never_runs(
    chromium: str, pages: dict[str, Path], tmp_path: Path
) -> None:
    dom = dump_dom(chromium, pages["hostile"], tmp_path)
    assert "<title>Answer-parsing audit</title>" in dom and "<title>PWNED" not in dom
    lowered = dom.lower()
    for tag in ("<script", "<img", "<textarea", "</textarea", "<b>"):
        assert tag not in lowered, tag
    # serialized text nodes: the markup a model wrote is text, escaped only where HTML must
    for text in HOSTILE:
        literal = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        assert literal in dom
        assert f"<mark>{literal} London</mark>" in dom
    assert "{{ 7*7 }} London" in dom and "49 London" not in dom


def test_hostile_page_has_no_script_state_and_no_blocked_attempts(
    devtools: DevTools, pages: dict[str, Path]
) -> None:
    devtools.open(pages["hostile"].as_uri())
    assert devtools.evaluate("typeof window.__pwned") == "undefined"
    assert devtools.evaluate("document.title") == "Answer-parsing audit"
    assert devtools.evaluate("document.scripts.length + document.images.length") == 0
    marks = devtools.evaluate("[...document.querySelectorAll('mark')].map(m => m.textContent)")
    # one marked span per hostile row for each default scheme that parses (the stored one does not)
    parsing = sum(not s.uses_stored_parse for s in default_schemes("freeform"))
    assert sorted(marks) == sorted(f"{text} London" for text in HOSTILE * parsing)
    # nothing even tried to run or load (the CSP would have reported it)
    assert devtools.problems() == []


def test_demo_report_has_no_console_errors_and_prints_expanded(
    devtools: DevTools, pages: dict[str, Path]
) -> None:
    devtools.open(pages["demo"].as_uri())
    assert devtools.evaluate("document.querySelectorAll('.fp-pt').length") > 0
    first_example = "document.querySelector('details.example pre').checkVisibility()"
    assert devtools.evaluate(first_example) is False  # collapsed on screen
    devtools.send("Emulation.setEmulatedMedia", {"media": "print"})
    assert devtools.evaluate(first_example) is True  # expanded on paper
    assert (
        devtools.evaluate("getComputedStyle(document.querySelector('nav.toc')).display") == "none"
    )
    assert devtools.problems() == [], devtools.problems()


def test_demo_report_screenshot(chromium: str, pages: dict[str, Path], tmp_path: Path) -> None:
    shot = tmp_path / "demo.png"
    done = run_headless(
        chromium,
        [f"--screenshot={shot}", "--window-size=1280,2000", pages["demo"].as_uri()],
        tmp_path / "profile",
    )
    assert done.returncode == 0, done.stderr[-2000:]
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 20_000
    REPO_TMP.mkdir(exist_ok=True)
    shutil.copyfile(shot, REPO_TMP / "html_report_demo.png")  # for a human to look at


@pytest.mark.parametrize(
    ("kind", "title"),
    [("rescore", "Rescore with freeform/v2"), ("diff", "Diff: freeform/v1 vs freeform/v2")],
)
def test_hostile_rescore_and_diff_pages_never_run_anything(
    devtools: DevTools, report_pages: dict[str, Path], kind: str, title: str
) -> None:
    devtools.open(report_pages[f"hostile-{kind}"].as_uri())
    assert devtools.evaluate("typeof window.__pwned") == "undefined"
    assert devtools.evaluate("document.title") == title
    assert devtools.evaluate("document.scripts.length + document.images.length") == 0
    text = devtools.evaluate("document.body.textContent")
    for hostile in HOSTILE:
        assert hostile in text  # shown literally (wbr hints add no characters)
    if kind == "diff":
        marks = devtools.evaluate(
            "[...document.querySelectorAll('pre.raw mark')].map(m => m.textContent)"
        )
        assert sorted(m for m in marks if m.endswith("London")) == sorted(
            f"{hostile} London" for hostile in HOSTILE
        )
    assert devtools.problems() == [], devtools.problems()


@pytest.mark.parametrize("kind", ["rescore", "diff"])
def test_rescore_and_diff_reports_render_cleanly_print_expanded_and_screenshot(
    devtools: DevTools, report_pages: dict[str, Path], kind: str
) -> None:
    devtools.open(report_pages[kind].as_uri())
    assert devtools.evaluate("document.querySelectorAll('svg.chart').length") > 0
    assert devtools.evaluate("document.querySelectorAll('td.heat').length") > 0
    if kind == "diff":
        first = "document.querySelector('details.example pre').checkVisibility()"
        assert devtools.evaluate(first) is False  # collapsed on screen
        devtools.send("Emulation.setEmulatedMedia", {"media": "print"})
        assert devtools.evaluate(first) is True  # expanded on paper
        devtools.send("Emulation.setEmulatedMedia", {"media": ""})
    assert devtools.problems() == [], devtools.problems()
    data = devtools.screenshot()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 20_000
    REPO_TMP.mkdir(exist_ok=True)
    (REPO_TMP / f"html_report_{kind}.png").write_bytes(data)  # for a human to look at


NARROW_LAYOUT = """JSON.stringify({
  page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  nav: getComputedStyle(document.querySelector('nav.toc')).position,
  links: [...document.querySelectorAll('nav.toc a')].filter(
    a => a.getBoundingClientRect().right > document.documentElement.clientWidth + 1).length,
  shown: document.querySelectorAll('nav.toc a').length,
})"""


def test_a_narrow_screen_wraps_the_contents_and_never_scrolls_sideways(
    devtools: DevTools, pages: dict[str, Path], report_pages: dict[str, Path]
) -> None:
    import json

    for path in (pages["demo"], pages["hostile"], report_pages["rescore"], report_pages["diff"]):
        devtools.open(path.as_uri())
        for width in (320, 360):
            devtools.send("Emulation.setDeviceMetricsOverride",
                          {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": False})  # fmt: skip
            found = json.loads(devtools.evaluate(NARROW_LAYOUT))
            assert found["shown"] > 3, found
            # every link on screen (wrapped, not cut off), nothing wider than the screen, and the
            # contents scroll away with the page instead of covering it
            assert (found["links"], found["page"], found["nav"]) == (0, 0, "static"), (path, width)
        devtools.send("Emulation.setDeviceMetricsOverride",
                      {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})  # fmt: skip
        wide = json.loads(devtools.evaluate(NARROW_LAYOUT))
        assert (wide["page"], wide["nav"]) == (0, "sticky")
    assert devtools.problems() == [], devtools.problems()
