"""pipeline: the stages of a build (synthesis, release), the build's configuration and store, the commands.

Layers, one way only (docs/ARCHITECTURE.md draws them; `tests/test_layers.py` checks every import):

- `pipeline.base`: records, errors, the artifact store, static analysis, timing, progress, stop requests,
  the judges' agreement figures. Imports nothing else of the project.
- `validation` (the sandbox and the gate) and `pipeline.models` (the model client): only the base.
- `judges`: the base, `validation` and the model client.
- the stages (everything else in `pipeline`, the model stages and makers, `judges.stage`): any of the above.
- the commands (`flows`, `pipeline.cli` and every `cli` module) on top.
"""
