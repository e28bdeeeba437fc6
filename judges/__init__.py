"""judges: the panel that reviews the validation gate's survivors before release.

- `judges.protocol`: the `Judge` protocol (`spec`, `review(candidate, report) -> Verdict`). The two layers a
  judge sits in (`Layer`: the deterministic checks, then the models) are read from its spec
  (`core.records.layer_of`).
- `judges.offline`: specification, consistency and adequacy judges (no model; the checks layer, always run),
  in a registry of factories (`judges.offline.REGISTRY`) the judge stage builds its checks panel from.
- `judges.model_judge`: `ModelJudge`, one model under `judges/prompts/judge_rubric.toml`, asked through the
  model client it is handed (`core.model_calls.ModelAsker`).
- `judges.answer`: the JSON answer contract; `judges.rules`: majority, unanimous, quorum:K.
- `judges.panel`: `Panel` (one layer), `LayeredPanel` (the checks, then the models on what they accepted)
  and the `PanelDecision` record; `judges.cache`: verdicts by content, judge spec and the checks shown.
- The agreement figures (Fleiss' and Cohen's kappa, rejected shares, failed criteria) are in
  `core.agreement`, beside the records: the release card, its manifest and the report read them too.
- `judges.decisions`: the decisions a run keeps, the funnel step of each layer, the agreement figures.
- The build's judge stage is `pipeline/stages/judge.py`; the `judge` command `commands/judge.py`.

Imports only `core`: what a judge needs of the sandbox (`core.suite_runs.SuiteRunner`) and of the model
client is handed to it by the judge stage.
"""
