"""The ``v4`` normalizer: the v3 spelling of a text the reader sees, accents and all.

``canonical_v4`` and ``normalize_v4`` are v3's (`answer_audit.matching.v3_normalizer`) applied
to `rendered_v4` of the text, which adds what a reader does not tell apart:

- invisible characters dropped: zero-width spaces and joiners, the word joiner, a BOM, soft
  hyphens (``Pa\\u200bris`` is ``Paris``);
- Latin letters without their accents (``Zürich`` -> ``Zurich``, ``São`` -> ``Sao``) and the
  letters that have no decomposition spelled plainly (``ß`` -> ``ss``, ``ø`` -> ``o``,
  ``æ`` -> ``ae``); accents on other scripts stay (a Cyrillic ``й`` is its own letter, a kana
  voicing mark changes the word);
- LaTeX formula pieces read as one word: ``\\text{H}_2\\text{O}`` and ``H_{2}O`` are ``H2O``
  (a braced command with no space inside is its content; a subscript number joins the symbol);
- dozens as numbers: ``a dozen`` is 12, ``half a dozen`` 6 (v3 reads the other number words).

`rendered_v4` keeps case, so the v4 matcher can still tell the initialism ``US`` from the
pronoun ``us`` (`answer_audit.matching.v4_aliases`).
"""

from __future__ import annotations

import re
import unicodedata

from answer_audit.matching.v3_normalizer import canonical_v3, normalize_v3
from answer_audit.text.prefilters import guarded

# Rendered as nothing: ZWSP, ZWNJ, ZWJ, word joiner, BOM / ZWNBSP, soft hyphen, and the
# invisible operators (function application, invisible times / separator / plus).
_INVISIBLE_CHARS = "\u200b\u200c\u200d\u2060\ufeff\u00ad\u2061\u2062\u2063\u2064"
_INVISIBLE = dict.fromkeys(map(ord, _INVISIBLE_CHARS))
_ANY_INVISIBLE = re.compile(f"[{_INVISIBLE_CHARS}]")
# Latin letters with no canonical decomposition into a base letter and an accent.
_PLAIN_LATIN = str.maketrans(
    {"ß": "ss", "ẞ": "SS", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ø": "o", "Ø": "O",
     "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th",
     "ħ": "h", "Ħ": "H", "ı": "i", "ŧ": "t", "Ŧ": "T"}
)  # fmt: skip
# A run of combining accents (the Combining Diacritical Marks block) right after a Latin letter.
_LATIN_ACCENTS = re.compile(r"(?<=[A-Za-z])[\u0300-\u036f]+")
_ANY_ACCENT = re.compile(r"[\u0300-\u036f]")
# Where a Latin letter with an accent (or a letter `_PLAIN_LATIN` spells) can be: Latin-1 and
# Latin Extended, combining marks, Latin Extended Additional, letterlike symbols (Å as the
# angstrom sign). A text with none of these has nothing to fold (full-width letters carry no
# accent: v3's NFKC makes them plain letters).
_MAY_HOLD_ACCENTED_LATIN = re.compile("[\u00c0-\u024f\u0300-\u036f\u1e00-\u1eff\u2100-\u214f]")
# `\text{H}` with no space inside is the symbol H; with a space (`\text{ apples}`) it stays for
# the v3 rewrites, which read it as words.
_TIGHT_COMMAND = re.compile(
    r"\\(?:text|textrm|textbf|textit|mathrm|mathbf|mathit|rm|ce)\s*\{([^{}\s\\]*)\}"
)
# `H_2`, `H_{2}`, `\text{CO}_2`: the subscript number belongs to the symbol before it.
_DOZEN = re.compile(r"(?i)\b(half\s+)?(?:a|one)\s+dozen\b")
_SUBSCRIPT_NUMBER = guarded(re.compile(r"(?<=[A-Za-z)\]])_(?:\{(\d{1,3})\}|(\d))"))


def rendered_v4(text: str) -> str:
    """The text as a reader sees it, case kept: NFKC, no invisible characters, Latin letters
    without accents, LaTeX formula pieces joined (see the module docstring).

    >>> rendered_v4("Zu\\u0308rich, Pa\\u200bris, Øresund, $\\\\text{H}_2\\\\text{O}$")
    'Zurich, Paris, Oresund, $H2O$'
    """
    if text.isascii():
        pass  # the common case: nothing below but the LaTeX steps can apply
    elif _ANY_INVISIBLE.search(text):
        text = text.translate(_INVISIBLE)
    if not text.isascii() and _MAY_HOLD_ACCENTED_LATIN.search(text):
        text = unicodedata.normalize("NFKD", text).translate(_PLAIN_LATIN)
        if _ANY_ACCENT.search(text):
            text = _LATIN_ACCENTS.sub("", text)
        text = unicodedata.normalize("NFKC", text)
    if "\\" in text:
        text = _TIGHT_COMMAND.sub(r"\1", text)
    if "_" in text:
        text = _SUBSCRIPT_NUMBER.sub(lambda m: m.group(1) or m.group(2), text)
    if "ozen" in text or "OZEN" in text:  # "dozen", "Dozen", "DOZEN"
        text = _DOZEN.sub(lambda m: "6" if m.group(1) else "12", text)
    return text


def canonical_v4(text: str) -> str:
    """`canonical_v3` of `rendered_v4`: lowercase, sentences kept (the v4 matcher reads them)."""
    return canonical_v3(rendered_v4(text))


def normalize_v4(text: str) -> str:
    """v3's normalizer on the rendered text: accents, invisible characters and LaTeX formula
    pieces no longer change the spelling.

    >>> normalize_v4("**Zürich**"), normalize_v4("$\\\\text{H}_2\\\\text{O}$"), normalize_v4("Pa\\u200bris")
    ('zurich', 'h2o', 'paris')
    """
    return normalize_v3(rendered_v4(text))
