"""The built-in multiple-choice presets, as data for the choice engine (`parsers.choice`).

``choice/v1`` .. ``choice/v9`` are frozen once released (tests/parsers/test_golden.py pins what
each extracts); ``choice/answer-colon-first`` and ``choice/letter-boundary`` mimic common
evaluation-framework conventions, for comparison in `make accuracy`, `diff` and audits.

Every pattern runs on NFKC-normalized, lowercased text; ``{L}`` is the choice letters and
``{D}`` the digit range (``choice/v5`` adds ``{T}``, ``{K}``, ``{W}``, ``{A}``: `choice_script`).
The module is data, one block per version, hence its length.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import replace

from answer_audit.parsers.choice import ChoicePreset
from answer_audit.parsers.choice_patterns import word_alternation
from answer_audit.parsers.choice_step import ChoiceStep
from answer_audit.text.vocabulary import (
    ANSWER_WORDS,
    CHAT_TEMPLATE_TOKENS,
    CHOICE_REPLY_ROLES,
    CHOICE_TURN_ROLES,
    MORE_ANSWER_WORDS,
)

# A choice token that is not part of a word or a number (choice/v3).
_STANDALONE_TOKEN = r"(?<![0-9a-z])([{D}{L}])(?![0-9a-z])"

CHOICE_V1 = ChoicePreset(
    "choice/v1",
    (
        ChoiceStep(
            "regex",
            "answer-regex",
            patterns=(r"(?:回答|answer)\s*[:：]\s*([{L}{D}])",),
            pick="first",
        ),
        ChoiceStep("last-char", "last-char"),
    ),
)
CHOICE_V2 = ChoicePreset(
    "choice/v2",
    (
        ChoiceStep(
            "trigger-lines",
            "answer-line",
            triggers=("answer", "回答"),
            patterns=(r"(?<![0-9])([{D}])(?![0-9])", r"(?<![a-z])([{L}])(?![a-z])"),
            pick="first",
        ),
        ChoiceStep(
            "window",
            "last-lines",
            lines=3,
            patterns=(r"(?<![0-9])([{D}])(?![0-9])", r"(?<![a-z])([{L}])(?![a-z])"),
        ),
        ChoiceStep(
            "window",
            "whole-text",
            patterns=(r"(?<![0-9])([{D}])(?![0-9])", r"(?<![a-z])([{L}])(?![a-z])"),
        ),
    ),
)
CHOICE_V3 = ChoicePreset(
    "choice/v3",
    (
        ChoiceStep(
            "trigger-lines",
            "answer-line",
            triggers=("answer", "回答"),
            patterns=(_STANDALONE_TOKEN,),
        ),
        ChoiceStep(
            "trigger-lines",
            "correct-is-line",
            triggers=("正解は", "正解が"),
            patterns=(_STANDALONE_TOKEN,),
        ),
        ChoiceStep("tail-repeat", "tail-single-char", lines=5),
    ),
)

# ---------------------------------------------------------------------------- choice/v4

# Phrases after which a choice is given ("the answer is B", "正解は b", "故选 A").
_TRIGGERS = (
    *ANSWER_WORDS,
    r"答复|答は|解は|而是|故选|应选|选项|选择|我选",
    r"正しい(?:選択肢|もの|の)|誤っている(?:選択肢|もの|の)|誤り(?:のもの)?は|適切な(?:選択肢|もの)|該当する(?:選択肢|もの)",
    r"correct (?:option|choice|letter)|(?:best|right) (?:option|choice)",
    r"i(?: would| will|'d|’d|) (?:choose|pick|select|go with)|my (?:final )?(?:choice|pick|selection)",
    r"final(?= *[:：])",
    r"(?:is|as|in) (?:option|choice)",
    r"답변|lösung|jawabannya|اجابة",
)
# Between a trigger and the choice: spaces, markdown, a short parenthetical (回答（1文字のみ）),
# and a few words that link them ("is", "ist", "est", "は", "是", "은").
_LINK_WORDS = (
    r"is|was|would be|will be|should be|must be|therefore|then|here|ist|lautet|est|es|è|é"
    r"|adalah|ialah|ni|هي|هو|होगा|है"
)
# A run of the gap's single characters is taken whole (possessive): from inside such a run,
# _WRAP either reads on to the run's end (and then goes on as from there) or stops on one of
# these characters, none of which is a choice, so no split inside a run can match where the
# whole run does not. Trying every split was quadratic in a run of `*` or quotes (exponential
# with _WRAP's first `\*\*|\*` and `\$+`). The same matches as the first written form
# (tests/parsers/test_choice.py keeps it and compares).
_GAP = (
    r"(?:[ \t*_#>=:\-–—)）\]】\"'“”‘’]++|\([^()\n]{0,24}\)|（[^（）\n]{0,24}）"
    rf"|\b(?:{_LINK_WORDS})\b|是|为|為|は|が|은|는|হলো|হল|を)*(?:\n[ \t*_>]*+)?"
)
_WRAP = (
    r"(?:\*|__|[「『\"'“‘(\[（【<]|\$|\\boxed\{|\\text(?:bf)?\{|\\mathrm\{|\\mathbf\{"
    r"|(?:option|choice|letter|選択肢|选项|보기|opción|opção|opzione|pilihan|chaguo|الخيار"
    r"|विकल्प|বিকল্প)\s*)*+"
)
_TOKEN = r"([{L}{D}])(?![0-9a-z]|\.[0-9])"
# Adjectives some languages put after the answer word ("respuesta correcta es B").
_AFTER_TRIGGER = (
    r"(?:\s+(?:correct[ae]?|corretta|correta|correcte|final[e]?|sahihi|yang benar|الصحيحة"
    r"|sahihi ni))?"
)
_TRIGGER = r"(?:" + "|".join(_TRIGGERS) + r")" + _AFTER_TRIGGER
_ANSWER_STATEMENT = _TRIGGER + _GAP + _WRAP + _TOKEN
# The choice first, then what it is: "D is correct", "cが正しい", "选项C正确", "B가 정답".
_CHOICE_THEN_VERDICT = (
    r"(?<![0-9a-z])(?:option\s*|choice\s*|選択肢|选项)?[(（]?([{L}])[)）]?\s*"
    r"(?:is (?:the )?(?:correct|right|best)(?: answer| option| choice)?(?![a-z])|is the answer"
    r"|,? which is (?:the )?(?:correct |right )?answer"
    r"|\s*[:：\-–]\s*(?:正しい|正解|correct|right|true)(?!か|とは|とも|と言|可能|よう|場合|[a-z])"
    r"|が(?:正しい|正解)(?!か|とは|とも|と言|と思|可能|よう|場合)|を選(?:択|び|ぶ)"
    r"|是正确|正确|(?:가|이) 정답|(?:가|이) 맞|ist richtig|est (?:la )?(?:bonne|correcte?)"
    r"|es (?:la )?correcta|è (?:quella )?corretta|está correta|benar)"
)

# A choice that closes a line after a conclusion word: "So C.", "It's B.", "したがって、c。"
_CONCLUDING_CHOICE = (
    r"(?:\b(?:so|thus|therefore|hence|it(?:'s|’s| is| must be| should be))[ ,]+|したがって[、,]?\s*"
    r"|所以|因此|故)(?:option\s+|choice\s+)?[(（*]*([{L}])[)）*]*(?=\s*[.!。]?\s*(?:\n|$))"
)
# Right after a choice: it is the subject of a sentence about it ("Answer B is a common
# misconception"), not the choice made.
_SUBJECT = (
    r"\s+(?:is|was|seems|looks|would|could|might|may|can|has|had|does|did|gives|states|says"
    r"|describes|refers|means|matches|fits|confuses|ignores|uses|reverses)\s+(?!correct|right"
    r"|the (?:correct |right |best )?answer)",
)
# Right after a choice or an option's text: it is being rejected, not chosen.
_NEGATIONS = (
    r"では(?:な|あり)|でな|じゃな|以外|は(?:誤|不正解|正しくな|違|間違)|も誤",
    r"(?:is|was) (?:not|wrong|incorrect)|isn't|is also wrong|are wrong",
    r"不是|错|不正确|不对",
    r"(?:가|이|는|은)? ?(?:아니|아닙|틀)",
    r"ist (?:nicht|falsch)|n'est pas|est (?:fausse|incorrecte)|no es|es incorrecta"
    r"|non è|è sbagliata|não é|está errada|salah|bukan|si sahihi",
)
# Earlier on the same line: the choice is an example or a format instruction.
_EXAMPLE_CUES = (
    r"(?:^|[^a-z])(?:例|例え|例如|比如|格式|形式|フォーマット|예|예시)",
    r"\b(?:example|e\.g\.|for instance|format|(?:of|in) the form|such as|like|beispiel|exemple|ejemplo"
    r"|esempio|exemplo|contoh|mfano)\b",
    r"مثال|उदाहरण|উদাহরণ",
)
# Line starts of an invented next question (once the output has answered).
_NEXT_QUESTION = (
    r"(?:question|q)\s*\d*\s*[:.)：]",
    r"【(?:質問|問題|法令条文|選択肢)】|次の問題|(?:問題|質問|问题|題目|题目)\s*\d*\s*[:：]",
    r"(?:문제|질문|frage|pregunta|domanda|pergunta|pertanyaan|swali|سؤال|प्रश्न|প্রশ্ন)\s*\d*\s*[:：]",
)
# Never an answer: numbers with a counter or article word (1文字, 第2条, 条の32), option letter
# or number lists (a, b, c, d; 1、2、3), and numbered markers before text ((1) ..., [2]の).
_MASKS = (
    r"[0-9_]+\s*(?:文字|字|つ|一|個|行|条|項|号|章|節|款|目|編|年|月|日|回|件|名|人|%|割|営業日|歳|円"
    r"|時間|分|秒|倍|位|番目|桁|点|問)",
    r"第\s*[0-9_]+|(?<=[条の])\s*[0-9_]+",
    r"(?<![0-9a-z])[{L}{D}](?:\s*(?:,|、|/|・|or|および|及び|または|か)\s*[{L}{D}](?![0-9a-z])){2,}",
    r"[\[(（【][0-9]+[\])）】](?=[ \t]*[^\s\])）】])",
    r"[(（][0-9_]+[^)）\n]*\Z",  # a format line cut off at the end: 回答（1
)

CHOICE_V4 = ChoicePreset(
    "choice/v4",
    (
        ChoiceStep(
            "statements",
            "answer-statement",
            patterns=(_ANSWER_STATEMENT, _CHOICE_THEN_VERDICT, _CONCLUDING_CHOICE),
            negations=_SUBJECT + _NEGATIONS,
            ignore=_EXAMPLE_CUES,
            stops=_NEXT_QUESTION,
            bare=True,
        ),
        ChoiceStep("option-text", "option-text", patterns=(_TRIGGER + _GAP,), negations=_NEGATIONS),
    ),
    think=True,
    masks=_MASKS,
)

# ---------------------------------------------------------------------------- choice/v5
# Patterns of a `scripts` preset: {T} is one captured choice token with its boundaries (any
# script the choice set uses, its Latin letter and digit, or "the second option"), {K} the
# token characters, {W} what a token must not touch, {A} the letters without digits.


def _nfkc(parts: tuple[str, ...]) -> tuple[str, ...]:
    """Words as the text is read (NFKC, lowercase), each once."""
    return tuple(dict.fromkeys(unicodedata.normalize("NFKC", p).lower() for p in parts))


def _phrases(*parts: tuple[str, ...]) -> tuple[str, ...]:
    """Every phrase made of one item of each part, in order ("correct " + "option", ...)."""
    return tuple("".join(words) for words in itertools.product(*parts))


# Phrases after which a choice is given, all literal (the engine reads them as one trie).
_V5_TRIGGERS = _nfkc(
    (
        *ANSWER_WORDS,
        *MORE_ANSWER_WORDS,
        *("答复", "答は", "解は", "而是", "故选", "应选", "选项", "选择", "我选", "誤りは"),
        *_phrases(("正しい", "誤っている", "適切な", "該当する"), ("選択肢", "もの", "の")),
        "誤りのものは",
        *_phrases(
            ("correct ", "right ", "best ", "final "),
            ("option", "choice", "letter", "pick", "selection", "alternative", "one"),
        ),
        *_phrases(
            (
                "option ",
                "choice ",
                "alternative ",
                "alternativa ",
                "opción ",
                "opção ",
                "opzione ",
                "pilihan ",
                "chaguo ",
                "şık ",
                "вариант ",
                "варіант ",
            ),
            (
                "correct",
                "correcta",
                "correcto",
                "corretta",
                "correta",
                "correcte",
                "juste",
                "richtige",
                "benar",
                "right",
                "best",
                "sahihi",
                "doğru",
                "правильный",
                "правильний",
            ),
        ),
        *_phrases(
            (
                "i would ",
                "i will ",
                "i'd ",
                "i’d ",
                "i'll ",
                "i’ll ",
                "i shall ",
                "i am going to ",
                "i can only ",
                "i ",
            ),
            (
                "choose",
                "pick",
                "select",
                "go with",
                "go for",
                "stay with",
                "stick with",
                "opt for",
                "settle on",
            ),
        ),
        *_phrases(("my ", "my final "), ("choice", "pick", "selection", "vote")),
        *_phrases(("i'd ", "i’d ", "i would "), ("say", "guess")),
        *("final:", "final :"),
        *_phrases(("is ", "as ", "in "), ("option", "choice")),
        *("답변", "lösung", "jawabannya", "اجابة", "सही विकल्प", "সঠিক বিকল্প", "الخيار الصحيح"),
        *("doğru şık", "\\boxed{", "\\fbox{", "\\framebox{"),
    )
)
_V5_AFTER_TRIGGER = (
    r"(?:\s+(?:correct[ae]?|correcto|corretta|correta|correcte|final[e]?|sahihi|yang benar"
    r"|الصحيحة|النهائية|النهائي|tó tọ́|to to|đúng|chính xác|doğru|правильный|верный))?"
)
_V5_LINK_WORDS = (
    rf"{_LINK_WORDS}|would|will|should|must|be|to be|thus|hence|so|indeed|still|also|now|just"
    r"|simply|most|very|quite|almost|fairly|pretty|rather|much|without (?:a )?doubt|no doubt"
    r"|of course|in fact|for sure|for certain|i think|i believe|that|la|ni|ndiyo|ndilo"
)
# Between a trigger and the choice (as _GAP, with commas, ellipses, every colon, adverbs).
_V5_GAP = (
    r"(?:[ \t*_#>=:：፡ঃ﹕꞉∶,\-–—)）\]】\"'“”‘’→]++|\.{2,}|…|\([^()\n]{0,24}\)|（[^（）\n]{0,24}）"
    rf"|\b(?:{_V5_LINK_WORDS})\b|\b(?!(?:unlikely|hardly|scarcely|barely|rarely)\b)[a-z]{{2,}}ly\b"
    r"|是|为|為|は|が|은|는|হলো|হল|を)*(?:\n[ \t*_>]*+)?"
)
_OPTION_WORDS = (
    r"option|choice|letter|alternative|alternativa|letra|lettre|opción|opção|opzione|pilihan"
    r"|chaguo|الخيار|विकल्प|বিকল্প|選択肢|选项|보기|şık(?:kı)?|вариант|варіант|phương án"
)
_V5_WRAP = (
    r"(?:\*|__|[「『\"'“‘(\[（【<{]|\$|\\boxed\{|\\fbox\{|\\text(?:bf|it)?\{|\\math(?:rm|bf|it)\{"
    rf"|(?:the|la|el|le|il)\s+|(?:a|o)\s+(?={_OPTION_WORDS})|(?:{_OPTION_WORDS})\s*)*+"
)
# Right after the token: it starts a formula (\boxed{B = \mu_0 n I}), not an answer.
_NOT_FORMULA = r"(?!\s*(?:[=+^×·]|\\(?:times|cdot|frac)))"
# {TRIGGER}: the alternatives of _V5_TRIGGERS a text can match (`choice_patterns.Triggers`)
_V5_TRIGGER = "{TRIGGER}" + _V5_AFTER_TRIGGER
_V5_ANSWER_STATEMENT = _V5_TRIGGER + _V5_GAP + _V5_WRAP + "{T}" + _NOT_FORMULA
_V5_CHOICE_THEN_VERDICT = (
    r"(?<![{W}])(?:選択肢|选项)?[(（]?([{K}])"
    # what can follow (one class check: most tokens are followed by none of these)
    r"(?=[)）]?\s*[i,:\-–がを项選选是正符当가이eèbnसসهصяпвdđ])[)）]?+\s*+"
    r"(?:is (?:the )?(?:(?:most|clearly|definitely) )?(?:correct|right|best|better|true"
    r"|appropriate|accurate|suitable|valid)(?: answer| option| choice| one)?(?![a-z])"
    r"|is the (?:answer|one)\b|,? which is (?:the )?(?:correct |right )?answer"
    r"|\s*[:：\-–]\s*(?:正しい|正解|correct|right|true)(?!か|とは|とも|と言|可能|よう|場合|[a-z])"
    r"|が(?:正しい|正解)(?!か|とは|とも|と言|と思|可能|よう|場合)|を選(?:択|び|ぶ)"
    r"|(?:项|選項|选项)?(?:是正确|正确|符合题意|当选)|(?:가|이) 정답|(?:가|이) 맞|ist richtig"
    r"|est (?:la )?(?:bonne|correcte?)|es (?:la )?correcta|è (?:quella )?corretta|está correta"
    r"|benar|ndilo sahihi|ndiyo sahihi|ni sahihi|ni ó tọ́|ni o to|सही है|সঠিক|هو الصحيح|صحيح"
    r"|(?:является )?правильн|верн|doğru|đúng|is (?:clearly |definitely )?the answer)"
)
_V5_CONCLUDING = (
    r"(?:\b(?:so|thus|therefore|hence|it(?:'s|’s| is| must be| should be| has to be| would be"
    r"| will be)|that(?:'s|’s| is)|which is|namely|i\.e\.,?|on (?:second thought|reflection)"
    r"|after all|in conclusion|in summary|overall|ultimately|finally|in short|in the end"
    r"|to conclude|all things considered)[ ,]+|したがって[、,]?\s*|よって[、,]?\s*|所以|因此|故|即)"
    r"(?:(?:[a-z]{2,}ly|definitely|surely)[ ,]+)*(?:option\s+|choice\s+|the\s+)?[(（*]*{T}[)）*]*"
    r"(?=[ \t]*+[.!。！]?[ \t]*+(?:\n|$))"
)
# Elimination that names the one option left ("rules out C, leaving D").
_V5_LEFT = (
    r"\b(?:leaving|leaves(?: us with)?|left with|which leaves|the remaining (?:option|choice) is"
    r"|only remaining (?:option|choice) is)\s+(?:only\s+)?(?:option\s+|choice\s+)?[(（]?{T}"
)
# A line "<label>: X" in a language no list names (Amsa: A, Cevap: D).
_V5_LABEL_LINE = (
    r"(?m)^[ \t*_#>]*(?:[^\s:：፡ঃ\d()\[\]]{1,20}[ \t]?){1,3}[:：፡ঃ﹕][ \t*_]*"
    r"[(\[（【\"'“‘$]*((?<![{W}])[{A}](?![{W}]))[)\]）】\"'”’$.。!！*_]*[ \t]*$"
)
# The output continues a prompt that ended in "Answer" (" is (A).", ": D").
_V5_CONTINUATION = (
    r"\A\s*(?:[:：]|is\b|was\b|would be\b|should be\b|=)" + _V5_GAP + _V5_WRAP + "{T}"
)
# As _SUBJECT, but "B is the better answer" is a verdict, not a sentence about B.
_V5_SUBJECT = (
    r"(?:is|was|seems|looks|would|could|might|may|can|has|had|does|did|gives|states|says"
    r"|describes|refers|means|matches|fits|confuses|ignores|uses|reverses)\s+(?!(?:the )?"
    r"(?:(?:most|clearly|definitely) )?(?:correct|right|best|better|true|appropriate"
    r"|accurate|suitable|valid)|the (?:[a-z]+ )?(?:answer|option|choice|one)\b)",
)
# A position in words, then a verdict ("The second option is correct").
_V5_ORDINAL_VERDICT = (
    r"\bthe ((?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last)"
    r"\s+(?:option|choice|alternative|answer|one)) (?:is|seems to be) (?:the )?"
    r"(?:correct|right|best|true)\b"
)
_V5_NEGATIONS = (
    *_NEGATIONS,
    r"(?:is|was) (?:false|eliminated|ruled out)|can be (?:ruled out|eliminated)",
    r"خاطئ|غير صحيح|ليس|ليست|गलत|सही नहीं|ভুল|неверн|неправильн|не |yanlış|değil|sai|không",
)
_V5_EXAMPLE_CUES = (
    *_EXAMPLE_CUES,
    r"\b(?:suppose|assume|imagine|hypothetically)\b|譬如|假设",
    # someone else's answer ("The user thinks the answer is C")
    r"\b(?:user|student|someone|somebody|they|he|she|you|people|others|many|critics|the author)"
    r"\s+(?:[a-z']+\s+){0,2}?(?:think|thinks|thought|believe|believes|believed|say|says|said"
    r"|claim|claims|claimed|suggest|suggests|suggested|argue|argues|argued|pick|picks|picked"
    r"|chose|choose|chooses|guess|guesses|guessed|assume|assumes|assumed|answered|selected)\b",
)
_V5_CONDITIONALS = (
    r"\bif\b(?!\s+(?:i|we)\s+(?:had|have|must|were|am|are|was)\s+to\b)(?!\s+forced)"
    r"|假如|如果|もし|만약",
)
_V5_DOUBTS = (
    # "or" opening a clause ("Hmm, or D?"), not between two options ("Why not A or C?")
    r"(?:(?<![a-z0-9)）] )(?<![a-z0-9])or\b|\bmaybe\b|\bperhaps\b|\bpossibly\b|could it be"
    r"|what about|or is it|还是|或者|也许"
    r"|或许)[^.!?\n]{0,24}?{T}[)）\]*_]*\s*[?？]",
)
_V5_NEXT_QUESTION = (
    *_NEXT_QUESTION,
    r"(?:problem|exercise|task)\s*\d+\s*[:.)：]|next question",
    r"(?:вопрос|soru|câu hỏi|σερώτηση|ερώτηση)\s*\d*\s*[:：]",
    # a question followed by a fresh list of options
    r"[^\n?？]*+[?？][ \t]*(?:\n[ \t]*)?[(\[]?[{A}][)\].:][^\n]{0,300}?(?:\n[ \t]*|[ \t]+)"
    r"[(\[]?[{A}][)\].:]",
)
_V5_MASKS = (
    _MASKS[0],
    r"第\s*[0-9_]+",
    r"[条の]\s*([0-9_]+)",  # a mask with a group blanks the group only
    r"(?<![{W}])[{K}](?:\s*(?:,|、|/|・|or|および|及び|または|か)\s*[{K}](?![{W}])){2,}",
    *_MASKS[3:],
    # LaTeX that only wraps what it holds (\boxed and \fbox are answer statements of their own)
    r"\\(?:text(?:bf|it|rm|tt|sf|normal)?|math(?:bf|rm|it|sf|tt|bb|cal|normal)|bm|boldsymbol"
    r"|emph|underline|textsc|operatorname)\s*\{|\\(?:rm|bf|it|tt|displaystyle)\b|\\[()\[\]]",
    r"\$+|(?<!\\boxed)(?<!\\fbox)\{|\}",
    # the chain-of-thought prompt's own opening, echoed ("A: Let's think step by step.")
    r"let['’]?s think step by step\.?",
)
_ROLES = "|".join(r for r in _nfkc(CHOICE_TURN_ROLES) if r != "h")
_REPLIES = "|".join(_nfkc(CHOICE_REPLY_ROLES))
# Where an invented turn starts (searched in the text with a newline put in front, so that a
# pattern led by "\n" finds a line start by `re`'s fast scan for one character).
_V5_TURNS = (
    rf"\n[ \t>*_#]*(?:{_ROLES})[ \t*_]*(?:[:：]|(?=\n|\Z))",
    r"\n[ \t>*_#]*h[ \t]*:[ \t]+(?=[^\W\d_])",
    r"(?<=[.!?] )(?:user|human):",
    r"\n[ \t]*#{2,}[ \t]*(?:instruction|input|human|user)\b",
    *CHAT_TEMPLATE_TOKENS,
)
_V5_REPLIES = (
    rf"\n[ \t>*_#]*(?:{_REPLIES})[ \t*_]*(?:[:：]|(?=\n|\Z))",
    r"\n[ \t]*#{2,}[ \t]*(?:response|assistant)\b",
)

CHOICE_V5 = ChoicePreset(
    "choice/v5",
    (
        ChoiceStep(
            "statements",
            "answer-statement",
            patterns=(
                _V5_ANSWER_STATEMENT,
                _V5_CHOICE_THEN_VERDICT,
                _V5_ORDINAL_VERDICT,
                _V5_LEFT,
                _V5_CONTINUATION,
            ),
            line_final=(_V5_CONCLUDING, _V5_LABEL_LINE),
            triggers=_V5_TRIGGERS,
            negations=_V5_SUBJECT + _V5_NEGATIONS,
            ignore=_V5_EXAMPLE_CUES,
            stops=_V5_NEXT_QUESTION,
            bare=True,
            conditionals=_V5_CONDITIONALS,
            doubts=_V5_DOUBTS,
        ),
        ChoiceStep(
            "option-text",
            "option-text",
            triggers=_V5_TRIGGERS,
            patterns=(_V5_TRIGGER + _V5_GAP,),
            negations=_V5_NEGATIONS,
        ),
    ),
    think=True,
    masks=_V5_MASKS,
    scripts=True,
    invisible=True,
    turns=_V5_TURNS,
    replies=_V5_REPLIES,
    terminal=True,
)

# ---------------------------------------------------------------------------- choice/v6
# choice/v5 with its reading rules made general instead of listed case by case:
# - markup is not text: a special token `<|...|>` left in an output (`<|box_start|>`,
#   `<|begin_of_box|>`) is blanked once the turn cut is done (chat-turn tokens still cut first),
#   and so is every bracket or quote beyond ASCII and CJK's usual ones («B», 〔C〕, ❨D❩);
# - an answer word may reach its choice across a table cell's bar and a heading's blank line;
# - choice-first verdicts in more words ("C would be my answer", "(C) fits best", "D is the
#   only one that works", "| B | right |"), and a first line led by a choice and its reason
#   ("B, because ...");
# - first-person choices in any tense ("I'm going with D"), and modal links between 答案/正确
#   and the choice (答案应为B, 正确的是B, 应该是A).

_V6_BRACKETS = "«‹《〈〔〖〘〚❨❪❬❮❰⟦⟨⟪⦅⦇｢»›》〉〕〗〙〛❩❫❭❯❱⟧⟩⟫⦆⦈｣"
_V6_TRIGGERS = _nfkc(
    (
        *_V5_TRIGGERS,
        *_phrases(("正确的", "正确", "应该", "应当", "应"), ("是", "为", "選", "选")),
        *("正确的一项是", "正确的选项是", "符合题意的是", "odd one out", "the exception is"),
        *_phrases(
            ("i'm ", "i’m ", "i am ", "we're ", "we’re ", "we are "),
            ("going with", "going for", "choosing", "picking", "selecting", "opting for"),
        ),
        *_phrases(
            ("we ", "we'll ", "we’ll ", "we would ", "we'd ", "we’d "),
            ("choose", "pick", "select", "go with", "opt for"),
        ),
    )
)
_V6_LINK_WORDS = _V5_LINK_WORDS + r"|my|our"
_V6_GAP = (
    r"(?:[ \t*_#>=:：፡ঃ﹕꞉∶,\-–—)）\]】\"'“”‘’→|]++|\.{2,}|…|\([^()\n]{0,24}\)|（[^（）\n]{0,24}）"
    rf"|\b(?:{_V6_LINK_WORDS})\b|\b(?!(?:unlikely|hardly|scarcely|barely|rarely)\b)[a-z]{{2,}}ly\b"
    r"|是|为|為|は|が|은|는|হলো|হল|を|应该|应当|应|就|只能|一定|肯定|显然|必然|选择|选)*"
    r"(?:\n[ \t*_>|]*+){0,2}"
)
_V6_TRIGGER = "{TRIGGER}" + _V5_AFTER_TRIGGER
_V6_ANSWER_STATEMENT = _V6_TRIGGER + _V6_GAP + _V5_WRAP + "{T}" + _NOT_FORMULA
# (the new verdicts are named in the lookahead after the choice, whose one class check most
# positions fail, rather than adding their first letters to the class)
_V5_VERDICT_NEXT = r"(?=[)）]?\s*[i,:\-–がを项選选是正符当가이eèbnसসهصяпвdđ])"
assert (
    _V5_CHOICE_THEN_VERDICT.endswith(")") and _V5_CHOICE_THEN_VERDICT.count(_V5_VERDICT_NEXT) == 1
)
assert _V5_CHOICE_THEN_VERDICT.count(r"|\s*[:：\-–]\s*(?:") == 1
_V6_CHOICE_THEN_VERDICT = (
    _V5_CHOICE_THEN_VERDICT.replace(
        _V5_VERDICT_NEXT,
        _V5_VERDICT_NEXT[:-1]
        + r"|[)）]?\s*(?:w(?:ould|ill) be my|(?:fits|works|matches) best|\|))",
        1,
    ).replace(r"|\s*[:：\-–]\s*(?:", r"|\s*[:：\-–|]\s*(?:", 1)[:-1]
    + r"|(?:is|would be|will be) my (?:final )?(?:answer|choice|pick)\b"
    r"|(?:fits|works|matches) best\b|is the best fit\b"
    r"|is the only (?:one|option|choice) (?:that|which) (?:works|fits|holds|applies|satisfies"
    r"|makes sense|is (?:correct|right|true)))"
)
# A first line led by a choice and its reason ("B, because the reaction releases heat.").
_V6_LEAD_REASON = (
    r"\A\s*[*_(\[（【]*{T}[)\]）】*_]*[ \t]*[,，:：\-–—][ \t]*"
    r"(?:because|since|as|given that|due to|for the reason|因为|由于|因)"
)
# As _V5_SUBJECT, but "C would be my answer" and "(C) fits best" are verdicts.
assert _V5_SUBJECT[0].count(r"\s+(?!(?:the )?") == 1
_V6_SUBJECT = (
    _V5_SUBJECT[0].replace(
        r"\s+(?!(?:the )?",
        r"\s+(?!(?:be )?my (?:final )?(?:answer|choice|pick)\b|best\b|(?:the )?",
        1,
    ),
)
_V6_MASKS = (
    *_V5_MASKS,
    # special tokens left in the output (a chat turn's were cut before the masks run)
    r"<\|/?[a-z_0-9]{1,40}\|>",
    f"[{_V6_BRACKETS}]",
)

CHOICE_V6 = ChoicePreset(
    "choice/v6",
    (
        ChoiceStep(
            "statements",
            "answer-statement",
            patterns=(
                _V6_ANSWER_STATEMENT,
                _V6_CHOICE_THEN_VERDICT,
                _V5_ORDINAL_VERDICT,
                _V5_LEFT,
                _V5_CONTINUATION,
                _V6_LEAD_REASON,
            ),
            line_final=(_V5_CONCLUDING, _V5_LABEL_LINE),
            triggers=_V6_TRIGGERS,
            negations=_V6_SUBJECT + _V5_NEGATIONS,
            ignore=_V5_EXAMPLE_CUES,
            stops=_V5_NEXT_QUESTION,
            bare=True,
            conditionals=_V5_CONDITIONALS,
            doubts=_V5_DOUBTS,
        ),
        ChoiceStep(
            "option-text",
            "option-text",
            triggers=_V6_TRIGGERS,
            patterns=(_V6_TRIGGER + _V6_GAP,),
            negations=_V5_NEGATIONS,
        ),
    ),
    think=True,
    masks=_V6_MASKS,
    scripts=True,
    invisible=True,
    turns=_V5_TURNS,
    replies=_V5_REPLIES,
    terminal=True,
)

# ---------------------------------------------------------------------------- choice/v7
# choice/v6 with the classes its held-out misses belong to read as classes:
# - a value mapped to an option ("..., which corresponds to option A", "matching (B)");
# - superlative verdicts after the choice ("Choice C best fits", "D most closely matches"), and
#   option A with them, not the article ("A best describes ...", "A would be my answer");
# - per-option verdict lists ("- C: yes", "| B | ✓ |", "D ✅"): the one option judged right,
#   none when two are;
# - both of two alternatives in any wrappers ("either \boxed{A} or \boxed{C}") dropped;
# - Markdown code spans (`D`) blanked like other markup;
# - an article between a Romance copula and the letter ("é a D", "es el B");
# - answer labels in other words ("Conclusion: (B)", "Verdict: C", "Fazit: A");
# - a concluding choice followed by its reason ("but actually it's A: ...", "That's D — ...").

# A value mapped to an option: "..., which corresponds to option A", "matching choice (B)"
# (negated mappings are _V7_EXAMPLE_CUES: "does not match option A")
_V7_MAPPINGS = (
    *_phrases(
        (
            "corresponds to ", "correspond to ", "corresponding to ", "matches ", "match ",
            "matching ", "consistent with ", "agrees with ", "in agreement with ", "in line with ",
            "points to ", "pointing to ",
        ),
        ("", "the "),
        ("option", "choice", "answer choice", "alternative", "letter"),
    ),
    *_phrases(("entspricht ", "entspricht der "), ("option", "antwort")),
    *_phrases(("corresponde a la ", "coincide con la "), ("opción", "alternativa", "respuesta")),
    *_phrases(("corresponde à ", "corresponde a "), ("opção", "alternativa", "resposta")),
    *_phrases(("correspond à ",), ("l'option", "l’option", "la réponse", "la proposition")),
    *_phrases(("corrisponde ",), ("all'opzione", "all’opzione", "alla risposta")),
    *_phrases(("sesuai dengan ",), ("pilihan", "jawaban", "opsi")),
    *_phrases(("соответствует ",), ("варианту", "ответу")),
)  # fmt: skip
_V7_TRIGGERS = _nfkc(
    (
        *_V6_TRIGGERS,
        *_V7_MAPPINGS,
        # (words that open with a letter no other trigger opens with cost a try at each such
        # letter of every text: "decision" and "nearest" only after a word that has one)
        *_phrases(("", "final ", "my "), ("conclusion", "verdict"), (":", " :")),
        *_phrases(("final ", "my "), ("decision",), (":", " :")),
        *_phrases(
            ("selected ", "chosen ", "closest "),
            ("option", "answer", "choice", "letter", "match"),
        ),
        *_phrases(("best ", "closest "), ("match", "fit", "description", "explanation")),
        *_phrases(
            (
                "fazit",
                "schlussfolgerung",
                "conclusión",
                "conclusão",
                "conclusione",
                "вывод",
                "висновок",
                "结论",
                "結論",
                "결론",
                "الخلاصة",
                "الاستنتاج",
                "निष्कर्ष",
                "উপসংহার",
            ),
            (":", " :"),
        ),
    )
)
# "therefore" in the Romance and German answer sentences ("La bonne réponse est donc la C")
_V7_CONNECTORS = (
    "donc", "alors", "ainsi", "portanto", "então", "entonces", "pues", "por tanto",
    "por lo tanto", "quindi", "dunque", "pertanto", "daher", "somit", "folglich", "deshalb",
)  # fmt: skip
_V7_LINK_WORDS = _V6_LINK_WORDS + "|either|" + "|".join(_V7_CONNECTORS)
assert _V6_GAP.count(rf"\b(?:{_V6_LINK_WORDS})\b") == 1
_V7_GAP = _V6_GAP.replace(rf"\b(?:{_V6_LINK_WORDS})\b", rf"\b(?:{_V7_LINK_WORDS})\b", 1)
# An article after a Romance copula, before the letter: "é a D", "es el B", "sarà la C".
_V7_COPULAS = ("é", "es", "est", "è", "foi", "era", "será", "sería", "seria", "sarà", "sarebbe")
_V7_ARTICLE = (
    "(?:"
    + "|".join(rf"(?<=\b{w}{end})" for w in (*_V7_COPULAS, *_V7_CONNECTORS) for end in (" ", ", "))
    + r")(?:a|o|el|la|le|il)[ \t]++(?=[{K}](?![{W}]))"
)
# "item" and "inciso" name an option in Portuguese and Spanish exams ("é o item C")
_V7_OPTION_WORDS = _OPTION_WORDS + "|item|inciso"
assert _V5_WRAP.endswith(")*+") and _V5_WRAP.count(_OPTION_WORDS) == 2
_V7_WRAP = _V5_WRAP.replace(_OPTION_WORDS, _V7_OPTION_WORDS)[:-3] + "|" + _V7_ARTICLE + ")*+"
assert _V5_AFTER_TRIGGER.endswith("))?")
# more adjectives after the answer word ("a resposta certa é", "la risposta giusta è")
_V7_AFTER_TRIGGER = (
    _V5_AFTER_TRIGGER[:-3] + "|certa|certo|exata|exacta|esatta|giusta|juste|exacte))?"
)
_V7_TRIGGER = "{TRIGGER}" + _V7_AFTER_TRIGGER
_V7_ANSWER_STATEMENT = _V7_TRIGGER + _V7_GAP + _V7_WRAP + "{T}" + _NOT_FORMULA
# A letter that names an option (as _V5_LABEL_LINE reads it): no digit, no ordinal.
_V7_LETTER = r"((?<![{W}])[{A}](?![{W}]))"
# Verdicts in superlatives after the choice ("C best fits", "D most closely matches").
_V7_SUPERLATIVE = (
    r"(?:best|most (?:accurately|closely|appropriately|directly|fully|clearly|precisely)) "
    r"(?:fits|matches|describes|explains|answers|reflects|captures|completes|summari[sz]es"
    r"|represents|identifies|characteri[sz]es|expresses|addresses|satisfies|supports"
    r"|illustrates|defines|applies)\b|comes? (?:the )?closest\b|is (?:the )?closest\b"
)
assert _V6_CHOICE_THEN_VERDICT.count("(?:w(?:ould|ill) be my|") == 1
_V7_CHOICE_THEN_VERDICT = (
    _V6_CHOICE_THEN_VERDICT.replace(
        "(?:w(?:ould|ill) be my|", "(?:w(?:ould|ill) be my|most |comes? |", 1
    )[:-1]
    + "|"
    + _V7_SUPERLATIVE
    + ")"
)
# Option A, not the article, before a verdict ("A best fits", "A would be my answer").
_V7_NOT_ARTICLE = (
    _V7_SUPERLATIVE,
    r"(?:w(?:ould|ill) be my|(?:fits|works|matches) best|is the only (?:one|option|choice))\b",
)
# A value mapped to an option without the option word, at the end of a line: "..., which
# matches (B)." (with the option word, the mapping phrases are triggers: _V7_MAPPINGS)
_V7_MAP_VERBS = (
    r"\b(?:correspond(?:s|ing)?(?: exactly| directly)? to|match(?:es|ing)?|consistent with"
    r"|agree(?:s|ing)? with|in (?:line|agreement) with|lines? up with|point(?:s|ing)? to"
    r"|entspricht|corresponde (?:a|à)|correspond à|corrisponde a|sesuai dengan|соответствует)"
    r"|对应于?|對應於?"
)
# (the verb first, then what must not stand before it: most positions fail at the verb)
_V7_MAPS = (
    rf"(?=(?:{_V7_MAP_VERBS}))(?<!\bnot )(?<!n't )(?<!n’t )(?<!\bno )(?<!never )(?<!fails to )"
    rf"(?<!failed to )(?:{_V7_MAP_VERBS})"
)
_V7_MAPPED_FINAL = (
    _V7_MAPS
    + r"[ \t]*(?:the[ \t]+)?[(\[（*]*"
    + _V7_LETTER
    + r"[)\]）*]*(?=[ \t]*+[.!。！]?[ \t]*+(?:\n|$))"
)
# A concluding choice followed by its reason: "but actually it's A: ...", "That's D — ...".
# The letter first (a class `re` skips to by itself; group 1 is read back by a lookbehind),
# then the reason after it, then what stands before it (lookbehinds of one width each).
_V7_CONCLUDERS = (
    "it's ", "it’s ", "it is ", "must be ", "has to be ", "should be ", "that's ", "that’s ",
    "that is ", "so ", "so, ", "thus ", "thus, ", "hence ", "hence, ", "therefore ",
    "therefore, ",
)  # fmt: skip
_V7_CONCLUDING_REASON = (
    r"[{A}](?<![{W}][{A}])(?![{W}])"
    # (possessive: a long run of spaces after a letter is read once, not once per split)
    + r"(?=[)）*]*+[ \t]*+(?:[:;—–]|-[ \t]|,?[ \t]*+(?:because|since|as|given|for|pois|porque"
    r"|weil|car|perché)\b|,?[ \t]*+因为))(?:"
    + "|".join(
        rf"(?<=\b{re.escape(said + wrap)}[{{A}}])"
        for said in _V7_CONCLUDERS
        for wrap in ("", "(", "（", "*", "**", "option ", "choice ")
    )
    + r")(?<=([{A}]))"
)
# A per-option verdict line: group 1 the choice, group 2 a positive verdict.
_V7_YES = (
    r"yes|true|correct|right|valid|✓|✔|✅|☑|🗸|○|◯|是|对|對|正确|正確|正しい|正解|sí|si|oui|ja"
    r"|richtig|wahr|vrai|verdadeiro|verdadero|vero|corrett[ao]|corret[ao]|correct[ao]|benar"
    r"|ndiyo|sahihi|evet|doğru|да|верно|правильно|đúng|نعم|صحيح|हाँ|सही|হ্যাঁ|সঠিক|예|맞음"
)
_V7_NO = (
    r"no|false|incorrect|wrong|invalid|✗|✘|❌|❎|×|否|错|錯|不正确|不對|不对|誤り|誤|いいえ|nein"
    r"|falsch|non|faux|falso|falsa|errad[ao]|incorrect[ao]|sbagliat[ao]|salah|hapana|si sahihi"
    r"|hayır|yanlış|нет|неверно|sai|لا|خطأ|नहीं|गलत|না|ভুল|아니오|틀림"
)
_V7_VERDICT_LINE = (
    r"^[ \t>*_\-•·+|]*+(?:(?:option|choice|statement)[ \t]+)?[(\[（【]?"
    r"((?<![{W}])[{K}](?![{W}]))[)\]）】]?[*_]*[ \t]*"
    r"(?:[:：\-–—|=→][ \t*_]*|[.)][ \t]+|(?=[✓✔✅☑🗸○◯✗✘❌❎×]))"
    rf"(?:({_V7_YES})|(?:{_V7_NO}))(?![a-z])(?![ \t]*\?)"
)
_V7_EXAMPLE_CUES = (
    *_V5_EXAMPLE_CUES,
    # a mapping denied: "does not match option A", "x never corresponds to choice B"
    r"(?:\bnot|\bnever|n't|n’t|\bfails? to|\bfailed to)\s++(?:[a-z]++\s++)?(?:correspond(?:s|ing)?"
    r"|match(?:es|ing)?|agree(?:s|ing)?|(?:is |are |being )?consistent|lines? up|point(?:s|ing)?"
    r"|give(?:s)?|yield(?:s)?|lead(?:s)?)\s++(?:(?:to|with)\s++)?(?:the\s++)?(?:option|choice"
    r"|answer|alternative|letter)",
)
_V7_MASKS = (
    *_V6_MASKS,
    # Markdown code fences (with their language tag) and code spans: markup, like the brackets
    r"(?<![^\n])[ \t]*`{3,}[\w+\-]*[ \t]*(?=\n|\Z)",
    r"`+",
)

CHOICE_V7 = ChoicePreset(
    "choice/v7",
    (
        ChoiceStep(
            "statements",
            "answer-statement",
            patterns=(
                _V7_ANSWER_STATEMENT,
                _V7_CHOICE_THEN_VERDICT,
                _V5_ORDINAL_VERDICT,
                _V5_LEFT,
                _V5_CONTINUATION,
                _V6_LEAD_REASON,
                _V7_CONCLUDING_REASON,
            ),
            line_final=(_V5_CONCLUDING, _V5_LABEL_LINE, _V7_MAPPED_FINAL),
            triggers=_V7_TRIGGERS,
            negations=_V6_SUBJECT + _V5_NEGATIONS,
            ignore=_V7_EXAMPLE_CUES,
            stops=_V5_NEXT_QUESTION,
            bare=True,
            conditionals=_V5_CONDITIONALS,
            doubts=_V5_DOUBTS,
            verdict_lines=(_V7_VERDICT_LINE,),
            pair_alternatives=True,
            not_article=_V7_NOT_ARTICLE,
        ),
        ChoiceStep(
            "option-text",
            "option-text",
            triggers=_V7_TRIGGERS,
            patterns=(_V7_TRIGGER + _V7_GAP,),
            negations=_V5_NEGATIONS,
        ),
    ),
    think=True,
    masks=_V7_MASKS,
    scripts=True,
    invisible=True,
    turns=_V5_TURNS,
    replies=_V5_REPLIES,
    terminal=True,
)

# ---------------------------------------------------------------------------- choice/v8
# choice/v7 with the classes its misses on the second blind split (fresh2) belong to read as
# classes:
# - a position in words names an option in more forms and languages, also alone on a line
#   ("The second one.", "Option number two", "la segunda opción", "die dritte Antwort",
#   "第二个选项", "最后一个", "2番目"): `choice_script.position_index` reads them;
# - elimination that names the one option left in more words ("D is the only option left",
#   "only C remains", "C is what remains", "by elimination, B", "只剩下D");
# - an aside between two commas or dashes between the answer words and the choice ("The
#   answer is, as far as I can tell, D", "The answer, I think, is C");
# - the one choice in a Markdown table's answer column ("| Question | Answer |" ... "| 1 | B |");
# - explicit indecision after the final statement ("... I cannot decide between them"): none;
# - an invented new item's header (`Passage:`, `Context:`, `Text:`, `Article:`, `Story:`, and
#   their translations) ends the answer like a new question: only the answer before it counts.

_V8_CARDINALS = (
    r"one|two|three|four|five|six|seven|eight|nine|ten|uno|dos|tres|cuatro|cinco|um|dois|três"
    r"|quatro"
)
_V8_NUMBER_WORDS = rf"(?:(?:number|no\.|nr\.|#|número|numero)[ \t]*)?(?:{_V8_CARDINALS})"
_V8_CARDINAL_NOUNS = r"option|choice|alternative|opción|opcion|opção|alternativa"
# A position in words (no group: the whole phrase is the token `position_index` reads), as
# one alternation whose every branch opens with a literal, so that `re` skips ahead to the
# characters that can start one (a nested group first makes it try every position).
_V8_LATIN_END = r"(?![a-zà-ÿ])"
_V8_POSITION_WORDS = "(?:" + "|".join(
    (
        *(
            rf"{w}[ \t]+(?:option|choice|alternative|answer|one){_V8_LATIN_END}"
            for w in (
                "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
                "ninth", "tenth", "last", "1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th",
                "9th",
            )
        ),
        *(rf"{w}[ \t]+{_V8_NUMBER_WORDS}{_V8_LATIN_END}" for w in _V8_CARDINAL_NOUNS.split("|")),
        *(
            rf"{w}[ \t]+(?:opción|opcion|opção|opzione|alternativa|respuesta|resposta|risposta)"
            + _V8_LATIN_END
            for w in (
                "primer[ao]?", "segund[ao]", "tercer[ao]?", "cuart[ao]", "quint[ao]",
                "primeir[ao]", "terceir[ao]", "quart[ao]", "prim[ao]", "second[ao]", "terz[ao]",
                "últim[ao]", "ultim[ao]",
            )
        ),
        *(
            rf"{w}[ \t]+(?:option|proposition|réponse|choix){_V8_LATIN_END}"
            for w in (
                "premi[eè]re?", "deuxi[eè]me", "seconde?", "troisi[eè]me", "quatri[eè]me",
                "cinqui[eè]me", "derni[eè]re?",
            )
        ),
        *(
            rf"{w}(?:e|en|er|es)[ \t]+(?:option|antwort|möglichkeit|alternative|auswahl)"
            + _V8_LATIN_END
            for w in ("erst", "zweit", "dritt", "viert", "fünft", "letzt")
        ),
        r"第(?:[一二三四五六七八九十]|[1-9])(?:(?:个|個|项|項)(?:选项|選項|答案)?|选项|選項)",
        r"最[后後]一(?:个|個|项|項)(?:选项|選項|答案)?",
        *(f"{d}番目(?:の(?:選択肢|答え|もの))?" for d in "123456789一二三四"),
        r"最後の(?:選択肢|もの)",
    )
) + ")"  # fmt: skip
# ... and a number after an option word the statement's wrappers already read ("is option two")
_V8_POSITION = (
    "(?:"
    + _V8_POSITION_WORDS
    + "|(?:"
    + "|".join(f"(?<={w} )" for w in _V8_CARDINAL_NOUNS.split("|"))
    + rf"){_V8_NUMBER_WORDS}(?![a-zà-ÿ]))"
)
# {T} with the positions above (`choice_script.token_set` fills {T} with v5's English ones)
_V8_T = r"((?<![{W}])[{K}](?![{W}]|\.[0-9])|" + _V8_POSITION + ")"


def _v8(pattern: str) -> str:
    """A v5..v7 pattern with choice/v8's positions where it reads {T}."""
    assert "{T}" in pattern
    return pattern.replace("{T}", _V8_T)


