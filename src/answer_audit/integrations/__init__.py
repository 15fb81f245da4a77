"""Our presets inside other evaluation frameworks.

- `answer_audit.integrations.inspect`: `preset_scorer("choice/v3")`, an inspect_ai scorer
  (needs ``answer-audit[inspect]``).
- `answer_audit.integrations.lm_eval`: `PresetFilter`, an lm-evaluation-harness filter for a
  task YAML's ``filter_list`` (needs nothing beyond answer-audit; lm-eval calls it).

Each is imported on its own, so ``import answer_audit`` never needs a framework installed.
"""
