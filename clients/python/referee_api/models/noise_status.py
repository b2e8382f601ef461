from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from typing_extensions import Self

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.noise_source import NoiseSource, check_noise_source
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.noise_model import NoiseModel
    from ..models.noise_settings import NoiseSettings
    from ..models.source_model import SourceModel
    from ..models.verdict_tally import VerdictTally


T = TypeVar("T", bound="NoiseStatus")


@_attrs_define
class NoiseStatus:
    """A noise model and everything behind it.

    Attributes:
        appeal (SourceModel): One source's model, or why it has none.
        appeal_counts (VerdictTally): Counts of verdicts seen and of verdicts checked against a stronger label, split by
            the
            verdict: the accumulator behind audits and appeals alike.

            For appeals the server calls [`observe`](Self::observe) for every binary verdict the
            verifier returns and [`record_check`](Self::record_check) as re-checks come back, possibly
            much later; tallies from several workers or time windows combine with
            [`merge`](Self::merge). For audits every gold-labelled row is both observed and checked
            ([`record_gold`](Self::record_gold)).

            Sampling negatives and positives for re-checking at different rates is fine: the appeal
            estimator uses only the rates within each verdict class and the observed positive rate.
        audit (SourceModel): One source's model, or why it has none.
        audit_counts (VerdictTally): Counts of verdicts seen and of verdicts checked against a stronger label, split by
            the
            verdict: the accumulator behind audits and appeals alike.

            For appeals the server calls [`observe`](Self::observe) for every binary verdict the
            verifier returns and [`record_check`](Self::record_check) as re-checks come back, possibly
            much later; tallies from several workers or time windows combine with
            [`merge`](Self::merge). For audits every gold-labelled row is both observed and checked
            ([`record_gold`](Self::record_gold)).

            Sampling negatives and positives for re-checking at different rates is fine: the appeal
            estimator uses only the rates within each verdict class and the observed positive rate.
        configured (SourceModel): One source's model, or why it has none.
        j_floor (float): The floor on J's lower bound in force.
        settings (NoiseSettings): What a person sets for one noise model: the body of `PUT /v1/noise/{verifier}`.
        step (int): The current training step, which windows count back from (0 until one is set).
        verifier (str): The verifier id.
        version (str): The verifier version the model applies to (the one this server runs).
        label (None | str | Unset): The task/source label; absent for the verifier-wide model.
        model (NoiseModel | None | Unset):
        refused (None | str | Unset): Why rewards are not corrected with `model`, when it is too uncertain to correct
            with.
        source (NoiseSource | None | Unset):
    """

    appeal: SourceModel
    appeal_counts: VerdictTally
    audit: SourceModel
    audit_counts: VerdictTally
    configured: SourceModel
    j_floor: float
    settings: NoiseSettings
    step: int
    verifier: str
    version: str
    label: None | str | Unset = UNSET
    model: NoiseModel | None | Unset = UNSET
    refused: None | str | Unset = UNSET
    source: NoiseSource | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.noise_model import NoiseModel

        appeal = self.appeal.to_dict()

        appeal_counts = self.appeal_counts.to_dict()

        audit = self.audit.to_dict()

        audit_counts = self.audit_counts.to_dict()

        configured = self.configured.to_dict()

        j_floor = self.j_floor

        settings = self.settings.to_dict()

        step = self.step

        verifier = self.verifier

        version = self.version

        label: None | str | Unset
        if isinstance(self.label, Unset):
            label = UNSET
        else:
            label = self.label

        model: dict[str, Any] | None | Unset
        if isinstance(self.model, Unset):
            model = UNSET
        elif isinstance(self.model, NoiseModel):
            model = self.model.to_dict()
        else:
            model = self.model

        refused: None | str | Unset
        if isinstance(self.refused, Unset):
            refused = UNSET
        else:
            refused = self.refused

        source: None | str | Unset
        if isinstance(self.source, Unset):
            source = UNSET
        elif isinstance(self.source, str):
            source = self.source
        else:
            source = self.source

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "appeal": appeal,
                "appeal_counts": appeal_counts,
                "audit": audit,
                "audit_counts": audit_counts,
                "configured": configured,
                "j_floor": j_floor,
                "settings": settings,
                "step": step,
                "verifier": verifier,
                "version": version,
            }
        )
        if label is not UNSET:
            field_dict["label"] = label
        if model is not UNSET:
            field_dict["model"] = model
        if refused is not UNSET:
            field_dict["refused"] = refused
        if source is not UNSET:
            field_dict["source"] = source

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.noise_model import NoiseModel
        from ..models.noise_settings import NoiseSettings
        from ..models.source_model import SourceModel
        from ..models.verdict_tally import VerdictTally

        d = dict(src_dict)
        appeal = SourceModel.from_dict(d.pop("appeal"))

        appeal_counts = VerdictTally.from_dict(d.pop("appeal_counts"))

        audit = SourceModel.from_dict(d.pop("audit"))

        audit_counts = VerdictTally.from_dict(d.pop("audit_counts"))

        configured = SourceModel.from_dict(d.pop("configured"))

        j_floor = d.pop("j_floor")

        settings = NoiseSettings.from_dict(d.pop("settings"))

        step = d.pop("step")

        verifier = d.pop("verifier")

        version = d.pop("version")

        def _parse_label(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        label = _parse_label(d.pop("label", UNSET))

        def _parse_model(data: object) -> NoiseModel | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                model_type_0 = NoiseModel.from_dict(data)

                return model_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(NoiseModel | None | Unset, data)

        model = _parse_model(d.pop("model", UNSET))

        def _parse_refused(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        refused = _parse_refused(d.pop("refused", UNSET))

        def _parse_source(data: object) -> NoiseSource | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                source_type_0 = check_noise_source(data)

                return source_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(NoiseSource | None | Unset, data)

        source = _parse_source(d.pop("source", UNSET))

        noise_status = cls(
            appeal=appeal,
            appeal_counts=appeal_counts,
            audit=audit,
            audit_counts=audit_counts,
            configured=configured,
            j_floor=j_floor,
            settings=settings,
            step=step,
            verifier=verifier,
            version=version,
            label=label,
            model=model,
            refused=refused,
            source=source,
        )

        noise_status.additional_properties = d
        return noise_status

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