# A line that is a position alone ("The second one.", "Option number two!", "最后一个"), or
# after a concluding lead ("So the third one.", "C'est la première option."), read
# as two patterns: the first line (`\A`), and any line after a newline (a literal `re` skips
# to; `(?m)^` made it try every position of the text).
_V8_POSITION_LINE = (
    r"[ \t>*_#\-]*+(?:(?:so|it['’]s|it is|that['’]s|that is|c['’]est|es|è|é|ist es)[ \t,]+)?"
    r"(?:(?:the|my|la|el|le|il|die|der|das|den)[ \t]+)?"
    + f"({_V8_POSITION_WORDS})"
    + r"[ \t)）\]】*_\"'”’.。!！]*+(?=\n|\Z)"
)
# A position after an article, then a verdict ("the second option is correct", "La segunda
# opción es correcta"); no group: the position is the whole match, and the article a literal
# `re` skips to.
_V8_POSITION_VERDICT = (
    r"(?:the|la|el|le|il|die|der|das)[ \t]+"
    + _V8_POSITION_WORDS
    + r"(?=[ \t]+(?:is|seems to be|es|est|è|é|ist)[ \t]+(?:the |la |a |el )?(?:correct[ao]?"
    r"|correcte|right|best|true|correta|corretta|juste|bonne|richtig|giusta|certa)(?![a-z]))"
)
# Elimination that names the one option left: words read as answer triggers ("which leaves
# C", "the only option left is A", "by elimination, B", "只剩下D").
_V8_LEFT_WORDS = _nfkc(
    (
        *_phrases(("leaving", "leaves", "left with", "which leaves", "that leaves"), ("", " only")),
        "leaves us with", "leaves us with only",
        *_phrases(
            ("the only ", "the only remaining ", "the remaining ", "only remaining "),
            ("option", "choice", "answer", "one", "candidate"),
            ("", " left", " remaining", " still standing"),
            (" is",),
        ),
        *_phrases(("by ", "by the "), ("", "process of "), ("elimination",)),
        "por eliminación", "por eliminação", "par élimination", "per esclusione", "solo queda",
        "sólo queda", "só resta", "il ne reste que", "es bleibt nur", "只剩", "只剩下", "剩下的是",
        "剩下的只有", "剩下的就是", "排除法可知", "排除法可得",
    )
)  # fmt: skip
_V8_TRIGGERS = _nfkc((*_V7_TRIGGERS, *_V8_LEFT_WORDS))
# The option, then that it is the one left ("D is the only option left", "only C remains",
# "C is what remains", "so D must be the answer"). The letter first (a class `re` skips to by
# itself), read back into group 1 by a lookbehind.
_V8_REMAINS = (
    r"[{A}](?<=([{A}]))(?<![{W}][{A}])(?![{W}])[)）]?[ \t]+"
    r"(?=[iwrmh])(?:(?:is|was) (?:the only (?:(?:one|option|choice|answer|possibility"
    r"|candidate) )?(?:left|remaining|still standing|standing|that remains)"
    r"|(?:what|all that)(?:['’]s| is)? (?:left|remains))"
    r"|remains\b(?=[ \t]*(?:[.!;,)]|\n|$))"
    r"|(?:must be|has to be) (?:the (?:correct |right )?answer|correct|right|the correct one"
    r"|the right one)(?![a-z]))(?![ \t]+to\b)"
)
# Option A, not the article, before those words ("A remains.", "A must be the answer").
_V8_NOT_ARTICLE = (*_V7_NOT_ARTICLE, r"remains\b(?=[ \t]*(?:[.!;,)]|\n|$))|(?:must|has to) be\b")
# The answer words, an aside between commas or dashes, then the choice ("The answer is, as far
# as I can tell, D", "The answer, I believe, is C", "答案是，据我判断，B").
_V8_IS = r"(?:is|was|would be|will be|should be|must be|ist|lautet|est|es|è|é|será|sarà|é)"
# (its own few answer words, not every trigger: one more scan of the text costs less)
_V8_ASIDE_WORDS = _nfkc(
    (
        *ANSWER_WORDS,
        *("ответ", "cevap", "đáp án", "option", "choice", "my pick"),
    )
)
_V8_ASIDE_STATEMENT = (
    f"(?:{word_alternation(_V8_ASIDE_WORDS)})"
    + _V7_AFTER_TRIGGER
    + rf"(?:[ \t]+{_V8_IS}|[ \t]*是)?[ \t]*+"
    r"(?:,[ \t]*+[^,\n.;:!?()]{2,60}+,|[—–][ \t]*+[^—–\n.;:!?()]{2,60}+[—–]"
    r"|--[ \t]*+[^\n.;:!?()\-]{2,60}+--)"
    + rf"[ \t]*+(?:(?:{_V8_IS}|是)[ \t]*)?[*_]*+(?:(?:the|la|el|le|il|option|choice|letter)[ \t]+)?"
    r"[(（\[*_]*+" + _V8_T
)
# As _V6_SUBJECT, but "C is what remains" and "D is all that's left" are verdicts.
assert _V6_SUBJECT[0].count(r"\s+(?!(?:be )?my") == 1
_V8_SUBJECT = (
    _V6_SUBJECT[0].replace(
        r"\s+(?!(?:be )?my",
        r"\s+(?!(?:what|all that)(?:['’]s| is)? (?:left|remains)\b|to be\b|(?:be )?my",
        1,
    ),
)
# v5's doubts with each cue's word first and its boundary checks after it (the same matches):
# v5's pattern opens with lookbehinds, so `re` tried it at every position of the text.
assert _V5_DOUBTS[0].startswith(r"(?:(?<![a-z0-9)）] )(?<![a-z0-9])or\b|\bmaybe\b|")
_V8_DOUBTS = (
    r"(?:or(?<![a-z0-9]or)(?<![a-z0-9)）] or)\b|maybe(?<!\wmaybe)\b|perhaps(?<!\wperhaps)\b"
    r"|possibly(?<!\wpossibly)\b|could it be|what about|or is it|还是|或者|也许|或许)"
    + _V5_DOUBTS[0][_V5_DOUBTS[0].index(r"[^.!?\n]{0,24}?{T}") :],
)
# Explicit indecision, after the final statement: no answer.
_V8_UNDECIDED = (
    r"\b(?:i|we) (?:really |just |honestly |still |simply )?(?:can(?:not| not|['’]t)|could(?: not"
    r"|n['’]t)|am unable to|['’]m unable to|am not able to) (?:really |quite )?(?:decide|choose"
    r"|pick|settle)(?=[ \t]*(?:[.!?,;:)]|\n|$|between|which|among|on (?:one|a single)))",
    r"\b(?:i|we)(?:['’]m| am| are|['’]re) (?:still |really |honestly |genuinely |just )?"
    r"(?:torn|undecided|split)\b",
    r"\b(?:i|we)(?:['’]m| am| are|['’]re) (?:still |really |honestly )?(?:not sure|unsure"
    r"|uncertain) which\b",
    r"\b(?:hard|impossible|difficult) to (?:decide|choose|pick|say which|tell which)\b"
    r"|\bcould be either(?: one| of them)?\b",
    r"no (?:sé|se) (?:cuál|cual|qué elegir)|no puedo (?:decidir|elegir)|no me decido"
    r"|je n['’]arrive pas à (?:choisir|décider|trancher)|je ne sais pas (?:laquelle|lequel)"
    r"|ich kann mich nicht entscheiden|non riesco a (?:decidere|scegliere)"
    r"|não consigo (?:decidir|escolher)",
    r"无法(?:确定|决定|抉择)|拿不准|难以(?:确定|决定|抉择)|决定不了|選べ(?:ない|ません)"
    r"|決められ(?:ない|ません)|決めかね",
)
# The header of an invented new item (a pasted passage, its context): the answer ends there
# once the output has answered, like an invented next question.
_V8_ITEM_WORDS = (
    "passage", "context", "text", "article", "story", "excerpt", "paragraph", "reading passage",
    "source text", "texto", "contexto", "pasaje", "lectura", "texte", "contexte", "extrait",
    "kontext", "artikel", "abschnitt", "testo", "contesto", "brano", "passagem", "текст", "文章",
    "材料", "阅读材料", "短文", "上下文", "本文", "文脈",
)  # fmt: skip
_V8_ITEM_END = r"[ \t]*\d*[ \t*_]*[:：]"
_V8_ITEM_HEADERS = (f"(?:{'|'.join(_V8_ITEM_WORDS)}){_V8_ITEM_END}",)
# The same in the raw text, for the terminal-answer check: as a header is written at a line
# start (lower case, capitalized, upper case), not an IGNORECASE search (several times slower).
_V8_ITEM_HEADERS_RAW = (
    "(?:"
    + "|".join(dict.fromkeys(v for w in _V8_ITEM_WORDS for v in (w, w.capitalize(), w.upper())))
    + f"){_V8_ITEM_END}",
)
_V8_NEXT_ITEM = (*_V5_NEXT_QUESTION, *_V8_ITEM_HEADERS)
# The headers of a Markdown table's answer column (a whole header cell, markup stripped).
_V8_TABLE_ANSWERS = (
    r"(?:(?:final|correct|chosen|selected|my|best|right|predicted)[ \t]+)?answers?"
    r"(?:[ \t]+(?:choice|letter|option|key))?",
    r"(?:final|correct|chosen|selected|my|best|right|predicted)[ \t]+(?:option|choice|letter"
    r"|pick)|pick|selection",
    r"(?:(?:final|correct)[ \t]+)?(?:respuesta|resposta|risposta|réponse|antwort|jawaban|ответ"
    r"|cevap|đáp án)(?:[ \t]+(?:correcta|correta|corretta|correcte|final|finale))?",
    r"richtige antwort|bonne réponse|答案|正确答案|最终答案|答え|回答|正解|정답|الإجابة|الجواب"
    r"|उत्तर|উত্তর",
)

