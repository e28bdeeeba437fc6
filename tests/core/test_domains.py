from __future__ import annotations

from pathlib import Path

import pytest

from core.domains import load_domains
from core.errors import InputError
from tests.pipeline.corpus_fixture import BUNDLED_REGISTRY

PAPER_DOMAINS = [
    "Algo_DataStruct", "Math_Stats", "Text_NLP", "File_Data_Docs", "Network_Web", "DB_SQL",
    "Business_App", "Finance_Ecommerce", "Game_Sim", "Security_Crypto", "Utils_Tools",
]


def test_bundled_registry_holds_the_papers_eleven_domains():
    registry = load_domains(BUNDLED_REGISTRY)
    assert list(registry.names) == PAPER_DOMAINS
    assert all(d.description and d.keywords for d in registry.domain)


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ('[[domain]]\nname = "A"\ndescription = "x"\nkeywords = ["k"]\n' * 2, "listed twice"),
        ('[[domain]]\nname = "A"\ndescription = "x"\nkeywords = ["k"]\ncolour = "red"\n', "colour"),
        ('[[domain]]\nname = "has space"\ndescription = "x"\nkeywords = ["k"]\n', "letters, digits"),
        ('[[domain]]\nname = "A"\ndescription = "x"\nkeywords = ["k"]\ncomposable_with = ["B"]\n', "unknown domains"),
        ('[[domain]\nname = "A"', "not valid TOML"),
    ],
)
def test_a_broken_registry_is_one_error_naming_the_file(tmp_path: Path, toml: str, message: str):
    path = tmp_path / "domains.toml"
    path.write_text(toml)
    with pytest.raises(InputError) as info:
        load_domains(path)
    assert str(path) in str(info.value) and message in str(info.value)
