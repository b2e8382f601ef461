from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="VerdictTally")


@_attrs_define
class VerdictTally:
    """Counts of verdicts seen and of verdicts checked against a stronger label, split by the
    verdict: the accumulator behind audits and appeals alike.

    For appeals the server calls [`observe`](Self::observe) for every binary verdict the
    verifier returns and [`record_check`](Self::record_check) as re-checks come back, possibly
    much later; tallies from several workers or time windows combine with
    [`merge`](Self::merge). For audits every gold-labelled row is both observed and checked
    ([`record_gold`](Self::record_gold)).

    Sampling negatives and positives for re-checking at different rates is fine: the appeal
    estimator uses only the rates within each verdict class and the observed positive rate.

        Attributes:
            checked_negative (int): Verdicts 0 that were checked.
            checked_positive (int): Verdicts 1 that were checked.
            observed_negative (int): Verdicts 0 seen.
            observed_positive (int): Verdicts 1 seen.
            overturned_negative (int): Checked verdicts 0 whose check said 1: false negatives found.
            overturned_positive (int): Checked verdicts 1 whose check said 0: false positives found.
    """

    checked_negative: int
    checked_positive: int
    observed_negative: int
    observed_positive: int
    overturned_negative: int
    overturned_positive: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        checked_negative = self.checked_negative

        checked_positive = self.checked_positive

        observed_negative = self.observed_negative

        observed_positive = self.observed_positive

        overturned_negative = self.overturned_negative

        overturned_positive = self.overturned_positive

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "checked_negative": checked_negative,
                "checked_positive": checked_positive,
                "observed_negative": observed_negative,
                "observed_positive": observed_positive,
                "overturned_negative": overturned_negative,
                "overturned_positive": overturned_positive,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        checked_negative = d.pop("checked_negative")

        checked_positive = d.pop("checked_positive")

        observed_negative = d.pop("observed_negative")

        observed_positive = d.pop("observed_positive")

        overturned_negative = d.pop("overturned_negative")

        overturned_positive = d.pop("overturned_positive")

        verdict_tally = cls(
            checked_negative=checked_negative,
            checked_positive=checked_positive,
            observed_negative=observed_negative,
            observed_positive=observed_positive,
            overturned_negative=overturned_negative,
            overturned_positive=overturned_positive,
        )

        verdict_tally.additional_properties = d
        return verdict_tally

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