CHOICE_V8 = ChoicePreset(
    "choice/v8",
    (
        ChoiceStep(
            "statements",
            "answer-statement",
            patterns=(
                _v8(_V7_ANSWER_STATEMENT),
                _V7_CHOICE_THEN_VERDICT,
                _V8_POSITION_VERDICT,
                _V8_REMAINS,
                _v8(_V5_CONTINUATION),
                _v8(_V6_LEAD_REASON),
                _V7_CONCLUDING_REASON,
                _V8_ASIDE_STATEMENT,
                r"\A" + _V8_POSITION_LINE,
                r"\n" + _V8_POSITION_LINE,
            ),
            line_final=(_v8(_V5_CONCLUDING), _V5_LABEL_LINE, _V7_MAPPED_FINAL),
            triggers=_V8_TRIGGERS,
            negations=_V8_SUBJECT + _V5_NEGATIONS,
            ignore=_V7_EXAMPLE_CUES,
            stops=_V8_NEXT_ITEM,
            bare=True,
            conditionals=_V5_CONDITIONALS,
            doubts=_V8_DOUBTS,
            verdict_lines=(_V7_VERDICT_LINE,),
            pair_alternatives=True,
            not_article=_V8_NOT_ARTICLE,
            table_answers=_V8_TABLE_ANSWERS,
            undecided=_V8_UNDECIDED,
        ),
        CHOICE_V7.steps[1],  # v7's option-text step
    ),
    think=True,
    masks=_V7_MASKS,
    scripts=True,
    invisible=True,
    turns=_V5_TURNS,
    replies=_V5_REPLIES,
    terminal=True,
    terminal_stops=_V8_ITEM_HEADERS_RAW,
)


