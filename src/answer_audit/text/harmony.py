"""Where the final channel of a harmony-format output (gpt-oss) starts (number/v3).

A harmony output reasons in an ``analysis`` channel and answers in a ``final`` one::

    <|channel|>analysis<|message|>...<|end|><|start|>assistant<|channel|>final<|message|>...

With the special tokens stripped it reads ``analysis...assistantfinal...``. The analysis channel
is reasoning, like a ``<think>`` block: only the final channel answers, and an output that
never reaches it has no answer.
"""

from __future__ import annotations

import re

# the last final-channel header: `.*` runs to the end and backs off to it
_LAST_FINAL = re.compile(
    r"(?s).*<\|channel\|>\s*final\b[^<\n]{0,80}(?:<\|constrain\|>[^<\n]{0,80})?<\|message\|>"
)
_ANALYSIS = re.compile(r"<\|channel\|>\s*analysis\b")
_STRIPPED_ANALYSIS = re.compile(r"\s*analysis(?=[^\sa-z:])")
_STRIPPED_FINAL = "assistantfinal"


def final_channel_start(text: str) -> int | None:
    """Where the final channel's message starts: 0 when the text is not in the harmony
    format, None when it opens an analysis channel and never reaches the final one.

    >>> text = "<|channel|>analysis<|message|>so 30<|end|><|channel|>final<|message|>32"
    >>> text[final_channel_start(text):], final_channel_start("analysisSo 30.")
    ('32', None)
    """
    if "<|channel|>" in text:
        last = _LAST_FINAL.match(text)
        if last is not None:
            return last.end()
        return None if _ANALYSIS.search(text) else 0
    if _STRIPPED_ANALYSIS.match(text):
        found = text.rfind(_STRIPPED_FINAL)
        return None if found < 0 else found + len(_STRIPPED_FINAL)
    return 0
