import pytest

from semver_resolver import SemverResolver


@pytest.fixture
def index():
    resolver = SemverResolver()
    for version in ["0.9.0", "1.0.0", "1.2.0", "1.2.7", "1.10.1", "2.0.0", "2.1.3"]:
        resolver.publish("http-kit", version)
    for version in ["0.0.3", "0.0.4", "0.1.0", "0.1.9"]:
        resolver.publish("tiny", version)
    return resolver


def test_parse_valid():
    assert SemverResolver.parse("1.22.333") == (1, 22, 333)


@pytest.mark.parametrize("bad", ["1.2", "1.2.3.4", "1.a.3", "", "-1.0.0", "v1.0.0"])
def test_parse_invalid(bad):
    with pytest.raises(ValueError):
        SemverResolver.parse(bad)


def test_bounds_comparators():
    resolver = SemverResolver()
    assert resolver._bounds(">=1.0.0") == [(">=", (1, 0, 0))]
    assert resolver._bounds("<2.0.0") == [("<", (2, 0, 0))]
    assert resolver._bounds("=1.2.3") == [("=", (1, 2, 3))]
    assert resolver._bounds("1.2.3") == [("=", (1, 2, 3))]


def test_bounds_caret_variants():
    resolver = SemverResolver()
    assert resolver._bounds("^1.2.3") == [(">=", (1, 2, 3)), ("<", (2, 0, 0))]
    assert resolver._bounds("^0.2.3") == [(">=", (0, 2, 3)), ("<", (0, 3, 0))]
    assert resolver._bounds("^0.0.3") == [(">=", (0, 0, 3)), ("<", (0, 0, 4))]


def test_bounds_wildcards():
    resolver = SemverResolver()
    assert resolver._bounds("*") == []
    assert resolver._bounds("1.x") == [(">=", (1, 0, 0)), ("<", (2, 0, 0))]
    assert resolver._bounds("1.2") == [(">=", (1, 2, 0)), ("<", (1, 3, 0))]
    assert resolver._bounds("1.2.*") == [(">=", (1, 2, 0)), ("<", (1, 3, 0))]


@pytest.mark.parametrize("bad", ["1.x.3", "x.1", "1.2.3.4", "abc", "^1.2", ">=1", "~"])
def test_bounds_invalid_terms(bad):
    with pytest.raises(ValueError):
        SemverResolver()._bounds(bad)


@pytest.mark.parametrize("version,constraint,expected", [
    ("1.2.3", "1.2.3", True),
    ("1.2.4", "=1.2.3", False),
    ("1.9.9", "^1.2.3", True),
    ("2.0.0", "^1.2.3", False),
    ("0.2.9", "^0.2.3", True),
    ("0.3.0", "^0.2.3", False),
    ("1.2.9", "~1.2.3", True),
    ("1.3.0", "~1.2.3", False),
    ("5.0.0", "*", True),
    ("1.99.0", "1.x", True),
    ("2.0.0", "1", False),
    ("1.5.0", ">=1.0.0 <2.0.0", True),
    ("2.0.0", ">=1.0.0 <2.0.0", False),
    ("2.0.0", ">1.0.0 <=2.0.0", True),
    ("0.5.0", "<0.1.0 || >=0.5.0", True),
    ("0.3.0", "<0.1.0 || >=0.5.0", False),
])
def test_satisfies_table(version, constraint, expected):
    assert SemverResolver().satisfies(version, constraint) is expected


def test_satisfies_empty_alternative_raises():
    with pytest.raises(ValueError):
        SemverResolver().satisfies("1.0.0", "^1.0.0 ||")


def test_satisfies_invalid_version_raises():
    with pytest.raises(ValueError):
        SemverResolver().satisfies("1.0", "*")


def test_satisfies_validates_later_alternatives_even_after_match():
    with pytest.raises(ValueError):
        SemverResolver().satisfies("1.0.0", "1.x || bogus")