# ---------------------------------------------------------------------------- choice/v9
# choice/v8 with general rules in place of more listed phrasings (its misses on the third blind
# split, fresh3, were mostly simple outputs in forms no list named):
# - `guard` (before the statements, `choice_last_resort`): a final box holding several choices
#   (`\boxed{ACD}`) and a sentence cut off right after a copula that names a choice ("A项的结构是")
#   have no answer;
# - doubt after the final statement also when a reason follows the doubted choice ("Hmm, or
#   maybe D, since ...?");
# - an appositive option closing a line is a statement ("That leaves X, option D.");
# - a first line led by a choice and then a negation cue is no lead line ("(A) is incorrect
#   because ...": it judges option A);
# - `last-resort` (after every other step found nothing): a choice in an answer position in any
#   language (after a copula such as is/er/là/คือ/是, before 입니다/です, after "but" in a
#   correction, first on a line before 。/、/a dash/its option text in parentheses, last on a short
#   final line after a word, ", option C,", a JSON string field whose whole value is one choice
#   under any key, also escaped inside a JSON string), not negated, compared or an example;
#   answers when those positions name exactly one choice.

# (Arabic punctuation, inside the Arabic block of {W}, may follow a token: "بل د، لأن")
_V9_TOK = r"(?<![{W}])([{K}])(?!(?![،؛؟])[{W}]|\.[0-9])"
_V9_NOUN = (
    r"(?:(?:option|choice|ending|letter|alternative|answer|number|no\.|opción|opção|opzione"
    r"|選択肢|选项|選項)[ \t]*)?"
)
_V9_COPULA = (
    r"(?:(?<![{W}])(?:is|was|are|be|it['’]s|that['’]s|er|är|ist|est|es|és|è|é|là|este|adalah"
    r"|ialah|jest|je|on|ni)|คือ|เป็น|是|为|為)[ \t]*(?:(?:[a-z]{2,}ly|probably|definitely|surely"
    r"|clearly)[ \t,]+)?"
)
# What may follow a bare choice after a copula: the sentence's end, punctuation, or its reason.
_V9_FOLLOW = (
    r"(?=[ \t]*(?:[.。!！,;；:،—–]|-[ \t]|\n|\Z)|[ \t]+(?:(?:because|since|as|vì|bởi|weil|da|car"
    r"|parce|porque|perché|karena|kwa|i\.e\.)(?![a-zà-ỹ])|เพราะ|因为|因))"
)
_V9_LAST_RESORT = (
    # after a copula, wrapped (any text may follow: "is (A) acute appendicitis", "is 'c' i.e.")
    _V9_COPULA + _V9_NOUN + r"[(（\[\"'“‘]" + _V9_TOK + r"[)）\]\"'”’]",
    # after a copula, bare, then the sentence's end or a reason ("er C.", "là A vì ...")
    _V9_COPULA + _V9_NOUN + r"[*_]*" + _V9_TOK + r"[*_]*" + _V9_FOLLOW,
    # before a Korean or Japanese copula ("C입니다", "Bです")
    _V9_TOK + r"[)）]*[ \t]*(?:입니다|이다|예요|이에요|です|である)",
    # after "but" in a correction ("not A, but D", "ليست أ، بل د", "A가 아니라 C")
    r"(?:(?<![{W}])(?:but|rather|instead|sondern|sino|mais|mas|bensì)|بل|而是|아니라|ではなく)"
    r"[ \t,，،]*(?:(?:it['’]s|is|option|choice)[ \t]+)?[(（\"'*]*" + _V9_TOK,
    # first on a line, before 。 or 、, a dash, or its option text in parentheses alone
    r"(?:\A|\n)[ \t>*#]*" + _V9_NOUN + r"[(（\[*]*" + _V9_TOK + r"[)）\]*]*"
    r"(?=[。、]|[ \t]*[—–]|[ \t]+-[ \t]|[ \t]*[(（][^)）\n]{1,40}[)）][ \t]*(?:\n|\Z))",
    # last on a short final line, after a word ("Ending D.", "The letter is B.")
    r"(?:\A|\n)[ \t*_#>]*[^\W\d_][^\n]{0,30}?[ \t]+[(（*_]*"
    + _V9_TOK
    + r"[)）*_]*[ \t]*[.。!！]?\s*\Z",
    # an appositive option (", option C,")
    r"[,，][ \t]*(?:option|choice|ending|letter|选项)[ \t]*[(（]?"
    + _V9_TOK
    + r"[)）]?(?=[ \t]*(?:[,.;:!。]|\n|\Z))",
    # a JSON string field whose whole value is one choice, any key; also inside a JSON string
    r"\"[^\"\n]{1,40}\"[ \t]*:[ \t]*\"[ \t]*[(（\[]?" + _V9_TOK + r"[)）\]]?[ \t]*\"",
    r"\\\"[^\"\\\n]{1,40}\\\"[ \t]*:[ \t]*\\\"[(（]?" + _V9_TOK + r"[)）]?\\\"",
    # (last: one choice token, for the other choices the answer's sentence or what follows names)
    _V9_TOK,
)
# (not a comma: "The answer is B," has said its answer, and a flood of "{a:1," is no sentence)
_V9_GUARD = (
    r"(?:是|为|為|(?<![{W}])(?:is|are|was|were|est|ist|es|è|là|and|or|but|because|the|of))"
    r"[ \t]*\Z",
    _V9_TOK,
)
# v8's doubts, and the same with a reason after the doubted choice ("or maybe D, since ...?")
assert _V8_DOUBTS[0].endswith(r"[)）\]*_]*\s*[?？]")
_V9_DOUBTS = (
    _V8_DOUBTS[0][: -len(r"\s*[?？]")]
    + r"(?:\s*[?？]|[ \t]*,?[ \t]*(?:since|because|as|given)\b[^.!?\n]{0,120}[?？])",
)
# An appositive option closing a line ("That leaves heparin-induced thrombocytopenia, option D.")
_V9_APPOSITIVE = r"[,，][ \t]*(?:option|choice)[ \t]+[(（]?{T}[)）]?"

