from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.gold_label import GoldLabel


T = TypeVar("T", bound="AuditUpload")


@_attrs_define
class AuditUpload:
    """Gold-labelled verdicts: the body of `POST /v1/noise/{verifier}/audits`.

    Attributes:
        labels (list[GoldLabel]): One row per audited response: the verifier's verdict and the true label. Pick the
            responses without regard to their verdicts, e.g. a random sample of rollouts.
        replace (bool | Unset): Start the audit tally over with these labels instead of adding them to it.
    """

    labels: list[GoldLabel]
    replace: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        labels = []
        for labels_item_data in self.labels:
            labels_item = labels_item_data.to_dict()
            labels.append(labels_item)

        replace = self.replace

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "labels": labels,
            }
        )
        if replace is not UNSET:
            field_dict["replace"] = replace

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.gold_label import GoldLabel

        d = dict(src_dict)
        labels = []
        _labels = d.pop("labels")
        for labels_item_data in _labels:
            labels_item = GoldLabel.from_dict(labels_item_data)

            labels.append(labels_item)

        replace = d.pop("replace", UNSET)

        audit_upload = cls(
            labels=labels,
            replace=replace,
        )

        return audit_upload
