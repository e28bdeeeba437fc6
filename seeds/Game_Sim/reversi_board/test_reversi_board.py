import pytest

from reversi_board import ReversiBoard

DRAW_GAME = [(1, 0), (2, 0), (3, 0), (0, 2), (0, 3), (0, 0), (2, 3), (3, 3), (3, 2), (1, 3), (0, 1), (3, 1)]


def test_init_rejects_odd_size():
    with pytest.raises(ValueError):
        ReversiBoard(5)


def test_render_starting_position():
    assert ReversiBoard(4).render() == ["....", ".WB.", ".BW.", "...."]


def test_score_at_start():
    assert ReversiBoard(8).score() == {"B": 2, "W": 2}


def test_valid_moves_for_black_at_start():
    assert ReversiBoard(8).valid_moves() == [(2, 3), (3, 2), (4, 5), (5, 4)]


def test_valid_moves_for_named_player():
    assert ReversiBoard(8).valid_moves("W") == [(2, 4), (3, 5), (4, 2), (5, 3)]


def test_valid_moves_unknown_player():
    with pytest.raises(ValueError):
        ReversiBoard(8).valid_moves("R")


def test_play_flips_and_returns_count():
    board = ReversiBoard(8)
    assert board.play(2, 3) == 1
    assert board.score() == {"B": 4, "W": 1}


def test_play_switches_turn():
    board = ReversiBoard(8)
    board.play(2, 3)
    assert board.valid_moves() == [(2, 2), (2, 4), (4, 2)]


def test_play_flips_several_directions():
    board = ReversiBoard(4)
    for move in [(0, 1), (0, 0), (1, 0)]:
        board.play(*move)
    assert board.play(0, 2) == 2
    assert board.render() == ["WWW.", "BBW.", ".BW.", "...."]


def test_play_illegal_square_rejected():
    board = ReversiBoard(8)
    with pytest.raises(ValueError):
        board.play(0, 0)


def test_play_occupied_square_rejected():
    board = ReversiBoard(8)
    with pytest.raises(ValueError):
        board.play(3, 3)


def test_play_off_board_rejected():
    board = ReversiBoard(4)
    with pytest.raises(IndexError):
        board.play(4, 0)


def test_pass_with_legal_move_rejected():
    board = ReversiBoard(4)
    with pytest.raises(ValueError):
        board.pass_turn()


def test_pass_when_blocked_hands_turn_over():
    board = ReversiBoard(4)
    for move in [(0, 1), (0, 2), (0, 3), (0, 0), (2, 0)]:
        board.play(*move)
    assert board.valid_moves() == []
    board.pass_turn()
    assert board.valid_moves() == [(2, 3), (3, 2), (3, 3)]


def test_pass_after_game_over_rejected():
    board = ReversiBoard(4)
    for move in DRAW_GAME:
        board.play(*move)
    with pytest.raises(ValueError):
        board.pass_turn()


def test_undo_restores_board_and_turn():
    board = ReversiBoard(8)
    board.play(2, 3)
    assert board.undo() == "B"
    assert board.render()[2:6] == ["........", "...WB...", "...BW...", "........"]


def test_undo_twice():
    board = ReversiBoard(8)
    board.play(2, 3)
    board.play(2, 2)
    board.undo()
    assert board.undo() == "B"
    assert board.score() == {"B": 2, "W": 2}


def test_undo_of_pass():
    board = ReversiBoard(4)
    for move in [(0, 1), (0, 2), (0, 3), (0, 0), (2, 0)]:
        board.play(*move)
    board.pass_turn()
    assert board.undo() == "W"
    assert board.valid_moves() == []
    board.pass_turn()
    assert board.play(3, 2) == 1


def test_undo_with_empty_history_rejected():
    with pytest.raises(ValueError):
        ReversiBoard(4).undo()


def test_is_over_false_at_start():
    assert ReversiBoard(4).is_over() is False


def test_winner_before_end_rejected():
    board = ReversiBoard(4)
    board.play(0, 1)
    with pytest.raises(ValueError):
        board.winner()


def test_full_game_ending_in_draw():
    board = ReversiBoard(4)
    flipped = [board.play(*move) for move in DRAW_GAME]
    assert sum(flipped) == 16
    assert board.is_over() is True
    assert board.render() == ["WBBB", "BBWW", "BBWW", "BWWW"]
    assert board.winner() == "draw"


def test_game_with_pass_and_early_end():
    board = ReversiBoard(4)
    for move in [(0, 1), (0, 2), (0, 3), (0, 0)]:
        board.play(*move)
    assert board.play(2, 0) == 1
    assert board.is_over() is False
    board.pass_turn()
    assert board.play(3, 3) == 1
    assert board.is_over() is True
    assert board.score() == {"B": 9, "W": 1}
    assert board.winner() == "B"
    assert board.render() == ["WBBB", ".BB.", "BBB.", "...B"]


def test_undo_after_game_over_reopens_game():
    board = ReversiBoard(4)
    for move in DRAW_GAME:
        board.play(*move)
    assert board.undo() == "W"
    assert board.is_over() is False
    assert board.valid_moves() == [(3, 1)]
    assert board.play(3, 1) == 2
    assert board.winner() == "draw"


def test_white_win_by_first_move_strategy():
    board = ReversiBoard(4)
    while not board.is_over():
        board.play(*board.valid_moves()[0])
    assert board.score() == {"B": 6, "W": 10}
    assert board.winner() == "W"
