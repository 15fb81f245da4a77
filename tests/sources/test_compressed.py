"""Compressed inputs: gzip, bzip2 and xz text files are read as if decompressed (recognized by
their first bytes, whatever the name); zstd, zip and compressed Parquet/SQLite are one clear
error saying how to unpack them."""

from __future__ import annotations

import bz2
import gzip
import lzma
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest

from answer_audit.sources import ColumnMap, SourceError, load_files, read_table
from lm_eval_fixtures import gsm8k_lines, write_samples

JSONL = (
    b'{"id": "1", "raw": "Paris", "truth": "Paris"}\n{"id": "2", "raw": "Rome", "truth": "Paris"}\n'
)
CSV = b"id,raw,truth\n1,Paris,Paris\n2,Rome,Paris\n"
PACK: dict[str, Callable[[bytes], bytes]] = {
    "gzip": gzip.compress,
    "bzip2": bz2.compress,
    "xz": lzma.compress,
}


@pytest.mark.parametrize("method", sorted(PACK))
@pytest.mark.parametrize(("name", "data"), [("runs.jsonl", JSONL), ("runs.csv", CSV)])
def test_compressed_text_reads_like_the_plain_file(
    tmp_path: Path, method: str, name: str, data: bytes
) -> None:
    plain = tmp_path / name
    plain.write_bytes(data)
    suffix = {"gzip": ".gz", "bzip2": ".bz2", "xz": ".xz"}[method]
    packed = tmp_path / f"{name}{suffix}"
    packed.write_bytes(PACK[method](data))
    expected, plain_stats = read_table(plain)
    frame, stats = read_table(packed)
    assert frame.equals(expected)
    assert stats["format"] == plain_stats["format"]
    # the first bytes decide, not the name
    disguised = tmp_path / f"disguised-{name}"
    disguised.write_bytes(PACK[method](data))
    assert read_table(disguised)[0].equals(expected)


def test_a_gzipped_jsonl_streams_through_load_files(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl.gz"
    path.write_bytes(gzip.compress(JSONL * 3))
    loaded = load_files(path, ColumnMap(raw="raw"))
    assert loaded.frame.height == 6


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("a.csv", b"\x28\xb5\x2f\xfd" + b"\x00" * 20, r"a\.csv: the file is zstd-compressed; decompress it first \(unzstd a\.csv\)"),
        ("a.jsonl", b"PK\x03\x04" + b"\x00" * 20, r"a\.jsonl: the file is zip-compressed; decompress it first \(unzip a\.jsonl\)"),
        # mtime=0: the bytes are in the test id, which must not change with the clock (xdist)
        ("a.csv", gzip.compress(CSV, mtime=0)[:20], r"a\.csv: cannot read the file \("),
    ],
)  # fmt: skip
def test_unreadable_compression_is_one_clear_error(
    tmp_path: Path, name: str, data: bytes, message: str
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(SourceError, match=message):
        read_table(path)


def test_compressed_parquet_and_unknown_inner_names_say_what_to_do(tmp_path: Path) -> None:
    frame = pl.DataFrame({"raw": ["a"], "truth": ["a"]})
    frame.write_parquet(tmp_path / "f.parquet")
    packed = tmp_path / "f.parquet.gz"
    packed.write_bytes(gzip.compress((tmp_path / "f.parquet").read_bytes()))
    with pytest.raises(SourceError, match=r"gzip-compressed; Parquet is read from a plain file: "
                       r"decompress it first \(gunzip -k f\.parquet\.gz\)"):  # fmt: skip
        read_table(packed)
    with pytest.raises(SourceError, match=r"gzip-compressed"):
        load_files(packed, ColumnMap(raw="raw"))  # not streamed: the same message
    odd = tmp_path / "f.txt.gz"
    odd.write_bytes(gzip.compress(CSV))
    with pytest.raises(SourceError, match=r"extension '\.txt' is none of .*optionally compressed"):
        read_table(odd)
    assert read_table(odd, fmt="csv")[0].height == 2


def test_gzipped_lm_eval_samples_are_recognized(tmp_path: Path) -> None:
    plain = write_samples(tmp_path / "plain", "gsm8k", gsm8k_lines())
    packed = tmp_path / f"{plain.name}.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    frame, stats = read_table(packed)
    assert stats["format"] == "lm-eval"
    assert frame.equals(read_table(plain)[0])


def test_a_compressed_inspect_log_is_recognized_and_refused(tmp_path: Path) -> None:
    head = b'{"version": 2, "status": "success", "eval": {}, "samples": []}'
    packed = tmp_path / "log.json.gz"
    packed.write_bytes(gzip.compress(head))
    with pytest.raises(SourceError, match=r"gzip-compressed; an inspect_ai log is read from a "
                       r"plain file: decompress it first \(gunzip -k log\.json\.gz\)"):  # fmt: skip
        read_table(packed)