CHOICE_V9 = ChoicePreset(
    "choice/v9",
    (
        ChoiceStep("guard", "guard", patterns=_V9_GUARD),
        replace(
            CHOICE_V8.steps[0],
            line_final=(*CHOICE_V8.steps[0].line_final, _V9_APPOSITIVE),
            doubts=_V9_DOUBTS,
            lead_negated=True,
        ),
        CHOICE_V8.steps[1],
        ChoiceStep("last-resort", "last-resort", patterns=_V9_LAST_RESORT),
    ),
    think=True,
    masks=_V7_MASKS,
    scripts=True,
    invisible=True,
    turns=_V5_TURNS,
    replies=_V5_REPLIES,
    terminal=True,
    terminal_stops=_V8_ITEM_HEADERS_RAW,
)


# ---------------------------------------------------------------------------- choice/v10
# choice/v9 with plain answers read by the shape and place of a label instead of listed words
# (its misses on the fourth blind split, fresh4, were mostly answer sentences in languages no
# list named, and each blind split so far held 10-25% such forms):
# - `item-cut`: a question line after a line naming an option, followed by an option list (lines
#   led by the labels in order, or the labels in brackets on one line) or by an answer header the
#   text used before ("Svar:"), starts an invented next item: the answer region ends there;
# - `correction` (before the statements): an output that opens with one option and whose final
#   sentence ends in another, in the opening answer's own words ("Svar: a ... Det korrekte svar
#   er derfor c."), answers the later option;
# - `plain-answer` (after every other step found nothing): labels standing alone in the options'
#   script after a word (a cased label before a cased word is a word: "a casa", "vitamin C is";
#   a digit counts only in a set of digits, in any script's digits), not negated, compared,
#   listed or in a question; when those in the answer region's tail all name one option and
#   one stands in the first sentence, the final sentence or the last line's first sentence;
# - a JSON field whose value is one word and a label ("Option 3"), an XML element holding one
#   label (<choice>A</choice>), a keyword argument (letter='D'), a sentence ending in a label
#   in parentheses after a word ("... (option B).") as last-resort positions;
# - Cyrillic ј and і read as the Latin labels j and i (`choice_plain.LOOKALIKES`).

