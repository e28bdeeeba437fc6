import hashlib

import pytest

from folder_index import FolderIndex


def write(root, files):
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "data"
    write(root, {
        "readme.txt": "hello",
        "docs/intro.md": "# Intro\n",
        "docs/usage.md": "# Usage\n",
        "docs/copy/readme.txt": "hello",
        "build/out.log": "compiling\n",
    })
    return root


def sha(text):
    return hashlib.sha256(text.encode()).hexdigest()


def test_scan_counts_files(tree):
    index = FolderIndex(str(tree))
    assert index.scan() == 5


def test_scan_records_size_and_digest(tree):
    index = FolderIndex(str(tree))
    index.scan()
    assert index.find("readme.txt") == ["readme.txt"]
    assert index.entries["readme.txt"] == (5, sha("hello"))


def test_scan_missing_root_raises(tmp_path):
    with pytest.raises(FileNotFoundError):
        FolderIndex(str(tmp_path / "absent")).scan()


def test_scan_empty_folder(tmp_path):
    index = FolderIndex(str(tmp_path))
    assert index.scan() == 0
    assert index.find("*") == []


def test_add_ignore_reports_new_patterns(tree):
    index = FolderIndex(str(tree))
    assert index.add_ignore("*.log") is True
    assert index.add_ignore("*.log") is False


def test_add_ignore_empty_pattern_raises(tree):
    with pytest.raises(ValueError):
        FolderIndex(str(tree)).add_ignore("")


def test_add_ignore_excludes_files_from_scan(tree):
    index = FolderIndex(str(tree))
    index.add_ignore("build/*")
    index.add_ignore("docs/copy/*")
    assert index.scan() == 3
    assert index.find("*") == ["docs/intro.md", "docs/usage.md", "readme.txt"]


def test_changes_after_first_scan_lists_everything_added(tree):
    index = FolderIndex(str(tree))
    index.scan()
    assert index.changes() == {
        "added": ["build/out.log", "docs/copy/readme.txt", "docs/intro.md", "docs/usage.md", "readme.txt"],
        "removed": [],
        "modified": [],
    }


def test_changes_between_two_scans(tree):
    index = FolderIndex(str(tree))
    index.scan()
    (tree / "build" / "out.log").unlink()
    write(tree, {"docs/intro.md": "# Introduction\n", "docs/faq.md": "?"})
    index.scan()
    assert index.changes() == {"added": ["docs/faq.md"], "removed": ["build/out.log"], "modified": ["docs/intro.md"]}


def test_changes_ignores_touch_without_content_change(tree):
    index = FolderIndex(str(tree))
    index.scan()
    write(tree, {"readme.txt": "hello"})
    index.scan()
    assert index.changes() == {"added": [], "removed": [], "modified": []}


def test_changes_before_any_scan_is_empty(tree):
    assert FolderIndex(str(tree)).changes() == {"added": [], "removed": [], "modified": []}


def test_duplicates_groups_identical_content(tree):
    index = FolderIndex(str(tree))
    write(tree, {"b.md": "# Usage\n"})
    index.scan()
    assert index.duplicates() == [["b.md", "docs/usage.md"], ["docs/copy/readme.txt", "readme.txt"]]


def test_duplicates_none_when_all_unique(tmp_path):
    write(tmp_path, {"a": "1", "b": "2"})
    index = FolderIndex(str(tmp_path))
    index.scan()
    assert index.duplicates() == []


def test_find_star_crosses_folders(tree):
    index = FolderIndex(str(tree))
    index.scan()
    assert index.find("*readme.txt") == ["docs/copy/readme.txt", "readme.txt"]


def test_find_is_case_sensitive(tree):
    index = FolderIndex(str(tree))
    index.scan()
    assert index.find("*.MD") == []


def test_total_size_of_all_files(tree):
    index = FolderIndex(str(tree))
    index.scan()
    assert index.total_size() == 5 + 8 + 8 + 5 + 10


def test_total_size_with_pattern(tree):
    index = FolderIndex(str(tree))
    index.scan()
    assert index.total_size("docs/*.md") == 16


