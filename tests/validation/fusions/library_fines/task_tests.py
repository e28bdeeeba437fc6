import pytest

from library_fines import LendingLibrary


@pytest.fixture
def library():
    library = LendingLibrary(loan_days=7, fine_per_day=25)
    library.add_book("Dune")
    library.add_book("Emma")
    return library


def test_a_late_return_is_fined_in_the_ledger(library):
    assert library.lend("Dune", "ann", 1) == 8
    assert library.on_shelf() == ["Emma"]
    assert library.give_back("Dune", 11) == 75
    assert library.owed("ann") == 75
    assert library.on_shelf() == ["Dune", "Emma"]


def test_payments_settle_fines(library):
    library.lend("Dune", "ann", 0)
    library.lend("Emma", "bo", 0)
    library.give_back("Dune", 9)
    library.give_back("Emma", 10)
    library.pay("ann", 30)
    assert library.owed("ann") == 20
    assert library.owed("bo") == 75
    with pytest.raises(ValueError):
        library.pay("ann", 21)
    library.pay("ann", 20)
    assert library.owed("ann") == 0


def test_an_on_time_return_costs_nothing(library):
    library.lend("Emma", "cy", 3)
    assert library.give_back("Emma", 10) == 0
    assert library.owed("cy") == 0
    with pytest.raises(ValueError):
        library.pay("cy", 1)


def test_refusals(library):
    with pytest.raises(ValueError):
        library.add_book("Dune")
    library.lend("Dune", "ann", 0)
    with pytest.raises(KeyError):
        library.lend("Dune", "bo", 1)
    with pytest.raises(KeyError):
        library.give_back("Ulysses", 1)
    with pytest.raises(ValueError):
        library.pay("ann", 0)
    assert library.on_shelf() == ["Emma"]