# One label: not touching a letter of its script, a Latin letter, a digit, an apostrophe
# after a letter or a degree sign; any script's digits (a digit counts only in a set of digits)
_V10_TOK = (
    r"(?<![{W}\u00c0-\u024f\u1e00-\u1eff°℃%\d])(?<![^\W\d_]['’])(?<!\d[.,])"
    r"([{K}јі]|\d)(?![{W}\u00c0-\u024f\u1e00-\u1eff\d°℃%]|['’][^\W\d_]|[.,][0-9])"
)
# the label; v7's example cues (earlier in the sentence) and v5's negations (right after the
# label: "B가 아닙니다", "b 以外"), each as one pattern, that make a label no answer
_V10_PLAIN = (
    _V10_TOK,
    "|".join(f"(?:{cue})" for cue in _V7_EXAMPLE_CUES),
    r"[)）\]'\"”’*]*[ \t]*(?:" + "|".join(f"(?:{n})" for n in _V5_NEGATIONS) + ")",
)
_V10_LAST_RESORT = (
    *_V9_LAST_RESORT[:-1],
    # a JSON string field whose value is a word and one letter ("Option B"; not a digit:
    # "grade 3" is a value)
    r"\"[^\"\n]{1,40}\"[ \t]*:[ \t]*\"[ \t]*[^\W\d_]{2,12}[ \t]+"
    + _V9_TOK.replace("[{K}]", "[{A}]")
    + r"[ \t]*\"",
    # an XML element holding one label, any tag but sub/sup (<choice>A</choice>)
    r"<(?!su[bp]>)[a-z_][\w\-]{0,30}>[ \t]*" + _V9_TOK + r"[ \t]*</[a-z_][\w\-]{0,30}>",
    # a keyword argument whose value is one quoted label (MCQAnswer(letter='D', ...))
    r"[(,][ \t]*[a-z_]\w{0,30}[ \t]*=[ \t]*['\"]" + _V9_TOK + r"['\"]",
    # a line ending in a label in parentheses after a word ("Answer: The mitochondria (option
    # B).")
    r"[^\W\d_][ \t]+[(（](?:[^\W\d_]{2,12}[ \t]*)?"
    + _V9_TOK
    + r"[)）][ \t]*[.。!！]?[ \t]*(?:\n|\Z)",
    _V9_LAST_RESORT[-1],
)

