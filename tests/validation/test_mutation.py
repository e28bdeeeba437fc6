"""Mutant generation on a small inline class: every operator, only inside the class's methods."""

import pytest

from validation.mutation import OPERATORS, Splicer, collect_sites, generate_mutants, mutation_sites

SOURCE = '''"""Module doc with 1 + 2."""
LIMIT = 10


def helper(x):
    return x + 1


class Counter:
    """Counts things: 1 < 2."""

    STEP: int = 1

    def __init__(self, start: int = 0) -> None:
        """Start at `start`."""
        self.value = start
        self.seen = []

    def add(self, n: int) -> int:
        """Add n."""
        if n < 0 or not isinstance(n, int):
            raise ValueError(f"bad step {n}")
        self.value += n * 2
        self.seen.append("added")
        return self.value

    def flag(self) -> bool:
        return self.value == 3 and True
'''


def _by(mutants, operator):
    return [m for m in mutants if m.operator == operator]


def test_every_operator_fires_where_it_should() -> None:
    mutants = generate_mutants(SOURCE, "Counter")
    assert {m.operator for m in mutants} == set(OPERATORS)
    described = {(m.operator, m.line, m.description) for m in mutants}
    assert ("arithmetic", 23, "* -> /") in described
    assert ("arithmetic", 23, "+= -> -=") in described
    assert ("comparison", 21, "< -> <=") in described
    assert ("comparison", 28, "== -> !=") in described
    assert ("boolean", 21, "or -> and") in described
    assert ("boolean", 28, "and -> or") in described
    assert ("constant", 23, "2 -> 3") in described
    assert ("constant", 24, '"added" -> ""') in described
    assert ("constant", 28, "True -> False") in described
    assert ("return_value", 25, "return self.value -> return None") in described
    assert ("remove_self_write", 16, "self.value = start -> pass") in described
    assert ("remove_statement", 24, 'self.seen.append("added") -> pass') in described
    assert ("remove_statement", 22, 'raise ValueError(f"bad step {n}") -> pass') in described
    assert ("remove_self_write", 23, "self.value += n * 2 -> pass") in described
    assert ("constant", 14, "0 -> 1") in described  # a default value is behaviour, not annotation
    not_mutant = next(m for m in _by(mutants, "boolean") if m.description.startswith("not "))
    assert "if n < 0 or isinstance(n, int):" in not_mutant.source


def test_docstrings_annotations_other_code_and_raise_messages_are_untouched() -> None:
    mutants = generate_mutants(SOURCE, "Counter")
    lines = {m.line for m in mutants}
    # module doc, LIMIT, helper, class docstring and STEP are lines 1-12; method docstrings 15 and 20
    assert min(lines) == 14 and 15 not in lines and 20 not in lines
    assert all(m.method in {"__init__", "add", "flag"} for m in mutants)
    assert not any(m.line == 22 and m.operator == "constant" for m in mutants)  # the f-string message
    assert not any("int = 1" in m.description or "-> int" in m.description for m in mutants)
    for mutant in mutants:
        compile(mutant.source, mutant.id, "exec")
        assert mutant.source != SOURCE
        changed = [i for i, (a, b) in enumerate(zip(SOURCE.splitlines(), mutant.source.splitlines())) if a != b]
        assert changed and changed[0] + 1 == mutant.line, mutant


def test_order_ids_and_sampling_are_reproducible() -> None:
    everything = generate_mutants(SOURCE, "Counter")
    again = generate_mutants(SOURCE, "Counter")
    assert [m.id for m in everything] == [m.id for m in again]
    assert len({m.id for m in everything}) == len(everything) == len({m.source for m in everything})
    assert all(a.line <= b.line for a, b in zip(everything, everything[1:]))
    subset = generate_mutants(SOURCE, "Counter", max_mutants=5, seed=7)
    assert len(subset) == 5
    assert [m.id for m in subset] == [m.id for m in generate_mutants(SOURCE, "Counter", max_mutants=5, seed=7)]
    assert {m.id for m in subset} <= {m.id for m in everything}
    assert [m.line for m in subset] == sorted(m.line for m in subset)
    assert generate_mutants(SOURCE, "Counter", max_mutants=0) == []
    assert len(generate_mutants(SOURCE, "Counter", max_mutants=10_000)) == len(everything)
    assert mutation_sites(SOURCE, "Counter") >= len(everything)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="no top-level class"):
        generate_mutants(SOURCE, "Missing")
    with pytest.raises(ValueError, match="max_mutants"):
        generate_mutants(SOURCE, "Counter", max_mutants=-1)


TRICKY = '''class Tricky:
    def __init__(self, items=(1, 2)):
        self.items = list(items); self.n = 0

    def last(self):
        if self.items: return self.items[-1]
        return None

    def spread(self, x):
        total = (x +
                 1)
        return f"{total * 2}" "!"
'''


@pytest.mark.parametrize("source,class_name", [(SOURCE, "Counter"), (TRICKY, "Tricky")])
def test_spliced_mutants_are_the_tree_rebuilt_ones(source, class_name) -> None:
    """Mutants are made by rendering the replacement alone and splicing it in; that must give exactly the
    text libcst produces by rebuilding the whole tree (the slow way, the reference): semicolons, one-line
    suites, continuation lines, the last line of the file, implicitly concatenated strings."""
    module, sites = collect_sites(source, class_name)
    splicer = Splicer(module, [s.node for s in sites])
    assert len(sites) > 10
    for site in sites:
        assert splicer.render(site) == module.deep_replace(site.node, site.replacement).code, site.description
