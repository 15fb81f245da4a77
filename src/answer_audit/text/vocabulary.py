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

# ------------------------------------------------------------ freeform/v4's answer region

# freeform/v3's turn patterns, and the chat formats and speakers it did not know: the `H:` of
# Anthropic's old format, `</s>` (Llama 2 and Mistral), a tutoring script's `Student:` /
# `Teacher:`, a few-shot `Input:` line, roles written in Chinese, Japanese and Korean. The
# patterns that open a line are one alternation: each of their matches starts a line and ends
# on it, so the earliest match of the alternation is the earliest of any of them, found in one
# scan instead of one per pattern.
_V3_LINE_ROLES = tuple(
    p.removeprefix(LINE_START) for p in TURN_PATTERNS if p.startswith(LINE_START)
)
TURN_PATTERNS_V4 = (
    *(p for p in TURN_PATTERNS if not p.startswith(LINE_START)),
    r"</s>",
    LINE_START
    + "(?:"
    + "|".join(
        (
            *_V3_LINE_ROLES,
            r"(?:H|Student|Teacher)[ \t*_]*:",
            r"(?i:input)[ \t]*\d*[ \t*_]*:",
            r"(?:用户|助手|系统|ユーザー|アシスタント|사용자|어시스턴트)[ \t*_]*[:：]",
        )
    )
    + ")",
)
# Every match of a TURN_PATTERNS_V4 pattern holds one of these, lowercased, or is an `AI` or
# `H` role line (the two markers too short to be keywords; tests/parsers/test_freeform.py
# checks it).
TURN_PATTERN_KEYWORDS_V4 = (
    *TURN_PATTERN_KEYWORDS,
    "student", "teacher", "</s>", "用户", "助手", "系统", "ユーザー", "アシスタント", "사용자",
    "어시스턴트",
)  # fmt: skip
# The word for "question" in other languages, as a new question opens with it (`Frage:`, `问题：`).
QUESTION_WORDS_V4 = (
    "next question", "frage", "pregunta", "pergunta", "domanda", "swali", "pertanyaan", "soal",
    "вопрос", "soru", "câu hỏi", "问题", "問題", "题目", "質問", "질문", "প্রশ্ন", "प्रश्न", "السؤال",
    "سؤال",
)  # fmt: skip
# A new question at a line start, as one alternation (see above): freeform/v3's (`Question:`,
# `Q:`), a numbered question header (`## Question 3`), and `QUESTION_WORDS_V4`. (Not after a
# sentence on the same line: prompt-like junk often reads "... Question: <another question>"
# before the model answers the one it was asked.)
QUESTION_PATTERNS_V4 = (
    LINE_START
    + "(?:"
    + "|".join(
        (
            *(p.removeprefix(LINE_START) for p in QUESTION_PATTERNS),
            r"(?i:question|q)[ \t]*\d+[ \t*_]*$",
            "(?i:" + "|".join(sorted(QUESTION_WORDS_V4, key=len, reverse=True)) + ")"
            r"[ \t]*\d*[ \t*_]*[:：.)]",
        )
    )
    + ")",
)
# A region that opens with one of these is an invented turn of the asker: it has no answer of
# its own (an echoed `Question:` line is no turn: the answer after it counts).
OPENING_TURN_PATTERNS_V4 = (
    r"^[ \t>*_#]*(?:USER|User|user|HUMAN|Human|human|H|Student|用户|ユーザー|사용자)[ \t*_]*[:：]",
    r"^(?:<\|im_start\|>\s*user|<\|user\|>|<\|start_header_id\|>\s*user|<start_of_turn>\s*user"
    r"|<s>\s*\[INST\]|\[INST\])",
    r"^[ \t>*_#]*#{0,3}[ \t]*(?i:instruction|input)[ \t]*:?[ \t]*$",
)

# ------------------------------------------------------------- choice/v5: more answer words

# The word for "answer" in more languages (Global-MMLU / MMMLU and other multilingual
# benchmarks), as written before a colon or a copula; lowercased, NFKC. choice/v5 reads these
# after `ANSWER_WORDS`; a word may also be the stem of its inflected forms (ответ, ответа).
MORE_ANSWER_WORDS = (
    "ответ", "відповідь", "отговор", "одговор", "odgovor", "odpowiedź", "odpověď", "odpoveď",
    "cevap", "yanıt", "đáp án", "câu trả lời", "trả lời", "คำตอบ", "απάντηση", "መልስ",
    "amsa", "azịza", "azịrịza", "ìdáhùn", "idahun", "ìdahùn", "antwoord", "svaret", "svar",
    "vastaus", "válasz", "răspuns", "raspuns", "atsakymas", "atbilde", "vastus", "پاسخ",
    "جواب", "إجابة", "اجابة", "תשובה", "jawapan", "sagot", "impendulo", "jawaab", "igisubizo",
    "yankho", "mhinduro", "tontu", "përgjigja", "përgjigje", "freagra", "ateb", "erantzuna",
    "respondo", "valiny", "պատասխան", "პასუხი", "жауап", "javob", "cavab", "хариулт", "жооп",
    "விடை", "பதில்", "సమాధానం", "జవాబు", "ಉತ್ತರ", "ഉത്തരം", "જવાબ", "ਜਵਾਬ", "ਉੱਤਰ",
    "පිළිතුර", "အဖြေ", "ចម្លើយ", "ຄຳຕອບ", "उत्तरम्",
)  # fmt: skip

