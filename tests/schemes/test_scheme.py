"""Scheme: parsing ``NAME=PARSER[:NORMALIZER]``, its spec, and merging scheme lists."""

from __future__ import annotations

import pytest

from answer_audit.schemes.scheme import (
    CONSISTENCY,
    STORED,
    Scheme,
    merge_schemes,
    parse_scheme,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("strict=freeform/v2:v2", Scheme("strict", "freeform/v2", "v2")),
        ("mine=choice/v4", Scheme("mine", "choice/v4", "v1")),  # normalizer defaults to v1
        ("  a.b-c = stored : numeric ", Scheme("a.b-c", STORED, "numeric")),
        ("x=my-presets/v1.2:v3", Scheme("x", "my-presets/v1.2", "v3")),
    ],
)
def test_parse_scheme(text: str, expected: Scheme) -> None:
    assert parse_scheme(text) == expected


@pytest.mark.parametrize("text", ["no-equals", "=freeform/v2", "a=", "a=b:c:d", "a b=c"])
def test_a_malformed_scheme_names_the_expected_form(text: str) -> None:
    with pytest.raises(ValueError, match=r"expected NAME=PARSER\[:NORMALIZER\]"):
        parse_scheme(text)


def test_an_unknown_normalizer_lists_the_known_ones() -> None:
    with pytest.raises(ValueError, match="unknown normalizer 'v9'; known: v1, v2, v3, numeric"):
        parse_scheme("a=freeform/v2:v9")


def test_spec_is_what_parse_scheme_reads_back() -> None:
    for scheme in (Scheme("a", "freeform/v3", "v3"), CONSISTENCY, Scheme("n", "number/v1")):
        assert parse_scheme(scheme.spec()) == scheme
    assert CONSISTENCY.spec() == "consistency=stored:v1"


def test_uses_stored_parse() -> None:
    assert Scheme("s", STORED).uses_stored_parse
    assert not Scheme("s", "choice/v4").uses_stored_parse


def test_merge_keeps_the_base_order_and_lets_a_same_named_scheme_replace_its_base() -> None:
    base = [Scheme("a", "freeform/v2"), Scheme("b", STORED, "v2")]
    extra = [Scheme("c", "freeform/v3", "v3"), Scheme("a", "freeform/v1")]
    assert merge_schemes(base, extra) == [
        Scheme("a", "freeform/v1"),
        Scheme("b", STORED, "v2"),
        Scheme("c", "freeform/v3", "v3"),
    ]
    assert merge_schemes([], []) == []
