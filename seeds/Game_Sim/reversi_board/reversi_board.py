"""A Reversi (Othello) board with move validation, passes and undo."""


class ReversiBoard:
    """A square Reversi board; ``"B"`` (black) moves first, then ``"W"``.

    A move places a disc on an empty square so that, in at least one of the
    eight directions, a contiguous line of opponent discs ends in one of the
    mover's discs; all such lines flip. A player with no legal move must pass.
    The game is over when neither player can move.

    >>> board = ReversiBoard(8)
    >>> board.valid_moves()
    [(2, 3), (3, 2), (4, 5), (5, 4)]
    >>> board.play(2, 3)
    1
    >>> board.score()
    {'B': 4, 'W': 1}
    """

    DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))

    def __init__(self, size: int = 8) -> None:
        """Set up the four starting discs in the centre; black to move.

        :param size: board side, even and at least 4.
        :raises ValueError: if the size is odd or below 4.

        >>> ReversiBoard(6).score()
        {'B': 2, 'W': 2}
        """
        if size < 4 or size % 2:
            raise ValueError("board size must be even and at least 4")
        self.size = size
        self.grid = [["." for _ in range(size)] for _ in range(size)]
        mid = size // 2
        self.grid[mid - 1][mid - 1] = self.grid[mid][mid] = "W"
        self.grid[mid - 1][mid] = self.grid[mid][mid - 1] = "B"
        self.turn = "B"
        self.history: list[tuple[list[list[str]], str]] = []

    def _flips(self, row: int, col: int, player: str) -> list[tuple[int, int]]:
        """Squares that would flip if ``player`` played at ``(row, col)``.

        :param row: 0-based row on the board.
        :param col: 0-based column on the board.
        :param player: ``"B"`` or ``"W"``.
        :return: the captured squares; empty when the move is illegal.

        >>> ReversiBoard(4)._flips(0, 1, "B")
        [(1, 1)]
        """
        if self.grid[row][col] != ".":
            return []
        opponent = "W" if player == "B" else "B"
        flips: list[tuple[int, int]] = []
        for dr, dc in self.DIRECTIONS:
            line = []
            r, c = row + dr, col + dc
            while 0 <= r < self.size and 0 <= c < self.size and self.grid[r][c] == opponent:
                line.append((r, c))
                r, c = r + dr, c + dc
            if line and 0 <= r < self.size and 0 <= c < self.size and self.grid[r][c] == player:
                flips.extend(line)
        return flips

    def valid_moves(self, player: str = "") -> list[tuple[int, int]]:
        """Legal moves for ``player`` (default: the player to move), sorted by row then column.

        :param player: ``"B"``, ``"W"`` or empty for the player to move.
        :return: list of ``(row, col)`` squares.
        :raises ValueError: if ``player`` is not ``"B"``, ``"W"`` or empty.

        >>> ReversiBoard(4).valid_moves("W")
        [(0, 2), (1, 3), (2, 0), (3, 1)]
        """
        player = player or self.turn
        if player not in ("B", "W"):
            raise ValueError(f"unknown player {player!r}")
        return [
            (r, c) for r in range(self.size) for c in range(self.size)
            if self._flips(r, c, player)
        ]

    def play(self, row: int, col: int) -> int:
        """Place a disc for the player to move and flip the captured lines.

        :param row: 0-based row.
        :param col: 0-based column.
        :return: number of discs flipped.
        :raises IndexError: if the square is off the board.
        :raises ValueError: if the move is not legal.

        >>> ReversiBoard(4).play(0, 1)
        1
        """
        if not (0 <= row < self.size and 0 <= col < self.size):
            raise IndexError(f"({row}, {col}) is off the board")
        flips = self._flips(row, col, self.turn)
        if not flips:
            raise ValueError(f"({row}, {col}) is not a legal move for {self.turn}")
        self.history.append(([line[:] for line in self.grid], self.turn))
        for r, c in flips + [(row, col)]:
            self.grid[r][c] = self.turn
        self.turn = "W" if self.turn == "B" else "B"
        return len(flips)

    def pass_turn(self) -> None:
        """Pass because the player to move has no legal move.

        :raises ValueError: if the player to move has a legal move, or the game is over.

        >>> ReversiBoard(4).pass_turn()
        Traceback (most recent call last):
        ...
        ValueError: B has a legal move and cannot pass
        """
        if self.is_over():
            raise ValueError("the game is over")
        if self.valid_moves():
            raise ValueError(f"{self.turn} has a legal move and cannot pass")
        self.history.append(([line[:] for line in self.grid], self.turn))
        self.turn = "W" if self.turn == "B" else "B"

    def undo(self) -> str:
        """Take back the last move or pass.

        :return: the player whose turn it is again.
        :raises ValueError: if there is nothing to undo.

        >>> board = ReversiBoard(4)
        >>> _ = board.play(0, 1)
        >>> board.undo()
        'B'
        """
        if not self.history:
            raise ValueError("nothing to undo")
        self.grid, self.turn = self.history.pop()
        return self.turn

    def score(self) -> dict[str, int]:
        """Number of discs of each colour.

        :return: ``{"B": black discs, "W": white discs}``.

        >>> ReversiBoard(6).score()
        {'B': 2, 'W': 2}
        """
        flat = [cell for line in self.grid for cell in line]
        return {"B": flat.count("B"), "W": flat.count("W")}

    def is_over(self) -> bool:
        """Whether the game has ended.

        :return: True when neither player has a legal move.

        >>> ReversiBoard(4).is_over()
        False
        """
        return not self.valid_moves("B") and not self.valid_moves("W")

    def winner(self) -> str:
        """Result of a finished game.

        :return: ``"B"`` or ``"W"`` for the colour with more discs, or ``"draw"``.
        :raises ValueError: if the game is not over.

        >>> ReversiBoard(4).winner()
        Traceback (most recent call last):
        ...
        ValueError: the game is not over
        """
        if not self.is_over():
            raise ValueError("the game is not over")
        counts = self.score()
        if counts["B"] == counts["W"]:
            return "draw"
        return "B" if counts["B"] > counts["W"] else "W"

    def render(self) -> list[str]:
        """The board as text.

        :return: one string per row, ``B``/``W`` for discs and ``.`` for an empty square.

        >>> ReversiBoard(4).render()
        ['....', '.WB.', '.BW.', '....']
        """
        return ["".join(line) for line in self.grid]