CHOICE_V10 = replace(
    CHOICE_V9,
    name="choice/v10",
    steps=(
        CHOICE_V9.steps[0],
        ChoiceStep("correction", "correction", patterns=_V10_PLAIN),
        *CHOICE_V9.steps[1:3],
        ChoiceStep("last-resort", "last-resort", patterns=_V10_LAST_RESORT),
        ChoiceStep("plain-answer", "plain-answer", patterns=_V10_PLAIN),
    ),
    item_token=_V10_TOK,
)

# ---------------------------------------------------------------------------- choice/v11
# choice/v10 with the classes its misses on the fifth blind split (fresh5) belong to read as
# classes, in any language where the shape allows:
# - two labels joined by one short word in any script ("(b) or (d)", "B немесе D") name two
#   options: neither is a statement or a lead line; nor is a label a code conditional picks
#   (`"B" if ratio > 1 else "C"`);
# - a parenthetical that is one label is the label, not an aside before it ("Answer: (A) A dog
#   barking ...");
# - more end-of-turn markers end the answer: any special token naming a user turn or an end of
#   turn (`<|END_OF_TURN_TOKEN|>`, `<|USER_TOKEN|>`), bare role tags (`<用户>`, `<user>`), and
#   an exam's end-of-answer marker `<eoa>` (a second, invented item follows it);
# - HTML elements are markup (`<span class="choice">D</span>`), a check mark before a label
#   marks it ("✅ A: ..."), "is the closest" is a verdict, "I lean towards D" a choice, and
#   positions from the end ("the second-to-last option") and compound nouns after an ordinal
#   ("die dritte Antwortmöglichkeit") name options;
# - `plain-answer` and `correction`: a label after a negation word of many languages is rejected
#   (named, not answered: "Svaret er ikke b." has no answer) and a label right after it,
#   behind a comma and at most one word, corrects it ("nav B, bet A", "ez da C, A baizik");
#   a label followed by one short word and a sentence mark is a label ("C da,", "B dha."); a
#   one-letter conjunction lists a label only right before it ("Përgjigja e saktë është C");
#   a variable in a formula (`a_1 = 1`) is no label; someone else's pick is no answer ("My
#   study partner chose A.").

# Right after a statement's choice: one short word and another label, in any script ("B or D",
# "B немесе D"; not "C as a whole": a one-letter word before a word), or a code conditional.
_V11_ALTERNATIVE = (
    r"(?<!\n)(?!(?:because|since|as|while|but|than|when|so|for|not|unlike|though|whereas"
    r"|given|then|over|vs|versus|unless|until|with|without|that|which|where|plus|minus|times"
    r"|porque|pois|weil|denn|car|parce|perché|poiché|karena|kerana|vì|потому|бо|jer|kwa|que"
    r"|che|dass)[ \t])"
    r"[^\W\d_]{1,8}[ \t]+[(（\[*_\"'“‘]*[{A}](?![{W}])"
    r"(?!(?<=[aeiouyvkswzаеиоуявкс])[ \t]+[^\W\d_])"
)
_V11_CONDITIONAL = r"(?<=[\"'”’][ \t])if[ \t]"
# "is the closest" is a verdict on the choice before it, not a sentence about it
_V11_SUBJECT = (_V8_SUBJECT[0].replace("|suitable|valid)", "|suitable|valid|closest)", 1),)
assert _V11_SUBJECT != _V8_SUBJECT
# Positions counted from the end, and an ordinal before a compound noun (German writes one)
_V11_POSITION_WORDS = (
    _V8_POSITION_WORDS[:-1]
    + "|"
    + "|".join(
        (
            r"(?:second|2nd)[ \t-]+(?:to|from)[ \t-]+(?:the[ \t]+)?last[ \t]+(?:option|choice"
            r"|alternative|answer|one)" + _V8_LATIN_END,
            r"(?:penultimate|next[ \t-]+to[ \t-]+last)[ \t]+(?:option|choice|alternative|answer|one)"
            + _V8_LATIN_END,
            r"avant-derni[eè]re?[ \t]+(?:option|proposition|réponse|choix)" + _V8_LATIN_END,
            r"pen[uú]ltim[ao][ \t]+(?:opción|opcion|opção|opzione|alternativa|respuesta|resposta"
            r"|risposta)" + _V8_LATIN_END,
            r"倒数第二(?:个|個|项|項)?(?:选项|選項|答案)?",
            *(
                rf"{w}(?:e|en|er|es)[ \t]+[a-zäöüß]*(?:antwort|möglichkeit|option|alternative|auswahl)"
                r"[a-zäöüß]*"
                for w in ("erst", "zweit", "dritt", "viert", "fünft", "letzt", "vorletzt")
            ),
        )
    )
    + ")"
)
# A parenthetical aside before the choice, but not one that holds a label alone
_V11_GAP_ASIDES = (
    (r"\([^()\n]{0,24}\)", r"\((?![ \t]*[{A}][ \t]*\))[^()\n]{0,24}\)"),
    (r"（[^（）\n]{0,24}）", r"（(?![ \t]*[{A}][ \t]*）)[^（）\n]{0,24}）"),
)
_V11_LEAN = _nfkc(
    _phrases(
        ("i ", "i'd ", "i’d ", "i'm ", "i’m ", "i am ", "we ", "we're ", "we’re "),
        ("lean towards", "lean toward", "leaning towards", "leaning toward"),
    )
)


