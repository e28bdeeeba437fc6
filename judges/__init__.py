"""judges: the panel that reviews the validation gate's survivors before release.

- `judges.protocol`: the `Judge` protocol (`spec`, `review(candidate, report) -> Verdict`).
- `judges.offline`: specification, consistency and adequacy judges (no model; the embedded default).
- `judges.model_judge`: `ModelJudge`, one model through `pipeline.models` under `judges/prompts/judge_rubric.toml`.
- `judges.answer`: the JSON answer contract; `judges.rules`: majority, unanimous, quorum:K.
- `judges.panel`: `Panel` and its `PanelDecision` record; `judges.cache`: verdicts by content and judge spec.
- `judges.agreement`: Fleiss' and Cohen's kappa (statsmodels), rejected shares, failed criteria.
- `judges.stage`: the build's judge stage; `judges.cli`: `classeval-pro judge PATH`.
"""