def test_publish_counts_releases():
    resolver = SemverResolver()
    assert resolver.publish("pkg", "1.0.0") == 1
    assert resolver.publish("pkg", "0.5.0") == 2
    assert resolver.publish("other", "0.5.0") == 1


def test_publish_duplicate_raises(index):
    with pytest.raises(ValueError):
        index.publish("http-kit", "1.2.0")


def test_publish_invalid_version_raises():
    with pytest.raises(ValueError):
        SemverResolver().publish("pkg", "1.0")


def test_versions_sorted_numerically(index):
    assert index.versions("http-kit") == ["0.9.0", "1.0.0", "1.2.0", "1.2.7", "1.10.1", "2.0.0", "2.1.3"]


def test_versions_unknown_package_raises(index):
    with pytest.raises(KeyError):
        index.versions("nope")


def test_yank_hides_from_versions(index):
    assert index.yank("tiny", "0.1.9") is True
    assert index.versions("tiny") == ["0.0.3", "0.0.4", "0.1.0"]
    assert index.versions("tiny", include_yanked=True) == ["0.0.3", "0.0.4", "0.1.0", "0.1.9"]


def test_yank_twice_returns_false(index):
    index.yank("tiny", "0.0.3")
    assert index.yank("tiny", "0.0.3") is False


def test_yank_unknown_release_raises(index):
    with pytest.raises(KeyError):
        index.yank("tiny", "9.9.9")
    with pytest.raises(KeyError):
        index.yank("nope", "1.0.0")


def test_best_match_caret(index):
    assert index.best_match("http-kit", "^1.0.0") == "1.10.1"


def test_best_match_tilde(index):
    assert index.best_match("http-kit", "~1.2.0") == "1.2.7"


def test_best_match_zero_major_caret(index):
    assert index.best_match("tiny", "^0.0.3") == "0.0.3"
    assert index.best_match("tiny", "^0.1.0") == "0.1.9"


def test_best_match_none_raises(index):
    with pytest.raises(ValueError):
        index.best_match("http-kit", ">=3.0.0")


def test_best_match_unknown_package_raises(index):
    with pytest.raises(KeyError):
        index.best_match("nope", "*")


def test_best_match_skips_yanked(index):
    index.yank("http-kit", "2.1.3")
    assert index.best_match("http-kit", "*") == "2.0.0"


def test_resolve_many(index):
    assert index.resolve({"tiny": "~0.1.0", "http-kit": "<2.0.0"}) == {"http-kit": "1.10.1", "tiny": "0.1.9"}


def test_resolve_empty(index):
    assert index.resolve({}) == {}


def test_resolve_failure_raises(index):
    with pytest.raises(ValueError):
        index.resolve({"http-kit": "^3.0.0", "tiny": "*"})


def test_scenario_publish_after_yank_changes_resolution(index):
    index.yank("http-kit", "1.10.1")
    assert index.resolve({"http-kit": "^1.0.0"}) == {"http-kit": "1.2.7"}
    assert index.publish("http-kit", "1.11.0") == 8
    assert index.best_match("http-kit", "^1.0.0") == "1.11.0"
    assert index.versions("http-kit")[-3:] == ["1.11.0", "2.0.0", "2.1.3"]
    with pytest.raises(ValueError):
        index.publish("http-kit", "1.10.1")


def test_scenario_yank_new_release_and_new_package():
    resolver = SemverResolver()
    resolver.publish("cli", "1.0.0")
    resolver.publish("cli", "1.1.0")
    assert resolver.yank("cli", "1.1.0") is True
    resolver.publish("log", "0.4.2")
    assert resolver.yank("log", "0.4.2") is True
    with pytest.raises(ValueError):
        resolver.best_match("log", "*")
    assert resolver.resolve({"cli": "^1.0.0"}) == {"cli": "1.0.0"}
    assert resolver.versions("log", include_yanked=True) == ["0.4.2"]
