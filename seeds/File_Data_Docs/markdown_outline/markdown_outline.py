"""An outline of Markdown headings with section numbers, anchors and a table of contents."""

import re


class MarkdownOutline:
    """Headings (level 1 to 6) with body paragraphs, kept in document order.

    A heading may be at most one level deeper than the heading before it, so the
    outline is always a well-formed tree. Subsections of a heading are the
    following headings with a deeper level.

    >>> outline = MarkdownOutline()
    >>> outline.add_heading("Intro", 1)
    0
    >>> outline.add_heading("Scope", 2)
    1
    >>> outline.add_heading("Usage", 1)
    2
    >>> outline.numbering()
    ['1', '1.1', '2']
    >>> print(outline.toc())
    - [1 Intro](#intro)
      - [1.1 Scope](#scope)
    - [2 Usage](#usage)
    """

    _HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")

    def __init__(self) -> None:
        """Create an empty outline."""
        self.levels: list[int] = []
        self.titles: list[str] = []
        self.bodies: list[list[str]] = []

    def add_heading(self, title: str, level: int) -> int:
        """Append a heading.

        Args:
            title: heading text (stripped; must not be empty).
            level: 1 to 6; at most one deeper than the previous heading, and the
                first heading must be level 1.

        Returns:
            The index of the new heading.

        Raises:
            ValueError: if the title is empty or the level is out of range or skips a level.

        >>> MarkdownOutline().add_heading("Deep", 2)
        Traceback (most recent call last):
        ...
        ValueError: heading level 2 skips a level after 0
        """
        title = title.strip()
        if not title:
            raise ValueError("empty heading title")
        previous = self.levels[-1] if self.levels else 0
        if not 1 <= level <= 6 or level > previous + 1:
            raise ValueError(f"heading level {level} skips a level after {previous}")
        self.levels.append(level)
        self.titles.append(title)
        self.bodies.append([])
        return len(self.levels) - 1

    def add_text(self, text: str, index: int = -1) -> None:
        """Add a paragraph under a heading (the last one by default).

        Args:
            text: paragraph text; surrounding blank space is stripped.
            index: heading index, negative values count from the end.

        Raises:
            IndexError: if there is no such heading.

        >>> outline = MarkdownOutline()
        >>> outline.add_heading("A", 1)
        0
        >>> outline.add_text("  Hello.  ")
        >>> outline.bodies
        [['Hello.']]
        """
        try:
            body = self.bodies[index]
        except IndexError:
            raise IndexError(f"no heading at index {index}") from None
        body.append(text.strip())

    def parse(self, text: str) -> int:
        """Append the headings and paragraphs found in Markdown ``text``.

        ATX headings (``#`` to ``######``, optional closing hashes) start sections;
        consecutive non-blank lines form one paragraph of the current section. Text
        before the first heading is ignored.

        Args:
            text: Markdown source.

        Returns:
            The number of headings added.

        Raises:
            ValueError: if a heading skips a level.

        >>> outline = MarkdownOutline()
        >>> outline.parse("# A #\\nline one\\nline two\\n\\n## B\\n")
        2
        >>> outline.bodies
        [['line one line two'], []]
        """
        added = 0
        paragraph: list[str] = []

        def flush() -> None:
            if paragraph and added:
                self.add_text(" ".join(paragraph))
            paragraph.clear()

        for line in text.splitlines():
            match = self._HEADING.match(line)
            if match:
                flush()
                self.add_heading(match.group(2), len(match.group(1)))
                added += 1
            elif line.strip():
                paragraph.append(line.strip())
            else:
                flush()
        flush()
        return added

    def _subtree_end(self, index: int) -> int:
        """Return the index just past the subsections of heading ``index``."""
        end = index + 1
        while end < len(self.levels) and self.levels[end] > self.levels[index]:
            end += 1
        return end

    def numbering(self) -> list[str]:
        """Return hierarchical section numbers such as ``'2.1.3'``, one per heading.

        Returns:
            The numbers in document order.

        >>> outline = MarkdownOutline()
        >>> outline.parse("# a\\n## b\\n## c\\n### d\\n# e\\n")
        5
        >>> outline.numbering()
        ['1', '1.1', '1.2', '1.2.1', '2']
        """
        counters = [0] * 7
        numbers = []
        for level in self.levels:
            counters[level] += 1
            for deeper in range(level + 1, 7):
                counters[deeper] = 0
            numbers.append(".".join(str(c) for c in counters[1:level + 1]))
        return numbers

    def anchors(self) -> list[str]:
        """Return a unique link anchor per heading, GitHub style.

        The title is lower-cased, characters other than letters, digits, spaces and
        hyphens are dropped and spaces become hyphens; repeats get ``-1``, ``-2``...

        Returns:
            The anchors in document order.

        >>> outline = MarkdownOutline()
        >>> outline.parse("# Hello, World!\\n# Hello World\\n")
        2
        >>> outline.anchors()
        ['hello-world', 'hello-world-1']
        """
        seen: dict[str, int] = {}
        result = []
        for title in self.titles:
            base = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
            count = seen.get(base, 0)
            seen[base] = count + 1
            result.append(base if count == 0 else f"{base}-{count}")
        return result

    def toc(self, max_level: int = 3) -> str:
        """Build a nested Markdown list linking to every heading up to ``max_level``.

        Args:
            max_level: deepest heading level to include.

        Returns:
            The table of contents, one line per heading, two spaces of indent per level.

        >>> outline = MarkdownOutline()
        >>> outline.parse("# A\\n## B\\n")
        2
        >>> outline.toc(max_level=1)
        '- [1 A](#a)'
        """
        lines = []
        for level, title, number, anchor in zip(self.levels, self.titles, self.numbering(), self.anchors()):
            if level <= max_level:
                lines.append(f"{'  ' * (level - 1)}- [{number} {title}](#{anchor})")
        return "\n".join(lines)

    def promote(self, index: int) -> int:
        """Move a heading and all its subsections one level up.

        Args:
            index: heading index.

        Returns:
            The number of headings whose level changed.

        Raises:
            IndexError: if there is no such heading.
            ValueError: if the heading is already at level 1.

        >>> outline = MarkdownOutline()
        >>> outline.parse("# a\\n## b\\n### c\\n")
        3
        >>> outline.promote(1)
        2
        >>> outline.levels
        [1, 1, 2]
        """
        if not 0 <= index < len(self.levels):
            raise IndexError(f"no heading at index {index}")
        if self.levels[index] == 1:
            raise ValueError("a level-1 heading cannot be promoted")
        end = self._subtree_end(index)
        for i in range(index, end):
            self.levels[i] -= 1
        return end - index

    def remove(self, index: int) -> int:
        """Delete a heading together with its body and subsections.

        The outline stays well formed: the heading after the removed block is never
        deeper than the heading it was under.

        Args:
            index: heading index.

        Returns:
            The number of headings removed.

        Raises:
            IndexError: if there is no such heading.

        >>> outline = MarkdownOutline()
        >>> outline.parse("# a\\n## b\\n### c\\n# d\\n")
        4
        >>> outline.remove(1)
        2
        >>> outline.titles
        ['a', 'd']
        """
        if not 0 <= index < len(self.levels):
            raise IndexError(f"no heading at index {index}")
        end = self._subtree_end(index)
        del self.levels[index:end]
        del self.titles[index:end]
        del self.bodies[index:end]
        return end - index

    def render(self) -> str:
        """Write the outline as Markdown: each heading, then its paragraphs, blank-line separated.

        Returns:
            The Markdown text ending in a newline, or an empty string for an empty outline.

        >>> outline = MarkdownOutline()
        >>> outline.add_heading("Notes", 1)
        0
        >>> outline.add_text("First.")
        >>> outline.render()
        '# Notes\\n\\nFirst.\\n'
        """
        blocks = []
        for level, title, body in zip(self.levels, self.titles, self.bodies):
            blocks.append("#" * level + " " + title)
            blocks.extend(body)
        return "\n\n".join(blocks) + "\n" if blocks else ""
