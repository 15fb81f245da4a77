"""Inputs that can be read only once (pipes, named FIFOs, /dev/stdin) and devices.

A pipe is read once into a private temporary file, so format detection (which peeks at a
file's start) cannot swallow the first rows and the seeking formats (Parquet, SQLite) work.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import polars as pl
import pytest

from answer_audit.sources import ColumnMap, SourceError, load_files, read_table
from source_fixtures import ROWS as RUN_ROWS
from source_fixtures import make_db

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")

ROWS = [{"id": str(i), "raw": f"answer {i}", "truth": "answer"} for i in range(5)]


def _fifo(folder: Path, name: str, data: bytes) -> Path:
    """A named pipe that yields ``data`` once to its first reader (a writer thread feeds it)."""
    path = folder / name
    os.mkfifo(path)

    def feed() -> None:
        with path.open("wb") as fh:  # blocks until the reader opens the pipe
            fh.write(data)

    threading.Thread(target=feed, daemon=True).start()
    return path


def _jsonl(rows: list[dict[str, str]]) -> bytes:
    return "".join(pl.DataFrame(rows).write_ndjson().splitlines(keepends=True)).encode()


def test_jsonl_pipe_keeps_its_first_row(tmp_path: Path) -> None:
    # detection used to peek at the pipe (SQLite header, lm-eval's first line) and the parse
    # then started after the peeked bytes: the first rows were silently lost
    frame, stats = read_table(_fifo(tmp_path, "runs.jsonl", _jsonl(ROWS)))
    assert frame["id"].to_list() == [r["id"] for r in ROWS]
    assert stats["path"] == str(tmp_path / "runs.jsonl")
    assert stats["format"] == "jsonl"


def test_parquet_and_sqlite_through_a_pipe(tmp_path: Path) -> None:
    pl.DataFrame(ROWS).write_parquet(tmp_path / "f.parquet")
    pipe = _fifo(tmp_path, "p.parquet", (tmp_path / "f.parquet").read_bytes())
    assert read_table(pipe, fmt="parquet")[0]["raw"].to_list() == [r["raw"] for r in ROWS]
    db = make_db(tmp_path / "a.db")
    pipe = _fifo(tmp_path, "from-db", db.read_bytes())  # no extension: the header says SQLite
    frame, stats = read_table(pipe)
    assert stats["format"] == "sqlite"
    assert frame["id"].to_list() == ["007", "008", "009"]


def test_pipe_errors_name_the_pipe_not_the_temporary_copy(tmp_path: Path) -> None:
    pipe = _fifo(tmp_path, "bad.jsonl", b'{"raw": "a"}\n{oops\n')
    with pytest.raises(SourceError, match=r"bad\.jsonl:2") as info:
        read_table(pipe)
    assert "answer-audit-" not in str(info.value)
    pipe = _fifo(tmp_path, "noext", b'{"raw": "a"}\n')
    with pytest.raises(SourceError, match=r"noext: cannot tell the format.*--format"):
        read_table(pipe)


def test_pipe_through_load_files_names_its_source(tmp_path: Path) -> None:
    loaded = load_files(_fifo(tmp_path, "runs.jsonl", _jsonl(ROWS)), ColumnMap(raw="raw"))
    assert loaded.frame.height == len(ROWS)
    assert set(loaded.frame["source"].to_list()) == {"runs.jsonl"}


def test_a_device_is_refused_not_read_forever() -> None:
    with pytest.raises(SourceError, match="is a device, not a file"):
        read_table("/dev/null")


def test_cli_reads_stdin_piped_in(tmp_path: Path) -> None:
    data = _jsonl([{"raw": "Paris.", "truth": "Paris"}, {"raw": "Rome", "truth": "Paris"}])
    out = tmp_path / "rescore.json"
    done = subprocess.run(
        [sys.executable, "-m", "answer_audit", "rescore", "/dev/stdin", "--format", "jsonl",
         "--raw", "raw", "--truth", "truth", "--parser", "freeform/v3", "--out-json", str(out)],
        input=data, capture_output=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr.decode()
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["coverage"]["files"][0]["path"] == "/dev/stdin"
    assert report["coverage"]["rows"] == 2


def test_notes_of_a_pipe_name_the_pipe(tmp_path: Path) -> None:
    frame, stats = read_table(_fifo(tmp_path, "runs.tsv", b"raw\ttruth\na\tb\n"))
    assert frame.columns == ["raw", "truth"]
    assert stats["notes"] == [f"{tmp_path / 'runs.tsv'}: read as tab-separated (its first lines "
                              "split into the same columns on tabs)"]  # fmt: skip


def test_run_metadata_from_a_pipe_is_read_once(tmp_path: Path) -> None:

    from answer_audit.sources import write_runs
    from answer_audit.sources.spec import SourceSpec, load_streamed

    metadata = write_runs(RUN_ROWS, tmp_path / "runs")
    pipe = _fifo(tmp_path, "meta.json", Path(metadata).read_bytes())
    loaded, _ = load_streamed(SourceSpec(runs_dir=tmp_path / "runs", metadata=pipe), ColumnMap())
    assert loaded.coverage["rows"] == RUN_ROWS.height


@pytest.mark.xdist_group("timing")  # asserts on wall-clock time: one at a time (make test)
@pytest.mark.parametrize("signal_name", ["SIGTERM", "SIGHUP"])
def test_termination_removes_the_private_copy(tmp_path: Path, signal_name: str) -> None:
    # SIGTERM/SIGHUP used to end the process at once, leaving the copy of the input (a pipe's
    # bytes, a WAL database) in $TMPDIR; they now end it like Ctrl-C, cleaning up on the way.
    import signal
    import time

    private = tmp_path / "tmp"
    private.mkdir()
    fifo = tmp_path / "rows.jsonl"
    os.mkfifo(fifo)
    proc = subprocess.Popen(
        [sys.executable, "-m", "answer_audit", "audit", str(fifo), "--format", "jsonl",
         "--label", "label", "-q", "--out-md", str(tmp_path / "r.md")],
        env={**os.environ, "TMPDIR": str(private), "PYTHONFAULTHANDLER": "1"},
        stderr=subprocess.PIPE,
    )  # fmt: skip
    with fifo.open("wb") as writer:  # a writer that never finishes: the copy stays open
        writer.write(_jsonl(ROWS))
        writer.flush()
        deadline = time.monotonic() + 30
        while not any(private.rglob("*")) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert any(private.rglob("*")), "the pipe was not being copied"
        proc.send_signal(getattr(signal, signal_name))
        try:  # the signal may reach a Polars thread while the main one waits on the pipe
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGABRT)  # faulthandler prints where it was stuck
            proc.wait()
            assert proc.stderr is not None
            raise AssertionError(proc.stderr.read().decode()) from None
    assert proc.returncode == 128 + getattr(signal, signal_name)
    assert list(private.rglob("*")) == []
    assert proc.stderr is not None and b"Traceback" not in proc.stderr.read()


@pytest.mark.xdist_group("timing")  # asserts on wall-clock time: one at a time (make test)
def test_a_silent_pipe_copy_lets_a_signal_handler_run() -> None:
    # Python runs a signal's handler in the main thread only; when the signal lands on another
    # thread (here: sent to it), a main thread blocked in read() never returns to run it. The
    # copy waits in short slices instead, so the handler runs while the pipe stays silent.
    import io
    import signal
    import time

    from answer_audit.sources.files import _copy_pipe

    class Stopped(Exception):
        pass

    def stop(signum: int, frame: object) -> None:
        raise Stopped

    read_end, write_end = os.pipe()
    previous = signal.signal(signal.SIGUSR1, stop)

    def poke_then_close() -> None:
        time.sleep(0.2)
        signal.pthread_kill(threading.get_ident(), signal.SIGUSR1)  # lands on this thread
        time.sleep(5)
        os.close(write_end)  # the fallback: a blocked read returns at end of file

    started = time.monotonic()
    threading.Thread(target=poke_then_close, daemon=True).start()
    try:
        with os.fdopen(read_end, "rb") as src, pytest.raises(Stopped):
            _copy_pipe(src, io.BytesIO(), wait=0.05)
    finally:
        signal.signal(signal.SIGUSR1, previous)
    assert time.monotonic() - started < 3


@pytest.mark.xdist_group("timing")  # asserts on wall-clock time: one at a time (make test)
def test_an_ignored_hangup_stays_ignored(tmp_path: Path) -> None:
    # under nohup (SIGHUP inherited as ignored) a run must outlive its terminal
    import signal
    import time

    fifo = tmp_path / "rows.jsonl"
    os.mkfifo(fifo)
    proc = subprocess.Popen(
        [sys.executable, "-m", "answer_audit", "audit", str(fifo), "--format", "jsonl",
         "--label", "label", "-q", "--out-json", str(tmp_path / "r.json")],
        preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN), stderr=subprocess.PIPE,
    )  # fmt: skip
    with fifo.open("wb") as writer:
        writer.write(_jsonl([{**row, "label": "1"} for row in ROWS]))
        writer.flush()
        time.sleep(1.0)  # the copy has started
        proc.send_signal(signal.SIGHUP)
        time.sleep(0.5)
        assert proc.poll() is None, "a hangup it was told to ignore stopped the run"
    assert proc.wait(timeout=60) == 0
    assert (tmp_path / "r.json").is_file()


def test_the_cli_puts_signal_handlers_back() -> None:
    # the CLI may run inside another Python program (CliRunner, a notebook)
    import signal

    from typer.testing import CliRunner

    from answer_audit.cli import app

    before = (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGHUP))
    assert CliRunner().invoke(app, ["explain", "-p", "freeform/v2", "Paris"]).exit_code == 0
    assert (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGHUP)) == before
