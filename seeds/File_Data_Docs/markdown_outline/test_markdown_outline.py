import pytest

from markdown_outline import MarkdownOutline


GUIDE = """Preamble that is ignored.

# Getting Started
Install the package
with pip.

## Requirements
Python 3.11.

## Install
### From source
# FAQ
"""


@pytest.fixture
def guide():
    outline = MarkdownOutline()
    outline.parse(GUIDE)
    return outline


def test_add_heading_returns_sequential_indexes():
    outline = MarkdownOutline()
    assert [outline.add_heading("A", 1), outline.add_heading("B", 2), outline.add_heading("C", 2)] == [0, 1, 2]
    assert outline.numbering() == ["1", "1.1", "1.2"]


def test_add_heading_strips_title():
    outline = MarkdownOutline()
    outline.add_heading("  Spaced  ", 1)
    assert outline.render() == "# Spaced\n"


def test_add_heading_first_must_be_level_one():
    with pytest.raises(ValueError):
        MarkdownOutline().add_heading("Deep", 2)


def test_add_heading_cannot_skip_level():
    outline = MarkdownOutline()
    outline.add_heading("A", 1)
    with pytest.raises(ValueError):
        outline.add_heading("B", 3)


def test_add_heading_level_above_six_raises():
    outline = MarkdownOutline()
    for level in range(1, 7):
        outline.add_heading(f"h{level}", level)
    with pytest.raises(ValueError):
        outline.add_heading("h7", 7)


def test_add_heading_empty_title_raises():
    with pytest.raises(ValueError):
        MarkdownOutline().add_heading("   ", 1)


def test_add_heading_may_jump_back_several_levels():
    outline = MarkdownOutline()
    outline.parse("# a\n## b\n### c\n")
    assert outline.add_heading("d", 1) == 3
    assert outline.numbering() == ["1", "1.1", "1.1.1", "2"]


def test_add_text_goes_to_last_heading_by_default():
    outline = MarkdownOutline()
    outline.add_heading("A", 1)
    outline.add_heading("B", 1)
    outline.add_text("about b")
    assert outline.render() == "# A\n\n# B\n\nabout b\n"


def test_add_text_to_specific_heading():
    outline = MarkdownOutline()
    outline.add_heading("A", 1)
    outline.add_heading("B", 1)
    outline.add_text(" about a ", 0)
    assert outline.render() == "# A\n\nabout a\n\n# B\n"


def test_add_text_without_headings_raises_index_error():
    with pytest.raises(IndexError):
        MarkdownOutline().add_text("orphan")


def test_add_text_index_too_large_raises_index_error():
    outline = MarkdownOutline()
    outline.add_heading("A", 1)
    with pytest.raises(IndexError):
        outline.add_text("x", 1)


def test_parse_counts_headings(guide):
    assert guide.titles == ["Getting Started", "Requirements", "Install", "From source", "FAQ"]
    assert guide.levels == [1, 2, 2, 3, 1]


def test_parse_returns_number_of_headings():
    assert MarkdownOutline().parse(GUIDE) == 5


def test_parse_joins_paragraph_lines_and_ignores_preamble(guide):
    assert guide.bodies == [["Install the package with pip."], ["Python 3.11."], [], [], []]


def test_parse_strips_closing_hashes():
    outline = MarkdownOutline()
    outline.parse("# Title ##\n")
    assert outline.titles == ["Title"]


def test_parse_line_with_hash_but_no_space_is_text():
    outline = MarkdownOutline()
    outline.parse("# A\n#hashtag\n")
    assert outline.bodies == [["#hashtag"]]


def test_parse_level_skip_raises():
    with pytest.raises(ValueError):
        MarkdownOutline().parse("# A\n### C\n")


def test_parse_appends_to_existing_outline():
    outline = MarkdownOutline()
    outline.add_heading("Existing", 1)
    assert outline.parse("## Child\ntext\n") == 1
    assert outline.numbering() == ["1", "1.1"]


def test_numbering_restarts_deeper_counters(guide):
    assert guide.numbering() == ["1", "1.1", "1.2", "1.2.1", "2"]


def test_numbering_of_empty_outline():
    assert MarkdownOutline().numbering() == []


