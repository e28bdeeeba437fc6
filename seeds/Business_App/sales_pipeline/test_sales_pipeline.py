import pytest

from sales_pipeline import SalesPipeline


@pytest.fixture
def pipe():
    p = SalesPipeline()
    p.add_deal("Acme", 1000, "rita")
    p.add_deal("Bolt", 400, "sam")
    return p


def test_add_deal_starts_as_lead():
    p = SalesPipeline()
    p.add_deal("Core", 200, "rita")
    assert p.stage_history("Core") == ["lead"]


def test_add_deal_duplicate_rejected(pipe):
    with pytest.raises(ValueError):
        pipe.add_deal("Acme", 10, "sam")


def test_add_deal_zero_value_rejected():
    with pytest.raises(ValueError):
        SalesPipeline().add_deal("Core", 0, "rita")


def test_advance_moves_one_stage(pipe):
    assert pipe.advance("Acme") == "qualified"


def test_advance_to_won(pipe):
    stages = [pipe.advance("Bolt") for _ in range(4)]
    assert stages == ["qualified", "proposal", "negotiation", "won"]


def test_advance_won_deal_rejected(pipe):
    for _ in range(4):
        pipe.advance("Bolt")
    with pytest.raises(ValueError):
        pipe.advance("Bolt")


def test_advance_unknown_deal(pipe):
    with pytest.raises(KeyError):
        pipe.advance("Nope")


def test_mark_lost_records_stage(pipe):
    pipe.advance("Acme")
    pipe.mark_lost("Acme", "went with competitor")
    assert pipe.stage_history("Acme") == ["lead", "qualified", "lost"]


def test_mark_lost_twice_rejected(pipe):
    pipe.mark_lost("Acme", "budget")
    with pytest.raises(ValueError):
        pipe.mark_lost("Acme", "budget")


def test_advance_lost_deal_rejected(pipe):
    pipe.mark_lost("Acme", "budget")
    with pytest.raises(ValueError):
        pipe.advance("Acme")


def test_mark_lost_unknown_deal(pipe):
    with pytest.raises(KeyError):
        pipe.mark_lost("Nope", "budget")


def test_revalue_returns_delta(pipe):
    assert pipe.revalue("Acme", 1500) == 500


def test_revalue_changes_forecast(pipe):
    pipe.revalue("Bolt", 600)
    assert pipe.weighted_forecast("sam") == 60.0


def test_revalue_non_positive_rejected(pipe):
    with pytest.raises(ValueError):
        pipe.revalue("Acme", -5)


def test_revalue_closed_deal_rejected(pipe):
    pipe.mark_lost("Acme", "budget")
    with pytest.raises(ValueError):
        pipe.revalue("Acme", 900)


def test_weighted_forecast_for_leads(pipe):
    assert pipe.weighted_forecast() == 140.0


def test_weighted_forecast_by_owner(pipe):
    pipe.advance("Acme")
    assert pipe.weighted_forecast("rita") == 250.0


def test_weighted_forecast_lost_counts_zero(pipe):
    pipe.mark_lost("Acme", "budget")
    assert pipe.weighted_forecast() == 40.0


def test_weighted_forecast_won_counts_fully(pipe):
    for _ in range(4):
        pipe.advance("Acme")
    assert pipe.weighted_forecast("rita") == 1000.0


def test_weighted_forecast_unknown_owner_is_zero(pipe):
    assert pipe.weighted_forecast("nobody") == 0.0


def test_stage_counts(pipe):
    pipe.advance("Acme")
    assert pipe.stage_counts() == {
        "lead": 1, "qualified": 1, "proposal": 0, "negotiation": 0, "won": 0, "lost": 0,
    }


def test_win_rate_without_closed_deals(pipe):
    assert pipe.win_rate() == 0.0


def test_win_rate_mixed(pipe):
    pipe.add_deal("Core", 50, "sam")
    for _ in range(4):
        pipe.advance("Acme")
    pipe.mark_lost("Bolt", "budget")
    pipe.mark_lost("Core", "timing")
    assert pipe.win_rate() == 0.3333


def test_loss_summary_counts_reasons_sorted(pipe):
    pipe.add_deal("Core", 50, "sam")
    pipe.mark_lost("Core", "timing")
    pipe.mark_lost("Bolt", "budget")
    pipe.mark_lost("Acme", "timing")
    assert list(pipe.loss_summary().items()) == [("budget", 1), ("timing", 2)]


def test_loss_summary_empty_when_nothing_lost(pipe):
    pipe.advance("Acme")
    assert pipe.loss_summary() == {}


def test_stage_history_is_a_copy(pipe):
    history = pipe.stage_history("Acme")
    history.append("won")
    assert pipe.stage_history("Acme") == ["lead"]


def test_stage_history_unknown_deal(pipe):
    with pytest.raises(KeyError):
        pipe.stage_history("Nope")


def test_top_open_deals_orders_by_weighted_value(pipe):
    pipe.advance("Bolt")
    pipe.advance("Bolt")
    assert pipe.top_open_deals(2) == ["Bolt", "Acme"]


def test_top_open_deals_ties_by_name():
    p = SalesPipeline()
    p.add_deal("Zed", 100, "sam")
    p.add_deal("Amy", 100, "sam")
    assert p.top_open_deals(5) == ["Amy", "Zed"]


def test_top_open_deals_excludes_closed(pipe):
    pipe.mark_lost("Acme", "budget")
    assert pipe.top_open_deals(5) == ["Bolt"]


def test_top_open_deals_negative_limit(pipe):
    with pytest.raises(ValueError):
        pipe.top_open_deals(-1)


def test_quarter_scenario():
    p = SalesPipeline()
    p.add_deal("Acme", 1000, "rita")
    p.add_deal("Bolt", 400, "sam")
    assert p.advance("Acme") == "qualified"
    assert p.revalue("Acme", 1200) == 200
    p.mark_lost("Bolt", "no budget")
    assert p.weighted_forecast() == 300.0
    p.add_deal("Core", 800, "sam")
    assert p.advance("Core") == "qualified"
    assert p.revalue("Core", 1000) == 200
    assert p.top_open_deals(2) == ["Acme", "Core"]
    for _ in range(3):
        p.advance("Acme")
    p.mark_lost("Core", "timing")
    assert p.stage_counts()["won"] == 1
    assert p.win_rate() == 0.3333
    assert p.weighted_forecast("rita") == 1200.0
    assert p.stage_history("Core") == ["lead", "qualified", "lost"]
    assert p.top_open_deals(3) == []
    assert p.loss_summary() == {"no budget": 1, "timing": 1}


def test_lost_then_new_deal_then_advance_scenario():
    p = SalesPipeline()
    p.add_deal("Dyn", 200, "rita")
    p.mark_lost("Dyn", "merger")
    p.add_deal("Eon", 300, "rita")
    p.revalue("Eon", 400)
    p.advance("Eon")
    assert p.stage_history("Eon") == ["lead", "qualified"]
    assert p.stage_counts()["lost"] == 1
    assert p.win_rate() == 0.0
    assert p.weighted_forecast("rita") == 100.0


def test_smallest_positive_values_accepted():
    p = SalesPipeline()
    p.add_deal("Tiny", 1, "sam")
    p.add_deal("Small", 5, "sam")
    assert p.revalue("Small", 1) == -4
    assert p.weighted_forecast() == 0.2