def test_save_manifest_writes_sorted_json(tmp_path):
    root = tmp_path / "src"
    write(root, {"z.txt": "zz", "a.txt": "a"})
    index = FolderIndex(str(root))
    index.scan()
    manifest = tmp_path / "manifest.json"
    assert index.save_manifest(str(manifest)) == 2
    assert manifest.read_text() == (
        '{\n "a.txt": [\n  1,\n  "' + sha("a") + '"\n ],\n "z.txt": [\n  2,\n  "' + sha("zz") + '"\n ]\n}\n'
    )


def test_load_manifest_restores_entries(tree, tmp_path):
    first = FolderIndex(str(tree))
    first.scan()
    first.save_manifest(str(tmp_path / "m.json"))
    second = FolderIndex(str(tree))
    assert second.load_manifest(str(tmp_path / "m.json")) == 5
    assert second.total_size() == 36
    assert second.duplicates() == [["docs/copy/readme.txt", "readme.txt"]]


def test_load_manifest_missing_file_raises(tmp_path):
    with pytest.raises(FileNotFoundError):
        FolderIndex(str(tmp_path)).load_manifest(str(tmp_path / "nope.json"))


def test_load_manifest_invalid_json_raises_value_error(tmp_path):
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(ValueError):
        FolderIndex(str(tmp_path)).load_manifest(str(tmp_path / "bad.json"))


def test_load_manifest_wrong_shape_raises_value_error(tmp_path):
    (tmp_path / "bad.json").write_text('{"a.txt": 5}')
    with pytest.raises(ValueError):
        FolderIndex(str(tmp_path)).load_manifest(str(tmp_path / "bad.json"))


def test_scenario_incremental_backup_from_manifest(tree, tmp_path):
    index = FolderIndex(str(tree))
    index.add_ignore("*.log")
    assert index.scan() == 4
    assert index.save_manifest(str(tmp_path / "yesterday.json")) == 4
    write(tree, {"docs/usage.md": "# Usage v2\n", "notes.txt": "hello", "build/trace.log": "x"})
    (tree / "docs" / "copy" / "readme.txt").unlink()

    later = FolderIndex(str(tree))
    later.load_manifest(str(tmp_path / "yesterday.json"))
    later.add_ignore("*.log")
    assert later.scan() == 4
    assert later.changes() == {"added": ["notes.txt"], "removed": ["docs/copy/readme.txt"], "modified": ["docs/usage.md"]}
    assert later.duplicates() == [["notes.txt", "readme.txt"]]
    assert later.find("docs/*") == ["docs/intro.md", "docs/usage.md"]
    assert later.total_size("docs/*") == 8 + 11


def test_scenario_scan_then_load_older_manifest_shows_reverse_changes(tree, tmp_path):
    index = FolderIndex(str(tree))
    index.scan()
    index.save_manifest(str(tmp_path / "full.json"))
    index.add_ignore("docs/*")
    assert index.scan() == 2
    assert index.changes()["removed"] == ["docs/copy/readme.txt", "docs/intro.md", "docs/usage.md"]
    assert index.load_manifest(str(tmp_path / "full.json")) == 5
    assert index.changes() == {"added": ["docs/copy/readme.txt", "docs/intro.md", "docs/usage.md"], "removed": [], "modified": []}
    assert index.find("docs/*.md") == ["docs/intro.md", "docs/usage.md"]
    assert index.total_size() == 36
    assert index.scan() == 2
    assert index.duplicates() == []


def test_save_manifest_after_load_reproduces_file(tree, tmp_path):
    original = FolderIndex(str(tree))
    original.scan()
    original.save_manifest(str(tmp_path / "one.json"))
    copy = FolderIndex(str(tmp_path / "elsewhere"))
    copy.load_manifest(str(tmp_path / "one.json"))
    assert copy.save_manifest(str(tmp_path / "two.json")) == 5
    assert (tmp_path / "two.json").read_text() == (tmp_path / "one.json").read_text()
