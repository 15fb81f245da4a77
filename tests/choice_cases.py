"""The seed's multiple-choice cases: every choice preset must read them as written."""

SEED_EXAMPLES = [
    ("問題文....\n\nAnswer: c", "c"),
    ("回答（1文字のみ）: ３", "c"),
    (
        "(1) 選択肢aは条文の要件を満たさない。\n(2) 選択肢bも不適切である。\n"
        "以上より、正解はcである。\n\nAnswer: c",
        "c",
    ),
    ("回答（1文字のみ）: a\n回答（1文字のみ）: b\n回答（1文字のみ）: c\n回答（1文字のみ）: c", "c"),
    ("選択肢dは不適切である。\nしたがって、正解は b である。", "b"),
    ("よく分かりません。", None),
]
