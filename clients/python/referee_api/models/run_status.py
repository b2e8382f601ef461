from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.std_filter import StdFilter
    from ..models.std_filter_state import StdFilterState


T = TypeVar("T", bound="RunStatus")


@_attrs_define
class RunStatus:
    """A run's settings and state: `GET /v1/reward-models/rlpr/runs/{run}`.

    Attributes:
        run (str):
        settings (StdFilter): The filter's settings. The defaults are the reference scripts' for Qwen.
        state (StdFilterState): What a training run's filter remembers between steps.
        updated_at_ms (int):
    """

    run: str
    settings: StdFilter
    state: StdFilterState
    updated_at_ms: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        run = self.run

        settings = self.settings.to_dict()

        state = self.state.to_dict()

        updated_at_ms = self.updated_at_ms

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "run": run,
                "settings": settings,
                "state": state,
                "updated_at_ms": updated_at_ms,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.std_filter import StdFilter
        from ..models.std_filter_state import StdFilterState

        d = dict(src_dict)
        run = d.pop("run")

        settings = StdFilter.from_dict(d.pop("settings"))

        state = StdFilterState.from_dict(d.pop("state"))

        updated_at_ms = d.pop("updated_at_ms")

        run_status = cls(
            run=run,
            settings=settings,
            state=state,
            updated_at_ms=updated_at_ms,
        )

        run_status.additional_properties = d
        return run_status

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
