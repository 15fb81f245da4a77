"""Word and marker lists that more than one module reads, each defined once.

- Where an invented new turn or block starts: `TURN_MARKERS` (literal, cut at by ``freeform/v1``
  and, lowercased, ``freeform/v2``), `TURN_PATTERNS` and `QUESTION_PATTERNS` (regexes, cut at by
  ``freeform/v3`` and its vectorized twin), and `ROLE_MARKERS` / `BLOCK_MARKERS` (what the audit
  counts in outputs and parsed answers).
- The word for "answer" in the languages the parsers read: `ANSWER_WORDS` (choice presets) and
  `NUMBER_ANSWER_WORDS` (the ``Answer:`` line of ``number/v1``).

The lists are frozen with the presets that read them: changing one changes a released preset's
results (tests/parsers/test_golden.py pins them).
"""

from __future__ import annotations

# ------------------------------------------------------------------ turn and block markers

# Literal and case-sensitive, in the order freeform/v1 was released with (freeform/v2 reads them
# lowercased).
TURN_MARKERS = (
    "Passage:",
    "Question:",
    "USER:",
    "ASSISTANT:",
    "SYSTEM:",
    "\nUSER",
    "\nASSISTANT",
    "\n\nUSER",
    "\n\nQuestion",
    "Article:",
    "Movie title:",
    "Movie plot:",
)

# What the audit counts in lowercased outputs and parsed answers (a role, and a labelled block).
ROLE_MARKERS = ("user:", "assistant:", "system:", "\nuser", "\nassistant", "\nsystem")
BLOCK_MARKERS = ("passage:", "question:", "article:", "movie title:", "movie plot:")

# A line start, for the patterns below: leading spaces and markdown are allowed (`**User:**`).
LINE_START = r"^[ \t>*_#]*"
# Regexes (multiline, case-sensitive unless they say (?i)) where an invented new turn or block
# starts: freeform/v3 cuts the answer at the earliest match.
TURN_PATTERNS = (
    r"(?:USER|ASSISTANT|SYSTEM)\s*:|(?:^|\n)(?:USER|ASSISTANT|SYSTEM)\b",  # anywhere
    r"(?<=[.!?] )(?:User|Assistant|Human|System):",  # a role right after a sentence
    LINE_START + r"(?i:user|assistant|system|human|ai)[ \t*_]*(?::|$)",
    LINE_START + r"(?i:person|agent|speaker) [A-Z0-9]{1,2}[ \t*_]*:",
    LINE_START
    + r"(?i:flashcard|opening post|passage|article|context|movie title|movie plot)[ \t*_]*:",
    r"(?<=[^\s*_#>])(?:Passage|Article|Question|Context|Movie title|Movie plot):",  # glued on
    r"<\|(?:im_start|im_end|user|assistant|system|endoftext|eot_id|start_header_id)\|>",
    r"\[/?INST\]|<<SYS>>|<start_of_turn>|<end_of_turn>",
    LINE_START + r"#{0,3}[ \t]*(?i:instruction|human|user|input|response)[ \t]*:?[ \t]*$",
)
# Every match of a TURN_PATTERNS pattern contains one of these, lowercased, or is an `AI` role
# line: a text with neither needs none of their searches (tests/matching/test_v3_prefilters.py).
TURN_PATTERN_KEYWORDS = (
    "user", "assistant", "system", "human", "person", "agent", "speaker", "flashcard",
    "opening post", "passage", "article", "context", "movie title", "movie plot", "question",
    "<|", "inst]", "<<sys>>", "<start_of_turn>", "<end_of_turn>", "instruction", "input",
    "response",
)  # fmt: skip
# A new question (`Question:`, `Q:`) at a line start.
QUESTION_PATTERNS = (LINE_START + r"(?i:question|q)[ \t]*\d*[ \t*_]*[:.)]",)

# ------------------------------------------------------------------------- answer words

# The word for "answer", as written before a colon, in the order the presets try them.
ANSWER_WORDS = (
    "answer",  # English
    "回答", "答え", "解答", "正解",  # Japanese
    "答案", "答", "选",  # Chinese
    "정답", "답",  # Korean
    "antwort",  # German
    "réponse",  # French
    "respuesta",  # Spanish
    "risposta",  # Italian
    "resposta",  # Portuguese
    "jawaban",  # Indonesian
    "jibu",  # Swahili
    "الإجابة", "الجواب",  # Arabic
    "उत्तर",  # Hindi
    "উত্তর",  # Bengali
)  # fmt: skip
# number/v1's `Answer:` line: "final answer" taken whole, then the answer words without "选"
# ("choose": it introduces a choice, not a number) and "الجواب", as number/v1 was released.
NUMBER_ANSWER_WORDS = (
    "final answer",
    *(word for word in ANSWER_WORDS if word not in {"选", "الجواب"}),
)
