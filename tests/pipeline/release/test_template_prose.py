"""The template-prose figure: docstring sentences repeated verbatim across many tasks, names masked."""

from types import SimpleNamespace

from pipeline.release.template_prose import measure, task_sentences


def _skeleton(class_name: str, method: str, sentence: str) -> str:
    return f'''class {class_name}:
    """A {class_name.lower()} of things. {sentence}

    >>> {class_name}().{method}()
    Example output. That is not prose.
    """

    def {method}(self) -> int:
        """Return how many ``{method}`` calls the {class_name.lower()} saw. Calls of {class_name} count."""
        pass
'''


def test_sentences_leave_out_examples_and_mask_names_written_as_code_or_bare():
    sentences = task_sentences(_skeleton("TicketQueue", "open_count", "It serves tickets."))
    assert sentences == ["A ticketqueue of things.", "It serves tickets.",
                         "Return how many ``X`` calls the ticketqueue saw.", "Calls of X count."]


def test_a_bare_method_name_that_is_an_english_word_is_not_masked():
    assert "Return the total of the basket." in task_sentences(
        'class Basket:\n    def total(self) -> int:\n        """Return the total of the basket."""\n')


def test_the_share_counts_sentences_in_more_than_a_fifth_of_the_tasks():
    tasks = [SimpleNamespace(skeleton=_skeleton(name, method, "Shared words here."))
             for name, method in (("Alpha", "size"), ("Beta", "length"), ("Gamma", "count"), ("Delta", "total"),
                                  ("Omega", "level"))]
    figure = measure(tasks)
    # "Shared words here.", "Return how many ``X`` calls the ... saw." differ by the class's own word
    # except the first; "Calls of X count." is masked alike in all five.
    assert figure.tasks == 5 and figure.sentences == 20
    assert figure.repeated == 10 and figure.share == 0.5
    assert [s for s, _, _ in figure.top] == ["Calls of X count.", "Shared words here."]
    assert measure([]).share == 0.0
