"""Static analysis of a class module (base layer: imports nothing else of the project; never runs the code).

- `parsed`: one `ast` tree and one libcst module per source, shared by everything below in one process.
- `class_facts`: methods, what each reads, writes and calls, the interaction edges the gate measures, and
  ClassEval's per-method columns (`method_scan` reads the facts from `ast`, `class_text` the text as
  written from libcst).
- `class_model`: the synthesis transforms' view of a class (parameters, mutators, queries, the fields
  `__init__` sets), on the same `ast` tree.
- `skeleton`: signatures and docstrings without bodies (the task skeleton, the gate's vacuous-test module).
- `parse_lock`: one thread at a time in the Python parsers (an interpreter fault in CPython 3.11).
"""
