"""A sales pipeline with stage probabilities and a weighted forecast."""


class SalesPipeline:
    """Track deals through the stages lead -> qualified -> proposal -> negotiation -> won.

    Each open stage carries a win probability used by the weighted forecast; a won
    deal counts in full, a lost deal not at all. Deal values are whole currency units.

    >>> p = SalesPipeline()
    >>> p.add_deal("Acme", 1000, "rita")
    >>> p.advance("Acme")
    'qualified'
    >>> p.weighted_forecast()
    250.0
    """

    STAGES = ("lead", "qualified", "proposal", "negotiation", "won")
    PROBABILITY = {"lead": 0.1, "qualified": 0.25, "proposal": 0.5, "negotiation": 0.75, "won": 1.0}

    def __init__(self) -> None:
        """Create an empty pipeline.

        >>> SalesPipeline().stage_counts()["won"]
        0
        """
        self.deals: dict[str, dict] = {}
        self.history: dict[str, list[str]] = {}
        self.loss_reasons: dict[str, str] = {}

    def add_deal(self, name: str, value: int, owner: str) -> None:
        """Add a new deal at the ``lead`` stage.

        :param name: unique deal name.
        :param value: expected contract value, greater than 0.
        :param owner: the salesperson responsible.
        :raises ValueError: if the name is taken or the value is not positive.

        >>> SalesPipeline().add_deal("Bolt", 500, "sam")
        """
        if name in self.deals:
            raise ValueError(f"deal {name!r} already exists")
        if value <= 0:
            raise ValueError("deal value must be positive")
        self.deals[name] = {"value": value, "owner": owner, "stage": "lead"}
        self.history[name] = ["lead"]

    def _open_deal(self, name: str) -> dict:
        """The record of an open (neither won nor lost) deal.

        :param name: an existing deal.
        :return: the deal's record (a dict, shared with the pipeline).
        :raises KeyError: if the deal does not exist.
        :raises ValueError: if the deal is won or lost.

        >>> p = SalesPipeline()
        >>> p.add_deal("Bolt", 500, "sam")
        >>> p._open_deal("Bolt")["stage"]
        'lead'
        """
        if name not in self.deals:
            raise KeyError(name)
        deal = self.deals[name]
        if deal["stage"] in ("won", "lost"):
            raise ValueError(f"deal {name!r} is closed ({deal['stage']})")
        return deal

    def advance(self, name: str) -> str:
        """Move an open deal to the next stage.

        :param name: an existing deal.
        :return: the new stage name.
        :raises KeyError: if the deal does not exist.
        :raises ValueError: if the deal is already won or lost.

        >>> p = SalesPipeline()
        >>> p.add_deal("Bolt", 500, "sam")
        >>> p.advance("Bolt"), p.advance("Bolt")
        ('qualified', 'proposal')
        """
        deal = self._open_deal(name)
        stage = self.STAGES[self.STAGES.index(deal["stage"]) + 1]
        deal["stage"] = stage
        self.history[name].append(stage)
        return stage

    def mark_lost(self, name: str, reason: str) -> None:
        """Close an open deal as lost.

        :param name: an existing deal.
        :param reason: why it was lost (kept for reporting).
        :raises KeyError: if the deal does not exist.
        :raises ValueError: if the deal is already closed.

        >>> p = SalesPipeline()
        >>> p.add_deal("Bolt", 500, "sam")
        >>> p.mark_lost("Bolt", "budget")
        >>> p.stage_counts()["lost"]
        1
        """
        deal = self._open_deal(name)
        deal["stage"] = "lost"
        self.history[name].append("lost")
        self.loss_reasons[name] = reason

    def revalue(self, name: str, value: int) -> int:
        """Change the expected value of an open deal.

        :param name: an existing deal.
        :param value: the new value, greater than 0.
        :return: the difference new value minus old value.
        :raises KeyError: if the deal does not exist.
        :raises ValueError: if the deal is closed or the value is not positive.

        >>> p = SalesPipeline()
        >>> p.add_deal("Bolt", 500, "sam")
        >>> p.revalue("Bolt", 450)
        -50
        """
        if value <= 0:
            raise ValueError("deal value must be positive")
        deal = self._open_deal(name)
        delta = value - deal["value"]
        deal["value"] = value
        return delta

    def weighted_forecast(self, owner: str | None = None) -> float:
        """Sum of deal values weighted by their stage probability.

        :param owner: only count this salesperson's deals; all deals when None.
        :return: the forecast rounded to 2 decimals (lost deals count 0).

        >>> SalesPipeline().weighted_forecast()
        0.0
        """
        total = sum(
            deal["value"] * self.PROBABILITY.get(deal["stage"], 0.0)
            for deal in self.deals.values()
            if owner is None or deal["owner"] == owner
        )
        return round(float(total), 2)

    def stage_counts(self) -> dict[str, int]:
        """Number of deals currently in each stage, including ``lost``.

        :return: a dict with every stage name and ``lost`` as keys, in pipeline order.

        >>> SalesPipeline().stage_counts()["lead"]
        0
        """
        counts = {stage: 0 for stage in self.STAGES + ("lost",)}
        for deal in self.deals.values():
            counts[deal["stage"]] += 1
        return counts

    def win_rate(self) -> float:
        """Share of closed deals that were won.

        :return: won / (won + lost), rounded to 4 decimals; 0.0 if nothing is closed.

        >>> SalesPipeline().win_rate()
        0.0
        """
        counts = self.stage_counts()
        closed = counts["won"] + counts["lost"]
        return round(counts["won"] / closed, 4) if closed else 0.0

    def loss_summary(self) -> dict[str, int]:
        """How many lost deals gave each loss reason.

        :return: reason -> count, keys in alphabetical order; empty if nothing was lost.

        >>> p = SalesPipeline()
        >>> p.add_deal("A", 100, "sam")
        >>> p.mark_lost("A", "price")
        >>> p.loss_summary()
        {'price': 1}
        """
        summary: dict[str, int] = {}
        for reason in sorted(self.loss_reasons.values()):
            summary[reason] = summary.get(reason, 0) + 1
        return summary

    def stage_history(self, name: str) -> list[str]:
        """Stages a deal has been in, oldest first.

        :param name: an existing deal.
        :return: a copy of the stage list, starting with ``lead``.
        :raises KeyError: if the deal does not exist.

        >>> p = SalesPipeline()
        >>> p.add_deal("Bolt", 500, "sam")
        >>> p.stage_history("Bolt")
        ['lead']
        """
        return list(self.history[name])

    def top_open_deals(self, limit: int) -> list[str]:
        """Names of the open deals with the highest weighted value.

        :param limit: maximum number of names, at least 0.
        :return: names sorted by weighted value (descending), then name.
        :raises ValueError: if ``limit`` is negative.

        >>> p = SalesPipeline()
        >>> p.add_deal("A", 100, "sam")
        >>> p.add_deal("B", 300, "sam")
        >>> p.top_open_deals(1)
        ['B']
        """
        if limit < 0:
            raise ValueError("limit must not be negative")
        ranked = sorted(
            (-deal["value"] * self.PROBABILITY[deal["stage"]], name)
            for name, deal in self.deals.items()
            if deal["stage"] not in ("won", "lost")
        )
        return [name for _, name in ranked[:limit]]
