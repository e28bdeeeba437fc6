"""The base layer: what every other layer builds on, importing nothing of the project above it.

- `records`: the typed records at every stage boundary; `errors`: errors that end a command with one line.
- `store`: the artifact tree, each record written once, atomically; `stopping`: stop requests.
- `analysis`: static facts about a class (read with `ast`, rewritten with libcst; never imported or run).
- `timing`: steps that time themselves; `progress`: how long stages report progress.
- `tomlfile`: TOML files read into typed models; `agreement`: how far the judges agree.
- `module_names`: the module a task's class lives in, never one the sandbox already answers to.
- What the judges are handed, as protocols: `suite_runs` (a test file run in the sandbox), `model_calls`
  (a question to a model: the request, the role, the error, the client); `prompt_templates`: versioned
  prompt files.

`validation`, `judges` and the stages import from here; `tests/test_layers.py` checks that nothing here
imports them back.
"""
