"""Schemes: how a row is labelled, from its raw output to ``correct``.

- `scheme`: `Scheme` (``NAME=PARSER[:NORMALIZER]``) and its parsing.
- `kinds`: one `Kind` object per kind of answer (freeform, choice, json, number) that owns
  value typing, matching, defaults and display; `KINDS` by name.
- `apply`: `apply_scheme` (extraction columns plus ``correct``) and the by-kind-name functions.
- `extract`, `correctness`, `columns`: the extraction columns, the ``correct`` column, error rows.
- `labels`: one labelling as per-row `Labels` (rescore and diff).
- `parallel`: row-wise rules in worker processes.
"""
