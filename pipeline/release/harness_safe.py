"""What the ClassEval export changes so that ClassEval's own harness runs every task as it is.

ClassEval's harness cuts the code out of a model's answer before it runs it, and two of its rules lose code
of ours that is correct Python:

- **Module-level names.** Given plain code, it keeps only the `import`/`from` lines above the first line
  starting with `class` (and drops every other line equal to one of the lines it dropped there): a constant
  such as `_WORD = re.compile(...)` or `DEFAULT_STOPWORDS = ...` above the class vanishes, and the class
  fails with `NameError`. The harness puts the task's `import_statement` lines in front of whatever it
  kept, so the export lists those statements there, after the imports (`carried_statements`): they arrive
  where the class expects them whatever the extraction dropped. Inside a fence nothing is dropped, and
  they run twice, to the same values.
- **Fences.** Given an answer in a Markdown fence, it takes the text up to the first three backticks after
  the opening one (a non-greedy match): a docstring or string holding three backticks ends the code
  there, and what is left does not parse. `fence_safe` writes such text so that no three backticks stand
  together in the source while every string keeps its value (`\\x60` is a backtick in a plain string;
  a raw string is split in two adjacent literals, which Python joins back), and comments lose the run.

Both are source rewrites with the standard library's `tokenize` and `ast`, because they must keep every
other character of the reference where it was (libcst would do too, but it has no notion of a token's raw
text being split inside a string literal, which is the one edit needed here).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize

FENCE = "```"
_RUN = re.compile(r"`{3,}")
_PREFIX = re.compile(r"^([A-Za-z]*)('''|\"\"\"|'|\")")


def carried_statements(solution: str) -> tuple[str, ...]:
    """The top-level statements above the first class of `solution` that a harness keeping only import
    lines there would lose: everything but imports and the module's docstring, each as its source text,
    in order. Empty when there is no class or the code does not parse (the export then carries nothing)."""
    try:
        tree = ast.parse(solution)
    except SyntaxError:
        return ()
    carried: list[str] = []
    for index, node in enumerate(tree.body):
        if isinstance(node, ast.ClassDef):
            return tuple(carried)
        docstring = index == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
            and isinstance(node.value.value, str)
        if isinstance(node, (ast.Import, ast.ImportFrom)) or docstring:
            continue
        carried.append(ast.get_source_segment(solution, node, padded=False) or "")
    return ()


def decorated_first_class(solution: str) -> bool:
    """Whether the first class carries decorators: the harness drops their lines (they stand above the
    `class` line and are not imports), so the class would run undecorated."""
    try:
        tree = ast.parse(solution)
    except SyntaxError:
        return False
    first = next((n for n in tree.body if isinstance(n, ast.ClassDef)), None)
    return bool(first is not None and first.decorator_list)


def _escaped_runs(body: str) -> str:
    """`body` (the inside of a non-raw string literal) with every third backtick of a run written `\\x60`."""
    def escape(match: re.Match[str]) -> str:
        run = match.group(0)
        return "".join("\\x60" if i % 3 == 2 else ch for i, ch in enumerate(run))
    return _RUN.sub(escape, body)


def _safe_string(token: str) -> str:
    """A string literal token without three backticks in a row, of the same value."""
    match = _PREFIX.match(token)
    if match is None or FENCE not in token:
        return token
    prefix, quote = match.groups()
    body = token[len(prefix) + len(quote):len(token) - len(quote)]
    if "r" not in prefix.lower():
        return f"{prefix}{quote}{_escaped_runs(body)}{quote}"
    # A raw string has no escapes: end the literal after two backticks and open another of the same kind;
    # adjacent literals are one string (a docstring stays a docstring).
    join = quote + " " + prefix + quote
    split = _RUN.sub(lambda m: join.join(m.group(0)[i:i + 2] for i in range(0, len(m.group(0)), 2)), body)
    return prefix + quote + split + quote


def fence_safe(code: str) -> str:
    """`code` with no three backticks in a row, every string of the same value (see the module doc). Code
    that does not tokenize is returned as it is (the caller can still see the fence in it)."""
    if FENCE not in code:
        return code
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError):
        return code
    lines = io.StringIO(code).readlines()  # the rows tokenize counts (splitlines also splits at \f)
    # Edit from the end, so that earlier positions stay valid.
    for token in reversed(tokens):
        if FENCE not in token.string:
            continue
        if token.type == tokenize.STRING:
            new = _safe_string(token.string)
        elif token.type == tokenize.COMMENT:
            new = _RUN.sub(lambda m: " ".join(m.group(0)), token.string)
        else:  # an f-string's literal part (Python 3.12+ tokens): left as it is, the caller sees the fence
            continue
        (row, col), (end_row, end_col) = token.start, token.end
        head, tail = lines[row - 1][:col], lines[end_row - 1][end_col:]
        lines[row - 1:end_row] = [head + new + tail]
    return "".join(lines)

