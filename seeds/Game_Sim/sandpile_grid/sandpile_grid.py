"""The Abelian sandpile model on a bounded rectangular grid."""


class SandpileGrid:
    """A rectangle of cells holding grains of sand.

    A cell holding 4 or more grains is unstable: it topples, giving one grain to
    each of its four neighbours (up, down, left, right); grains pushed over the
    edge are lost. After every change the grid topples until it is stable. The
    final state does not depend on the order of topplings. Coordinates are
    ``(x, y)`` with ``x`` the column and ``y`` the row, both from 0.

    >>> pile = SandpileGrid(3, 3)
    >>> pile.drop(1, 1, 4)
    1
    >>> pile.render()
    ['010', '101', '010']
    """

    THRESHOLD = 4

    def __init__(self, width: int, height: int) -> None:
        """Create an empty grid.

        :param width: number of columns, >= 1.
        :param height: number of rows, >= 1.
        :raises ValueError: if a side is below 1.

        >>> SandpileGrid(4, 2).render()
        ['0000', '0000']
        """
        if width < 1 or height < 1:
            raise ValueError("the grid needs at least one cell")
        self.width = width
        self.height = height
        self.cells = [[0] * width for _ in range(height)]
        self.lost = 0
        self.avalanches: list[int] = []

    def _stabilise(self) -> int:
        """Topple until no cell is unstable and record the avalanche size.

        :return: the number of topplings.

        >>> pile = SandpileGrid(1, 1)
        >>> pile.cells[0][0] = 9
        >>> pile._stabilise(), pile.grains_lost()
        (2, 8)
        """
        topples = 0
        unstable = [(x, y) for y in range(self.height) for x in range(self.width)
                    if self.cells[y][x] >= self.THRESHOLD]
        while unstable:
            x, y = unstable.pop()
            self.cells[y][x] -= self.THRESHOLD
            topples += 1
            if self.cells[y][x] >= self.THRESHOLD:
                unstable.append((x, y))
            for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if 0 <= nx < self.width and 0 <= ny < self.height:
                    self.cells[ny][nx] += 1
                    if self.cells[ny][nx] == self.THRESHOLD:
                        unstable.append((nx, ny))
                else:
                    self.lost += 1
        self.avalanches.append(topples)
        return topples

    def _parse(self, rows: list[str]) -> list[list[int]]:
        """Turn rows of digits into grain counts.

        :param rows: one string of digits per grid row.
        :return: the counts as a list of rows.
        :raises ValueError: if the shape differs from the grid or a character is not a digit.

        >>> SandpileGrid(2, 1)._parse(["07"])
        [[0, 7]]
        """
        if len(rows) != self.height or any(len(row) != self.width or not row.isdigit() for row in rows):
            raise ValueError(f"expected {self.height} rows of {self.width} digits")
        return [[int(ch) for ch in row] for row in rows]

    def drop(self, x: int, y: int, grains: int = 1) -> int:
        """Drop ``grains`` grains on cell ``(x, y)`` and let the grid settle.

        :param x: column, 0..width-1.
        :param y: row, 0..height-1.
        :param grains: grains to drop, >= 1.
        :return: number of topplings the drop caused.
        :raises IndexError: if the cell is outside the grid.
        :raises ValueError: if ``grains`` is below 1.

        >>> SandpileGrid(2, 2).drop(0, 0)
        0
        """
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IndexError(f"({x}, {y}) is outside the grid")
        if grains < 1:
            raise ValueError("drop at least one grain")
        self.cells[y][x] += grains
        return self._stabilise()

    def load(self, rows: list[str]) -> int:
        """Replace the whole grid by rows of digits (grains per cell), then settle.

        Lost grains and avalanche history are kept.

        :param rows: one string of digits per grid row.
        :return: number of topplings needed to settle.
        :raises ValueError: if the rows do not match the grid size or contain non-digits.

        >>> pile = SandpileGrid(2, 1)
        >>> pile.load(["31"])
        0
        """
        self.cells = self._parse(rows)
        return self._stabilise()

    def add_pile(self, rows: list[str]) -> int:
        """Add another pile cell by cell (sandpile addition), then settle.

        :param rows: one string of digits per grid row.
        :return: number of topplings needed to settle.
        :raises ValueError: if the rows do not match the grid size or contain non-digits.

        >>> pile = SandpileGrid(1, 1)
        >>> pile.add_pile(["5"]), pile.render()
        (1, ['1'])
        """
        extra = self._parse(rows)
        for y in range(self.height):
            for x in range(self.width):
                self.cells[y][x] += extra[y][x]
        return self._stabilise()

    def height_at(self, x: int, y: int) -> int:
        """Grains on cell ``(x, y)``.

        :param x: column.
        :param y: row.
        :return: the number of grains.
        :raises IndexError: if the cell is outside the grid.

        >>> SandpileGrid(2, 2).height_at(1, 1)
        0
        """
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IndexError(f"({x}, {y}) is outside the grid")
        return self.cells[y][x]

    def total_grains(self) -> int:
        """Grains on the grid.

        :return: the sum over all cells (lost grains not included).

        >>> SandpileGrid(2, 2).total_grains()
        0
        """
        return sum(sum(row) for row in self.cells)

    def grains_lost(self) -> int:
        """Grains that have fallen off the edge so far.

        :return: the running total of lost grains.

        >>> SandpileGrid(2, 2).grains_lost()
        0
        """
        return self.lost

    def critical_cells(self) -> list[tuple[int, int]]:
        """Cells one grain away from toppling.

        :return: their ``(x, y)`` coordinates, sorted by row then column.

        >>> pile = SandpileGrid(2, 1)
        >>> _ = pile.load(["30"])
        >>> pile.critical_cells()
        [(0, 0)]
        """
        return [(x, y) for y in range(self.height) for x in range(self.width)
                if self.cells[y][x] == self.THRESHOLD - 1]

    def largest_avalanche(self) -> int:
        """Size of the largest avalanche.

        :return: most topplings caused by a single drop, load or addition (0 before any).

        >>> SandpileGrid(2, 2).largest_avalanche()
        0
        """
        return max(self.avalanches, default=0)

    def render(self) -> list[str]:
        """The grid as text.

        :return: one string of digits per row, top row first.

        >>> SandpileGrid(3, 1).render()
        ['000']
        """
        return ["".join(str(n) for n in row) for row in self.cells]
