"""pipeline: the stages of a build (synthesis, release), the build's configuration and store, the commands.

Layers, one way only:

- base layer: `pipeline.base.records` (the typed records at every stage boundary), `pipeline.base.errors` (errors
  that end a command with one line), `pipeline.base.analysis` (static facts about a class, read with `ast`,
  and its text and rewrites with libcst; one parse per source; never imports or runs it) and `pipeline.base.timing` (steps that time themselves for `build --profile`).
  These import nothing else of the project.
- `validation` (the sandbox and the gate) imports only the base layer.
- everything else in `pipeline` (stages, synthesis, release, commands such as `pipeline.validate`) may
  import the base layer and `validation`.

`tests/test_layers.py` checks this.
"""
