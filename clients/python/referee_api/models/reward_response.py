from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.status import Status, check_status

if TYPE_CHECKING:
    from ..models.extra_logs import ExtraLogs


T = TypeVar("T", bound="RewardResponse")


@_attrs_define
class RewardResponse:
    """The answer, one entry per query in every list.

    Attributes:
        extra_logs (ExtraLogs): Per-item numbers for OpenRLHF's logs, each a list parallel to `rewards`.
        rewards (list[float]): The reward of each query: the verdict's score (0 for items that could not be judged).
        scores (list[float]): The same numbers, which OpenRLHF uses for dynamic filtering.
        statuses (list[Status]): The verdict's status of each query, to tell a wrong answer from an unjudged item.
    """

    extra_logs: ExtraLogs
    rewards: list[float]
    scores: list[float]
    statuses: list[Status]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        extra_logs = self.extra_logs.to_dict()

        rewards = self.rewards

        scores = self.scores

        statuses = []
        for statuses_item_data in self.statuses:
            statuses_item: str = statuses_item_data
            statuses.append(statuses_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "extra_logs": extra_logs,
                "rewards": rewards,
                "scores": scores,
                "statuses": statuses,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.extra_logs import ExtraLogs

        d = dict(src_dict)
        extra_logs = ExtraLogs.from_dict(d.pop("extra_logs"))

        rewards = cast(list[float], d.pop("rewards"))

        scores = cast(list[float], d.pop("scores"))

        statuses = []
        _statuses = d.pop("statuses")
        for statuses_item_data in _statuses:
            statuses_item = check_status(statuses_item_data)

            statuses.append(statuses_item)

        reward_response = cls(
            extra_logs=extra_logs,
            rewards=rewards,
            scores=scores,
            statuses=statuses,
        )

        reward_response.additional_properties = d
        return reward_response

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
