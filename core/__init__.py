"""core: what every other layer builds on; imports nothing of the project outside this folder.

- `records`: the typed records at every stage boundary; `errors`: errors that end a command with one line.
- `store`: the artifact tree, each record written once, atomically; `layout`: the names of its folders.
- `settings`: paths, tokens and keys, resolved from the environment once; `domains`: the domain registry.
- `funnel`: what each stage received, accepted and rejected; `stopping`: stop requests.
- `analysis`: static facts about a class (read with `ast`, rewritten with libcst; never imported or run),
  and what its skeleton declares (`analysis.interface`).
- `scenarios`: what a generated test does, as data the sandbox's driver runs.
- `timing`: steps that time themselves; `progress`: how stages report progress.
- `tomlfile`: TOML files read into typed models; `agreement`: how far the judges agree.
- `module_names`: the module a task's class lives in, never one the sandbox already answers to.
- What the judges are handed, as protocols: `suite_runs` (a test file run in the sandbox), `model_calls`
  (a question to a model: the request, the role, the error, the client); `prompt_templates`: versioned
  prompt files.

`tests/test_layers.py` checks that nothing here imports another layer.
"""
