"""Other names for the truth that the ``v4`` matcher accepts: initialisms and surnames.

`resolve_aliases` rewrites each alias of the truth in a prediction as the truth itself, so the
matcher's ordinary reading (sentences, negation, questions) then applies to it. It reads the
rendered text with its case (`answer_audit.matching.v4_normalizer.rendered_v4`), since case is
what tells an initialism from a word (``US`` from ``us``) and a name from a common noun.

- **Initialisms.** A truth of two or more capitalized words is stated by its initials in
  capitals, with or without dots (``U.S.``, ``US`` for "United States"), also extended by one
  letter (``USA``: the initials of a longer form of the same name). A truth holding an
  initialism (``USA``, ``Washington, DC``) is stated by capitalized words with those initials
  (``United States of America``, ``District of Columbia``), or by all but its last letter's
  (``United States`` for ``USA``). Short words (of, the, and, for) may stand between the words.
- **Surnames.** A truth that reads as a person's name (capitalized words, name particles such
  as "da" or "van" allowed, not opening with a place word such as "New" or "South") is stated
  by its surname with its particles (``da Vinci``, ``Curie``), unless another capitalized word
  stands right before or after it: ``Pierre Curie`` and ``Bell Labs`` name someone or something
  else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

# Words an initialism skips ("United States of America" -> USA).
_CONNECTORS = frozenset({"of", "the", "and", "for", "&"})
# Lowercase words inside a person's name: "Leonardo da Vinci", "Vincent van Gogh".
_PARTICLES = frozenset(
    {"da", "de", "di", "del", "della", "der", "den", "des", "du", "la", "le", "van", "von",
     "bin", "ibn", "al", "el", "dos", "das", "do", "y", "ter", "ten", "zu"}
)  # fmt: skip
# A first word that makes a name a place or a thing, not a person ("New York", "South Africa").
_PLACE_WORDS = frozenset(
    {"new", "north", "south", "east", "west", "northern", "southern", "eastern", "western",
     "united", "great", "greater", "upper", "lower", "central", "san", "santa", "sao", "saint",
     "st", "st.", "los", "las", "el", "la", "le", "mount", "mt", "mt.", "lake", "cape", "port",
     "fort", "isle", "gulf", "bay", "republic", "kingdom", "state", "holy", "sierra", "costa",
     "puerto", "hong", "sri", "saudi", "buenos", "kuala", "tel", "abu", "rio"}
)  # fmt: skip
# A last word that makes a name a place or a thing ("Pacific Ocean", "Eiffel Tower").
_THING_WORDS = frozenset(
    {"ocean", "sea", "river", "lake", "desert", "mountain", "mountains", "island", "islands",
     "city", "peninsula", "bay", "strait", "canal", "continent", "tower", "bridge", "palace",
     "park", "street", "square", "church", "cathedral", "temple", "museum", "university",
     "college", "school", "war", "empire", "union", "republic", "kingdom", "states", "state",
     "company", "party", "airport", "station", "hall", "house", "building", "falls", "valley",
     "canyon", "forest", "gulf", "channel", "county", "province", "wall", "way", "revolution",
     "prize", "award", "cup", "games", "league", "club", "system", "day", "code", "act",
     "treaty", "army", "navy", "dynasty", "age", "era", "period", "galaxy", "planet", "star"}
)  # fmt: skip
_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"})
# Words that may stand right before a surname without naming someone else.
_TITLES = frozenset(
    {"mr", "mrs", "ms", "dr", "sir", "dame", "lord", "lady", "saint", "st", "president",
     "king", "queen", "prince", "princess", "general", "captain", "professor", "prof",
     "the", "a", "an", "by", "painter", "author", "poet", "composer", "scientist", "writer"}
)  # fmt: skip
_TITLE_CASE = re.compile(r"[A-Z][a-z]+(?:['’-][A-Za-z]+)*")
_CAPITALS = re.compile(r"[A-Z]{2,5}|(?:[A-Z]\.){2,5}")
_WORD_BEFORE = re.compile(r"([A-Z][A-Za-z'’-]*)[ \t]+$")
_WORD_AFTER = re.compile(r"[ \t]+([A-Z][A-Za-z'’-]*)")
_LOOKBACK = 40  # characters read before a surname: enough for one word


@dataclass(frozen=True)
class _Alias:
    """A pattern for one alias of the truth, what replaces it, and its kind: ``initialism``
    (the truth's initials), ``expansion`` (the words of an initialism the truth holds) or
    ``surname`` (which needs a neighbour check)."""

    pattern: re.Pattern[str]
    replacement: str
    kind: str
    name_words: frozenset[str] = frozenset()


def alias_kinds(truth: str) -> frozenset[str]:
    """The kinds of alias a (rendered) truth has: ``initialism``, ``expansion``, ``surname``.

    >>> sorted(alias_kinds("United States")), sorted(alias_kinds("Washington, D.C."))
    (['initialism'], ['expansion'])
    """
    return frozenset(a.kind for a in _aliases(truth))


def initials(truth: str) -> str | None:
    """The initials that state a (rendered) truth, lowercase (``United States`` -> ``us``);
    None when its initialism is no alias of it (one word, a person's name, ...)."""
    words = truth.replace(",", " ").split()
    found = _initials(words) if _surname(words) is None else None  # "NA" is not Neil Armstrong
    return found.lower() if found else None


def resolve_aliases(prediction: str, truth: str) -> str:
    """``prediction`` with every alias of ``truth`` written as the truth (both rendered, with
    case; see the module docstring). Unchanged when the truth has no aliases.

    >>> resolve_aliases("It is the U.S. economy.", "United States")
    'It is the United States economy.'
    >>> resolve_aliases("Painted by da Vinci, not by Pierre Curie.", "Leonardo da Vinci")
    'Painted by Leonardo da Vinci, not by Pierre Curie.'
    """
    for alias in _aliases(truth):
        if alias.kind == "surname":
            prediction = _replace_surnames(prediction, alias)
        else:
            prediction = alias.pattern.sub(alias.replacement, prediction)
    return prediction


def _replace_surnames(prediction: str, alias: _Alias) -> str:
    """Replace the surname where no other name stands right before or after it."""
    pieces, last = [], 0
    for m in alias.pattern.finditer(prediction):
        before = _WORD_BEFORE.search(prediction, max(0, m.start() - _LOOKBACK), m.start())
        after = _WORD_AFTER.match(prediction, m.end())
        if _other_name(before, alias) or _other_name(after, alias):
            continue
        pieces += [prediction[last : m.start()], alias.replacement]
        last = m.end()
    return "".join(pieces) + prediction[last:] if pieces else prediction


def _other_name(m: re.Match[str] | None, alias: _Alias) -> bool:
    if m is None:
        return False
    word = m.group(1)
    return word not in alias.name_words and word.lower().rstrip(".") not in _TITLES


@lru_cache(maxsize=4096)
def _aliases(truth: str) -> tuple[_Alias, ...]:
    words = truth.replace(",", " ").split()
    found = []
    surname = _surname(words)
    letters = initials(truth)
    if letters is not None:
        found.append(_Alias(_initialism_pattern(letters.upper()), " ".join(words), "initialism"))
    for word in words:
        if _CAPITALS.fullmatch(word):
            found.append(_Alias(_expansion_pattern(word.replace(".", "")), word, "expansion"))
    if surname is not None:
        pattern = re.compile(
            r"(?<![A-Za-z])"
            + r"\s+".join(f"[{w[0].upper()}{w[0]}]{re.escape(w[1:])}" for w in surname[:-1])
            + (r"\s+" if len(surname) > 1 else "")
            + re.escape(surname[-1])
            + r"(?![A-Za-z])"
        )
        found.append(_Alias(pattern, " ".join(words), "surname", frozenset(words)))
    return tuple(found)


def _initials(words: list[str]) -> str | None:
    """The initials of a truth of two or more capitalized words ("United States" -> US)."""
    content = [w for w in words if w.lower() not in _CONNECTORS]
    if len(content) < 2 or len(content) > 5 or not all(_TITLE_CASE.fullmatch(w) for w in content):
        return None
    return "".join(w[0] for w in content)


def _initialism_pattern(initials: str) -> re.Pattern[str]:
    dotted = r"\.?".join(initials)
    # A capital letter may follow ("USA" for "United States"), a lowercase one may not ("USb");
    # no word of capitals may stand right before or after ("TELL US NOW" shouts, names nothing).
    return re.compile(
        rf"(?<![A-Za-z0-9.])(?<![A-Z][A-Z][ \t]){dotted}\.?(?:[A-Z]\.?)?(?![A-Za-z0-9])"
        r"(?![ \t][A-Z][A-Z])"
    )


def _expansion_pattern(letters: str) -> re.Pattern[str]:
    gap = r"(?:\s+(?:of|the|and|for|&)\s+|\s+)"

    def run(initials: str) -> str:
        return gap.join(f"{ch}[a-z]+" for ch in initials)

    forms = [run(letters)] + ([run(letters[:-1])] if len(letters) >= 3 else [])
    return re.compile(r"(?<![A-Za-z])(?:" + "|".join(forms) + r")(?![A-Za-z])")


def _surname(words: list[str]) -> list[str] | None:
    """The surname, with its particles, of a truth that reads as a person's name."""
    if words and words[-1].lower() in _SUFFIXES:
        words = words[:-1]
    if not 2 <= len(words) <= 4 or words[0].lower() in _PLACE_WORDS:
        return None
    if words[-1].lower() in _THING_WORDS:
        return None
    if not (_TITLE_CASE.fullmatch(words[0]) and _TITLE_CASE.fullmatch(words[-1])):
        return None
    for w in words[1:-1]:
        if not (_TITLE_CASE.fullmatch(w) or w in _PARTICLES or re.fullmatch(r"[A-Z]\.", w)):
            return None
    start = len(words) - 1
    while start > 1 and words[start - 1] in _PARTICLES:
        start -= 1
    return words[start:]
