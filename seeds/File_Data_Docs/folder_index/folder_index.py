"""Index a directory tree by content digest and report what changed between scans."""

import fnmatch
import hashlib
import json
from pathlib import Path


class FolderIndex:
    """Maps each file below a root folder to its size and SHA-256 digest.

    Paths are stored relative to the root with ``/`` separators, so results do not
    depend on the operating system. Every ``scan`` (or ``load_manifest``) keeps the
    entries it replaces, and ``changes`` compares the two.

    Example (``root`` holds ``a.txt`` and ``docs/b.txt`` with equal content)::

        index = FolderIndex(str(root))
        index.scan()            # -> 2
        index.duplicates()      # -> [['a.txt', 'docs/b.txt']]
    """

    def __init__(self, root: str) -> None:
        """Create an empty index for the folder ``root`` (nothing is read yet).

        Args:
            root: path of the folder to index.
        """
        self.root = Path(root)
        self.ignore: list[str] = []
        self.entries: dict[str, tuple[int, str]] = {}
        self.previous: dict[str, tuple[int, str]] = {}

    def add_ignore(self, pattern: str) -> bool:
        """Exclude files whose relative path matches a glob pattern from future scans.

        Args:
            pattern: ``fnmatch`` pattern such as ``"*.tmp"`` or ``"build/*"``.

        Returns:
            False if the pattern was already present, True otherwise.

        Raises:
            ValueError: if the pattern is empty.

        Example::

            index.add_ignore("*.log")   # -> True
            index.add_ignore("*.log")   # -> False
        """
        if not pattern:
            raise ValueError("empty ignore pattern")
        if pattern in self.ignore:
            return False
        self.ignore.append(pattern)
        return True

    def _is_ignored(self, relative: str) -> bool:
        """Tell whether a relative path matches one of the ignore patterns."""
        return any(fnmatch.fnmatchcase(relative, pattern) for pattern in self.ignore)

    def scan(self) -> int:
        """Read every file under the root and replace the index with the result.

        The entries before the scan become the baseline for ``changes``.

        Returns:
            The number of files indexed.

        Raises:
            FileNotFoundError: if the root folder does not exist.

        Example::

            index.scan()   # -> number of files below root
        """
        if not self.root.is_dir():
            raise FileNotFoundError(str(self.root))
        fresh: dict[str, tuple[int, str]] = {}
        for path in sorted(self.root.rglob("*")):
            if not path.is_file():
                continue
            relative = path.relative_to(self.root).as_posix()
            if self._is_ignored(relative):
                continue
            data = path.read_bytes()
            fresh[relative] = (len(data), hashlib.sha256(data).hexdigest())
        self.previous = self.entries
        self.entries = fresh
        return len(fresh)

    def changes(self) -> dict[str, list[str]]:
        """Compare the current entries with the ones they replaced.

        Returns:
            ``{"added": [...], "removed": [...], "modified": [...]}``, each list sorted.
            A file counts as modified when its digest differs.

        Example::

            index.scan(); (root / "new.txt").write_text("x"); index.scan()
            index.changes()   # -> {'added': ['new.txt'], 'removed': [], 'modified': []}
        """
        added = sorted(set(self.entries) - set(self.previous))
        removed = sorted(set(self.previous) - set(self.entries))
        modified = sorted(
            path for path in set(self.entries) & set(self.previous)
            if self.entries[path][1] != self.previous[path][1]
        )
        return {"added": added, "removed": removed, "modified": modified}

    def duplicates(self) -> list[list[str]]:
        """Group files with identical content.

        Returns:
            Groups of two or more paths, each sorted, the groups sorted by first path.

        Example::

            index.duplicates()   # -> [['a.txt', 'copy/a.txt']]
        """
        by_digest: dict[str, list[str]] = {}
        for path, (_, digest) in self.entries.items():
            by_digest.setdefault(digest, []).append(path)
        groups = [sorted(paths) for paths in by_digest.values() if len(paths) > 1]
        return sorted(groups)

    def find(self, pattern: str) -> list[str]:
        """List indexed paths matching a glob pattern (``*`` also crosses ``/``).

        Args:
            pattern: ``fnmatch`` pattern applied to the relative path.

        Returns:
            The matching paths, sorted.

        Example::

            index.find("docs/*.md")   # -> ['docs/intro.md', 'docs/usage.md']
        """
        return sorted(path for path in self.entries if fnmatch.fnmatchcase(path, pattern))

    def total_size(self, pattern: str = "*") -> int:
        """Sum the sizes of the indexed files matching ``pattern``.

        Args:
            pattern: glob pattern as for ``find``; all files by default.

        Returns:
            Total size in bytes.

        Example::

            index.total_size("*.txt")   # -> 42
        """
        return sum(self.entries[path][0] for path in self.find(pattern))

    def save_manifest(self, path: str) -> int:
        """Write the current entries to a JSON manifest file.

        Args:
            path: file to write (normally outside the indexed folder, or ignored).

        Returns:
            The number of entries written.

        Example::

            index.save_manifest(str(tmp / "manifest.json"))   # -> 3
        """
        document = {name: [size, digest] for name, (size, digest) in sorted(self.entries.items())}
        Path(path).write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
        return len(document)

    def load_manifest(self, path: str) -> int:
        """Replace the entries with a saved manifest, keeping the old ones as baseline.

        Typical use: load yesterday's manifest, then ``scan`` and ask for ``changes``.

        Args:
            path: manifest written by ``save_manifest``.

        Returns:
            The number of entries loaded.

        Raises:
            FileNotFoundError: if the file does not exist.
            ValueError: if the file is not a valid manifest.

        Example::

            index.load_manifest(str(tmp / "manifest.json"))   # -> 3
        """
        try:
            document = json.loads(Path(path).read_text(encoding="utf-8"))
            loaded = {name: (int(size), str(digest)) for name, (size, digest) in document.items()}
        except (json.JSONDecodeError, AttributeError, TypeError, ValueError) as error:
            raise ValueError(f"not a manifest: {path}") from error
        self.previous = self.entries
        self.entries = loaded
        return len(loaded)