def _v11_statement(pattern: str) -> str:
    """A v10 statement pattern with choice/v11's positions and asides."""
    pattern = pattern.replace(_V8_POSITION_WORDS, _V11_POSITION_WORDS)
    for old, new in _V11_GAP_ASIDES:
        pattern = pattern.replace(old, new)
    return pattern


# Every user-side special token or role tag (`<|USER_TOKEN|>`, `<|END_OF_TURN_TOKEN|>`,
# `<用户>`), and an exam's end-of-answer marker: after the output's start, the answer ends there
_V11_REPLIES = (
    *_V5_REPLIES,
    r"<\|[a-z_]{0,30}(?:user|human|end_of_turn|eot|im_end|im_start|start_of_turn|prompter)"
    r"[a-z_]{0,30}\|>",
    r"</?(?:用户|用戶|user|human|人类|问|問)>|<eoa>",
)
# HTML elements (a known tag, quoted attributes only): markup, not text (sub/sup hold text)
_V11_HTML = (
    r"</?(?:p|b|i|u|em|strong|span|div|br|hr|li|ul|ol|code|pre|table|thead|tbody|tr|td|th"
    r"|h[1-6]|a|font|mark|small|big|label|section|article|blockquote|center)"
    r"(?:[ \t]+[a-z_:][\w:.\-]*[ \t]*=[ \t]*(?:\"[^\"<>\n]*\"|'[^'<>\n]*'))*[ \t]*/?>"
)
# A line led by a check mark, then a label ("✅ A: the only balanced equation")
_V11_CHECKED = (
    r"(?:\A|\n)[ \t>*\-]*(?:✅|✔|☑|✓)\ufe0f?[ \t*_]*[(（\[]?"
    + _V9_TOK
    + r"[)）\]]?[*_]*(?=[ \t]*(?:[:.)\-—–]|\n|\Z))"
)
# plain-answer: someone else's pick ("My study partner chose A", "she picked C")
_V11_EXAMPLE_CUES = (
    *_V7_EXAMPLE_CUES,
    r"\b(?:my|his|her|their|your|our)[ \t]+(?:[a-z'’\-]+[ \t]+){0,2}?(?:chose|chooses|picked"
    r"|picks|selected|selects|went with|goes with|answered|guessed|marked|prefers|preferred)\b"
    r"|\b(?:he|she|they|someone|somebody|everyone|others)[ \t]+(?:chose|picked|selected"
    r"|went with|answered|guessed|marked|prefers|preferred)\b",
)
# plain-answer: a label in a formula (`a_1 = 1`, `x^b`) is a variable
_V11_TOK = (
    r"(?<![{W}\u00c0-\u024f\u1e00-\u1eff°℃%\d_^\\=<>≤≥+*/×])(?<![^\W\d_]['’])(?<!\d[.,])"
    r"(?<![=<>≤≥+\-*/×^][ \t])"
    r"([{K}јі]|\d)(?![{W}\u00c0-\u024f\u1e00-\u1eff\d°℃%_^]|['’][^\W\d_]|[.,][0-9]"
    r"|[ \t]*[=<>≤≥]|[ \t]*[+\-*/×^][ \t]*(?:\d|[^\W\d_](?![^\W\d_])))"
)
# plain-answer: a negation word of many languages, then at most two short words (a copula, an
# article: "ez da", "δεν είναι το", "is not"), right before a label: it is rejected
_V11_REJECT = (
    r"(?<![^\W\d_])(?:not|never|no|nor|neither|nicht|kein|keine|keinesfalls|pas|non|não|nao"
    r"|nunca|nie|nu|nem|ei|ez|nav|nėra|ne|nije|není|nuk|ikke|inte|ekki|niet|nee|bukan|tidak"
    r"|hindi|không|mhux|δεν|όχι|не|ні|нет|değil|[a-z]+n['’]t)(?![^\W\d_])"
    r"(?:[ \t]+[^\W\d_]{1,6}){0,2}[ \t]+[(（\[*_\"'“‘]*\Z"
    r"|(?:不是|并非|並非|而非|ليس|ليست|ไม่ใช่)[ \t]*[(（\[*_\"'“‘]*\Z"
    # someone else's pick right before the label ("My study partner chose A", "she picked C")
    r"|(?:\b(?:my|his|her|their|your|our)[ \t]+(?:[a-z'’\-]+[ \t]+){0,2}?|\b(?:he|she|they"
    r"|someone|somebody|everyone|others)[ \t]+)(?:chose|chooses|picked|picks|selected|selects"
    r"|went with|goes with|answered|guessed|marked|prefers|preferred)[ \t]+(?:option[ \t]+)?"
    r"[(（\[*_\"'“‘]*\Z"
)
# plain-answer: v9's cues before a label, with the one-letter conjunctions (o, e, y, i) read
# only right before it ("A e B"; "Përgjigja e saktë është C" is an answer)
_V11_NOT_BEFORE = (
    r"(?:\b(?:not|never|no|nor|neither|either|unlike|than|like|such as|e\.g\.|eg|if|whether"
    r"|between|except|or|and|vs\.?|versus|without|nicht|kein|pas|ni|ou|oder|und|et"
    r"|sans|sin|không|bukan|tidak|nie|check|consider|examine|evaluate|compare|about"
    r"|look at|try|test)(?![a-z])|n['’]t|ليس|ليست|لا|غير|أو|不是|非|或|和|与|还是|例如|比如"
    r"|如果|假如|ไม่ใช่|ไม่|หรือ|아닌|또는)(?:(?!(?:\bbut\b|\brather\b|\binstead\b|\bsondern\b"
    r"|\bsino\b|\bmais\b|بل|而是|아니라|ではなく))[^.;:!?。；：！？\n]){0,20}\Z"
    r"|(?<![^\W\d_])(?:o|e|y|i|u|и)[ \t]+[(（\[*_\"'“‘]*\Z"
    r"|(?<![^\W\d_])[^\W\d_][)）]?[ \t]*[,،、/&][ \t]*[(（]?\Z"
)
# (v10's three patterns, then the two v11 reads: `choice_plain.Cues`)
_V11_PLAIN = (
    _V11_TOK,
    "|".join(f"(?:{cue})" for cue in _V11_EXAMPLE_CUES),
    _V10_PLAIN[2],
    _V11_REJECT,
    _V11_NOT_BEFORE,
)
_V10_STATEMENTS = CHOICE_V10.steps[2]
assert _V10_STATEMENTS.negations[0] == _V8_SUBJECT[0]
CHOICE_V11 = replace(
    CHOICE_V10,
    name="choice/v11",
    steps=(
        CHOICE_V10.steps[0],
        ChoiceStep("correction", "correction", patterns=_V11_PLAIN),
        replace(
            _V10_STATEMENTS,
            patterns=tuple(map(_v11_statement, _V10_STATEMENTS.patterns)),
            line_final=tuple(map(_v11_statement, _V10_STATEMENTS.line_final)),
            triggers=_nfkc((*_V10_STATEMENTS.triggers, *_V11_LEAN)),
            negations=(
                *_V11_SUBJECT,
                *_V10_STATEMENTS.negations[1:],
                _V11_ALTERNATIVE,
                _V11_CONDITIONAL,
            ),
        ),
        CHOICE_V10.steps[3],
        ChoiceStep(
            "last-resort",
            "last-resort",
            patterns=(*_V10_LAST_RESORT[:-1], _V11_CHECKED, _V10_LAST_RESORT[-1]),
            negations=(_V11_REJECT,),
        ),
        ChoiceStep("plain-answer", "plain-answer", patterns=_V11_PLAIN),
    ),
    masks=(*CHOICE_V10.masks, _V11_HTML),
    replies=_V11_REPLIES,
)

# ---------------------------------------------------------------------------- choice/v12
# choice/v11 with the silent wrong answers a hostile review found in v10/v11 read as no answer
# (precision first: no answer beats a wrong one), each as a class:
# - `correction`, `last-resort` and `plain-answer` read the text with the letters that only look
#   like labels blanked (`choice_precision`): a unit after a number ("I = 3 A.", "Ток равен 3 А"),
#   a letter fused into a Chinese/Japanese word ("维生素C", "B超", "A型血", "ビタミンC"), the end
#   of a Latin name or a compound in a sentence with no answer cue ("Hepatitis B.", "Plan B",
#   "D-day"), and with digit options a count ("So we have 3 apples.");
# - `item-cut`: a question with its options restated in the reasoning is no invented next item
#   unless an answer statement stands before it ("Option A is wrong.\nWhich ...?\nA. 4 ...").
CHOICE_V12 = replace(
    CHOICE_V11,
    name="choice/v12",
    steps=tuple(
        replace(step, precise=True)
        if step.kind in ("correction", "last-resort", "plain-answer")
        else step
        for step in CHOICE_V11.steps
    ),
    item_after_answer=True,
)

# ------------------------------------------------- framework conventions, for comparison

# simple-evals style: a case-insensitive "Answer: X" tried first-match, then each prefix in turn.
CHOICE_ANSWER_COLON_FIRST = ChoicePreset(
    "choice/answer-colon-first",
    (
        ChoiceStep(
            "regex",
            "answer-colon",
            patterns=tuple(rf"{prefix}\s*:\s*([{{L}}])" for prefix in ANSWER_WORDS),
            pick="first",
        ),
    ),
)
# The first standalone letter anywhere, as a word-boundary regex finds it.
CHOICE_LETTER_BOUNDARY = ChoicePreset(
    "choice/letter-boundary",
    (ChoiceStep("regex", "letter-boundary", patterns=(r"\b([{L}])\b",), pick="first"),),
)
