"""Hypothesis strategies shared by several test modules."""

from hypothesis import strategies as st

CUT_PIECES = st.sampled_from(
    ["USER", "User", "uSeR", "ASSISTANT", "Human", "SYSTEM", "AI", "ai", "Ai", "PERSON", "Agent",
     "SPEAKER", "Passage", "ARTICLE", "Context", "Movie title", "Movie Plot", "Question",
     "opening post", "Flashcard", "<|im_start|>", "<|user|>", "[INST]", "[/INST]", "<<SYS>>",
     "<start_of_turn>", "### Instruction", "Input", "Response", "İnput", "ınstruction", "uſer",
     "ſpeaker", "KELVIN", "A", "1", "B2", ":", "：", " ", "\t", "\n", ". ", "?", "*", "_", "#",
     ">", "x", "é"]
)  # fmt: skip

UNIT_PIECES = st.sampled_from(
    ["meter", "metre", "meters", "per", "second", "squared", "m/s", "m/s2", "m/s^2", "m s-2",
     "ms^-2", "m/s/s", "m/sec", "km", "kms", "kilometres", "kps", "sec", "s", "mile", "miles",
     "mi/s", "degree", "degrees", "celsius", "centigrade", "°", "c", "cent", "percent", " ",
     "  ", "\n", "/", "^", "-", "2", "x"]
)  # fmt: skip

# Pieces of multiple-choice outputs: answer statements, letters, wrappers, hedges.
CHOICE_OUTPUT_PIECES = st.sampled_from(
    ["Answer: ", "The answer is ", "(", ")", "B", "C", "a", " ", "\n", ".", "so ", "not ",
     "Option ", "is correct", "答案：", "**", "$", "\\boxed{", "}", "maybe ", "?", "e.g. "]
)  # fmt: skip
CHOICE_OUTPUTS = st.lists(CHOICE_OUTPUT_PIECES, max_size=14).map("".join)
