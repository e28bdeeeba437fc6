"""A mined class's domain from the registry's keywords: names are split into words however they are
written (CamelCase, snake_case, kebab-case), so a repository named `python-algorithms` or a folder
`linked-list/` speaks for its classes."""

from __future__ import annotations

from core import settings
from core.domains import load_domains
from pipeline.mining.domain import match_domain, words


def test_words_split_every_way_names_are_written():
    assert words("nazjaz/python-algorithms") == " nazjaz python algorithms "
    assert words("LinkedList linked_list n-gram") == " linked list linked list n gram "


def test_kebab_case_folders_and_repositories_give_the_domain():
    registry = load_domains(settings.domain_registry_path())
    assert match_domain(registry, class_names=["LinkedList", "linked-list/src/main.py"], context=[])[0] == "Algo_DataStruct"
    assert match_domain(registry, class_names=["Solver", "src/main.py"], context=["someone/python-algorithms"])[0] == "Algo_DataStruct"
    assert match_domain(registry, class_names=["BigramCounter", "n-gram/counter.py"], context=[])[0] == "Text_NLP"
    assert match_domain(registry, class_names=["Widget", "src/main.py"], context=["someone/misc"])[0] is None