def test_anchors_drop_punctuation_and_deduplicate():
    outline = MarkdownOutline()
    outline.parse("# What's New?\n# What's new\n# What's new\n")
    assert outline.anchors() == ["whats-new", "whats-new-1", "whats-new-2"]


def test_anchors_keep_hyphens_and_digits(guide):
    assert guide.anchors() == ["getting-started", "requirements", "install", "from-source", "faq"]


def test_toc_respects_max_level(guide):
    assert guide.toc(max_level=2) == (
        "- [1 Getting Started](#getting-started)\n"
        "  - [1.1 Requirements](#requirements)\n"
        "  - [1.2 Install](#install)\n"
        "- [2 FAQ](#faq)"
    )


def test_toc_default_includes_level_three(guide):
    assert "    - [1.2.1 From source](#from-source)" in guide.toc().splitlines()


def test_toc_of_empty_outline_is_empty():
    assert MarkdownOutline().toc() == ""


def test_promote_moves_subtree(guide):
    assert guide.promote(2) == 2
    assert guide.levels == [1, 2, 1, 2, 1]
    assert guide.numbering() == ["1", "1.1", "2", "2.1", "3"]


def test_promote_level_one_raises(guide):
    with pytest.raises(ValueError):
        guide.promote(0)


def test_promote_bad_index_raises(guide):
    with pytest.raises(IndexError):
        guide.promote(5)


def test_remove_deletes_subtree_and_bodies(guide):
    assert guide.remove(0) == 4
    assert guide.render() == "# FAQ\n"


def test_remove_leaf(guide):
    assert guide.remove(1) == 1
    assert guide.titles == ["Getting Started", "Install", "From source", "FAQ"]


def test_remove_keeps_following_sibling_numbering():
    outline = MarkdownOutline()
    outline.parse("# a\n## b\n### c\n## d\n### e\n")
    assert outline.remove(1) == 2
    assert outline.numbering() == ["1", "1.1", "1.1.1"]


def test_remove_bad_index_raises(guide):
    with pytest.raises(IndexError):
        guide.remove(-1)


def test_render_empty_outline():
    assert MarkdownOutline().render() == ""


def test_render_round_trips_through_parse(guide):
    copy = MarkdownOutline()
    copy.parse(guide.render())
    assert copy.render() == guide.render()
    assert guide.render() == (
        "# Getting Started\n\nInstall the package with pip.\n\n## Requirements\n\nPython 3.11.\n\n"
        "## Install\n\n### From source\n\n# FAQ\n"
    )


def test_scenario_restructure_document():
    outline = MarkdownOutline()
    outline.add_heading("Manual", 1)
    outline.add_heading("Setup", 2)
    outline.add_text("Run the installer.")
    outline.add_heading("Linux", 3)
    outline.add_heading("Windows", 3)
    outline.add_heading("Setup", 2)
    assert outline.anchors() == ["manual", "setup", "linux", "windows", "setup-1"]
    assert outline.promote(1) == 3
    assert outline.numbering() == ["1", "2", "2.1", "2.2", "2.3"]
    assert outline.remove(4) == 1
    outline.add_heading("Usage", 2)
    outline.add_text("Call it.")
    assert outline.toc(max_level=2) == "- [1 Manual](#manual)\n- [2 Setup](#setup)\n  - [2.1 Linux](#linux)\n  - [2.2 Windows](#windows)\n  - [2.3 Usage](#usage)"
    assert outline.render() == (
        "# Manual\n\n# Setup\n\nRun the installer.\n\n## Linux\n\n## Windows\n\n## Usage\n\nCall it.\n"
    )


def test_scenario_remove_then_promote_then_parse_more():
    outline = MarkdownOutline()
    outline.parse("# A\n## B\n### C\n## D\n")
    assert outline.remove(3) == 1
    assert outline.promote(2) == 1
    outline.parse("## E\n")
    assert outline.numbering() == ["1", "1.1", "1.2", "1.3"]
    assert outline.anchors() == ["a", "b", "c", "e"]
    outline.add_text("body of c", 2)
    assert outline.remove(1) == 1
    assert outline.promote(1) == 1
    outline.add_heading("F", 2)
    assert outline.render() == "# A\n\n# C\n\nbody of c\n\n## E\n\n## F\n"
    assert outline.toc() == "- [1 A](#a)\n- [2 C](#c)\n  - [2.1 E](#e)\n  - [2.2 F](#f)"