# Where an invented next turn starts in a multiple-choice output (choice/v5; lowercased text).
# A user-side role or a chat template's end-of-turn token ends the output's own answer, even at
# its very start (an output that opens with an invented turn has no answer of its own).
CHOICE_TURN_ROLES = (
    "user", "human", "h", "student", "pupil", "customer", "questioner", "interviewer",
    "用户", "用戶", "ユーザー", "사용자", "пользователь", "utilisateur", "usuario", "benutzer",
    "utente", "usuário", "pengguna", "mtumiaji",
)  # fmt: skip
# The answering side's roles: at the start of an output they echo the prompt's own answer
# prefix (`ASSISTANT:`, `### Response:`); after it they start an invented reply.
CHOICE_REPLY_ROLES = (
    "assistant", "ai", "gpt", "bot", "model", "system", "teacher", "tutor", "answerer",
    "助手", "アシスタント", "어시스턴트", "ассистент",
)  # fmt: skip
# Chat-template tokens that end the model's turn or open another one, anywhere in a line.
CHAT_TEMPLATE_TOKENS = (
    r"<\|(?:im_start|im_end|user|end|endoftext|eot_id|eot|start_header_id|system|assistant"
    r"|prompter|human)\|>",
    r"<start_of_turn>|<end_of_turn>|\[/?inst\]|</s>|<s>|<<sys>>|<\|end_of_text\|>",
)

# ------------------------------------------------------- number/v2: answer prefixes, locale

# A next problem at a line start, as few-shot math prompts write it (Minerva's "Problem:" /
# "Solution:", an exercise header): number/v2 ends the answer there, as at a new question.
NEXT_PROBLEM_PATTERNS = (
    LINE_START
    + r"(?i:problem|exercise|aufgabe|exercice|ejercicio|problema|esercizio|задача)[ \t]*\d*"
    r"[ \t*_]*[:：.)]",
)
# number/v4: a line or header the model writes for a new question of its own (`Follow-up
# question 1`, `## Bonus problem`, `**Next question:**`): a new question, whose answer is not
# the output's. Words other than "follow-up" need a header or bold mark (a line that opens with
# a letter then fails at one class check).
FOLLOW_UP_PATTERNS = (
    LINE_START + r"(?i:follow[- ]?up[ \t]+(?:question|problem|exercise)s?)(?![^\W\d_])",
    r"^[ \t>]*(?:#{1,6}|\*\*)[ \t*_]*"
    r"(?i:(?:bonus|extra|additional|related|similar|practice|another|new|next)[ \t]+"
    r"(?:question|problem|exercise)s?|folgefrage|zusatzfrage|zusatzaufgabe"
    r"|question (?:de suivi|supplémentaire|bonus)|pregunta (?:de seguimiento|adicional|extra)"
    r"|domanda (?:di approfondimento|aggiuntiva|bonus)|дополнительный вопрос)(?![^\W\d_])",
)
# The verbs and copulas between the word for "answer" and the value (`The answer is 12`,
# `Die Antwort lautet 12`, `答案是12`, `উত্তর হল 12`), besides a colon or `=`.
ANSWER_COPULAS = (
    "is", "are", "was", "would be", "will be", "should be", "equals", "comes to",
    "lautet", "ist", "est", "es", "é", "è", "ni", "adalah", "là", "—", "–",
    "は", "是", "为", "為", "은", "는", "হল", "হলো", "হচ্ছে", "है", "คือ",
)  # fmt: skip
# The word for "answer" in languages that write a decimal comma (`2,5` is two and a half):
# an answer prefix in one of them makes number/v2 read the text's numbers that way.
DECIMAL_COMMA_ANSWER_WORDS = (
    "antwort", "réponse", "reponse", "respuesta", "resposta", "risposta", "jawaban", "ответ",
    "відповідь", "отговор", "odpowiedź", "odpověď", "odpoveď", "cevap", "yanıt", "đáp án",
    "câu trả lời", "antwoord", "svaret", "svar", "vastaus", "válasz", "răspuns", "raspuns",
    "atsakymas", "atbilde", "vastus", "απάντηση",
)  # fmt: skip
# Common words of languages that write decimal commas (German, French, Spanish, Portuguese,
# Italian, Dutch, Indonesian, Turkish) and of English: without an answer prefix, number/v2
# takes the text's convention from which of the two it holds more of (distinct words).
DECIMAL_COMMA_WORDS = (
    "und", "ist", "sind", "der", "das", "den", "dem", "eine", "nicht", "mit", "für", "lautet",
    "beträgt", "insgesamt", "ergebnis", "bleiben", "kostet", "et", "est", "sont", "les", "des",
    "une", "pour", "avec", "donc", "il", "elle", "reste", "résultat", "y", "es", "los", "las",
    "una", "el", "del", "por", "con", "entonces", "quedan", "cuesta", "são", "é", "uma", "os",
    "com", "então", "è", "sono", "gli", "quindi", "het", "een", "zijn", "dan", "adalah",
    "yang", "jadi", "ve", "bir",
)  # fmt: skip
DECIMAL_POINT_WORDS = (
    "the", "and", "is", "are", "of", "to", "so", "that", "this", "with", "for", "has", "have",
    "it", "in", "total", "each", "she", "he", "they",
)  # fmt: skip
