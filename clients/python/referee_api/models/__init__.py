"""Contains all the data models used in inputs/outputs"""

from .advantage_request import AdvantageRequest
from .advantage_response import AdvantageResponse
from .aggregation_type_0 import AggregationType0
from .aggregation_type_0_type import AggregationType0Type
from .aggregation_type_1 import AggregationType1
from .aggregation_type_1_type import AggregationType1Type
from .appeal_rates import AppealRates
from .appeal_settings import AppealSettings
from .appeal_settings_input_patch_type_0 import AppealSettingsInputPatchType0
from .appealed_verdict import AppealedVerdict
from .appealed_verdict_details_type_0 import AppealedVerdictDetailsType0
from .audit_upload import AuditUpload
from .chat_message import ChatMessage
from .check_program import CheckProgram
from .checker_kind import CheckerKind
from .code_input import CodeInput
from .code_options import CodeOptions
from .code_score_item import CodeScoreItem
from .code_score_item_verifier import CodeScoreItemVerifier
from .configured_rates import ConfiguredRates
from .configured_rates_rho_0_interval_type_0 import ConfiguredRatesRho0IntervalType0
from .configured_rates_rho_1_interval_type_0 import ConfiguredRatesRho1IntervalType0
from .correction import Correction
from .criterion import Criterion
from .criterion_kind_type_0 import CriterionKindType0
from .criterion_kind_type_0_type import CriterionKindType0Type
from .criterion_kind_type_1 import CriterionKindType1
from .criterion_kind_type_1_type import CriterionKindType1Type
from .criterion_kind_type_2 import CriterionKindType2
from .criterion_kind_type_2_type import CriterionKindType2Type
from .criterion_kind_type_3 import CriterionKindType3
from .criterion_kind_type_3_type import CriterionKindType3Type
from .criterion_kind_type_4_schema import CriterionKindType4Schema
from .criterion_kind_type_4_type import CriterionKindType4Type
from .criterion_kind_type_5 import CriterionKindType5
from .criterion_kind_type_5_type import CriterionKindType5Type
from .criterion_kind_type_6 import CriterionKindType6
from .criterion_kind_type_6_type import CriterionKindType6Type
from .criterion_kind_type_7 import CriterionKindType7
from .criterion_kind_type_7_type import CriterionKindType7Type
from .criterion_kind_type_8 import CriterionKindType8
from .criterion_kind_type_8_type import CriterionKindType8Type
from .criterion_kind_type_9_input import CriterionKindType9Input
from .criterion_kind_type_9_type import CriterionKindType9Type
from .criterion_kind_type_10 import CriterionKindType10
from .criterion_kind_type_10_type import CriterionKindType10Type
from .criterion_kind_type_11 import CriterionKindType11
from .criterion_kind_type_11_type import CriterionKindType11Type
from .criterion_kind_type_12 import CriterionKindType12
from .criterion_kind_type_12_type import CriterionKindType12Type
from .criterion_kind_type_13 import CriterionKindType13
from .criterion_kind_type_13_type import CriterionKindType13Type
from .direction import Direction
from .environment_list import EnvironmentList
from .error_body import ErrorBody
from .exact_match_input import ExactMatchInput
from .exact_match_score_item import ExactMatchScoreItem
from .exact_match_score_item_verifier import ExactMatchScoreItemVerifier
from .extra_logs import ExtraLogs
from .extraction import Extraction
from .extraction_mode import ExtractionMode
from .filter_answer import FilterAnswer
from .filter_group import FilterGroup
from .filter_request import FilterRequest
from .format_mode import FormatMode
from .function_case import FunctionCase
from .function_tests import FunctionTests
from .generate_instances import GenerateInstances
from .generated_instance import GeneratedInstance
from .generated_instance_instance import GeneratedInstanceInstance
from .gold_label import GoldLabel
from .group_advantages import GroupAdvantages
from .group_answer import GroupAnswer
from .instances_response import InstancesResponse
from .interval import Interval
from .interval_method import IntervalMethod
from .job_from_path import JobFromPath
from .job_state import JobState
from .job_status import JobStatus
from .keyword_mode import KeywordMode
from .language import Language
from .length_unit import LengthUnit
from .level_info import LevelInfo
from .match_mode import MatchMode
from .math_input import MathInput
from .math_options import MathOptions
from .math_score_item import MathScoreItem
from .math_score_item_verifier import MathScoreItemVerifier
from .multiple_choice_input import MultipleChoiceInput
from .multiple_choice_score_item import MultipleChoiceScoreItem
from .multiple_choice_score_item_verifier import MultipleChoiceScoreItemVerifier
from .new_rubric import NewRubric
from .noise_list import NoiseList
from .noise_model import NoiseModel
from .noise_settings import NoiseSettings
from .noise_source import NoiseSource
from .noise_status import NoiseStatus
from .normalisation import Normalisation
from .np_input import NpInput
from .np_input_instance_type_0 import NpInputInstanceType0
from .np_score_item import NpScoreItem
from .np_score_item_verifier import NpScoreItemVerifier
from .operation import Operation
from .overturn import Overturn
from .overturn_input import OverturnInput
from .overturn_list import OverturnList
from .percent_policy import PercentPolicy
from .prepare_answer import PrepareAnswer
from .prepare_item import PrepareItem
from .prepare_request import PrepareRequest
from .prepared_item import PreparedItem
from .prepared_sequence import PreparedSequence
from .probe_status import ProbeStatus
from .rate_estimate import RateEstimate
from .reference import Reference
from .reference_kind import ReferenceKind
from .regex_match_input import RegexMatchInput
from .regex_match_score_item import RegexMatchScoreItem
from .regex_match_score_item_verifier import RegexMatchScoreItemVerifier
from .reload_request import ReloadRequest
from .reloaded import Reloaded
from .reward_basis import RewardBasis
from .reward_group import RewardGroup
from .reward_mode import RewardMode
from .reward_request import RewardRequest
from .reward_response import RewardResponse
from .rlpr_input import RlprInput
from .rlpr_input_options import RlprInputOptions
from .rlpr_score_item import RlprScoreItem
from .rlpr_score_item_verifier import RlprScoreItemVerifier
from .rubric_definition import RubricDefinition
from .rubric_history import RubricHistory
from .rubric_input import RubricInput
from .rubric_list import RubricList
from .rubric_score_item import RubricScoreItem
from .rubric_score_item_verifier import RubricScoreItemVerifier
from .rubric_summary import RubricSummary
from .rubric_version import RubricVersion
from .run_status import RunStatus
from .score_request import ScoreRequest
from .score_response import ScoreResponse
from .score_result import ScoreResult
from .score_result_details import ScoreResultDetails
from .scorer_kind import ScorerKind
from .scoring import Scoring
from .similarity_metric import SimilarityMetric
from .source_model import SourceModel
from .status import Status
from .std_estimator import StdEstimator
from .std_filter import StdFilter
from .std_filter_state import StdFilterState
from .stdio_test import StdioTest
from .task_info import TaskInfo
from .text_format import TextFormat
from .verdict_tally import VerdictTally
from .verifier_info import VerifierInfo
from .verifier_info_input_schema import VerifierInfoInputSchema
from .verifier_list import VerifierList
from .verifier_score_item import VerifierScoreItem
from .verifier_score_item_input import VerifierScoreItemInput
from .verifier_score_request import VerifierScoreRequest
from .version_summary import VersionSummary

__all__ = (
    "AdvantageRequest",
    "AdvantageResponse",
    "AggregationType0",
    "AggregationType0Type",
    "AggregationType1",
    "AggregationType1Type",
    "AppealRates",
    "AppealSettings",
    "AppealSettingsInputPatchType0",
    "AppealedVerdict",
    "AppealedVerdictDetailsType0",
    "AuditUpload",
    "ChatMessage",
    "CheckProgram",
    "CheckerKind",
    "CodeInput",
    "CodeOptions",
    "CodeScoreItem",
    "CodeScoreItemVerifier",
    "ConfiguredRates",
    "ConfiguredRatesRho0IntervalType0",
    "ConfiguredRatesRho1IntervalType0",
    "Correction",
    "Criterion",
    "CriterionKindType0",
    "CriterionKindType0Type",
    "CriterionKindType1",
    "CriterionKindType1Type",
    "CriterionKindType2",
    "CriterionKindType2Type",
    "CriterionKindType3",
    "CriterionKindType3Type",
    "CriterionKindType4Schema",
    "CriterionKindType4Type",
    "CriterionKindType5",
    "CriterionKindType5Type",
    "CriterionKindType6",
    "CriterionKindType6Type",
    "CriterionKindType7",
    "CriterionKindType7Type",
    "CriterionKindType8",
    "CriterionKindType8Type",
    "CriterionKindType9Input",
    "CriterionKindType9Type",
    "CriterionKindType10",
    "CriterionKindType10Type",
    "CriterionKindType11",
    "CriterionKindType11Type",
    "CriterionKindType12",
    "CriterionKindType12Type",
    "CriterionKindType13",
    "CriterionKindType13Type",
    "Direction",
    "EnvironmentList",
    "ErrorBody",
    "ExactMatchInput",
    "ExactMatchScoreItem",
    "ExactMatchScoreItemVerifier",
    "ExtraLogs",
    "Extraction",
    "ExtractionMode",
    "FilterAnswer",
    "FilterGroup",
    "FilterRequest",
    "FormatMode",
    "FunctionCase",
    "FunctionTests",
    "GenerateInstances",
    "GeneratedInstance",
    "GeneratedInstanceInstance",
    "GoldLabel",
    "GroupAdvantages",
    "GroupAnswer",
    "InstancesResponse",
    "Interval",
    "IntervalMethod",
    "JobFromPath",
    "JobState",
    "JobStatus",
    "KeywordMode",
    "Language",
    "LengthUnit",
    "LevelInfo",
    "MatchMode",
    "MathInput",
    "MathOptions",
    "MathScoreItem",
    "MathScoreItemVerifier",
    "MultipleChoiceInput",
    "MultipleChoiceScoreItem",
    "MultipleChoiceScoreItemVerifier",
    "NewRubric",
    "NoiseList",
    "NoiseModel",
    "NoiseSettings",
    "NoiseSource",
    "NoiseStatus",
    "Normalisation",
    "NpInput",
    "NpInputInstanceType0",
    "NpScoreItem",
    "NpScoreItemVerifier",
    "Operation",
    "Overturn",
    "OverturnInput",
    "OverturnList",
    "PercentPolicy",
    "PrepareAnswer",
    "PrepareItem",
    "PrepareRequest",
    "PreparedItem",
    "PreparedSequence",
    "ProbeStatus",
    "RateEstimate",
    "Reference",
    "ReferenceKind",
    "RegexMatchInput",
    "RegexMatchScoreItem",
    "RegexMatchScoreItemVerifier",
    "ReloadRequest",
    "Reloaded",
    "RewardBasis",
    "RewardGroup",
    "RewardMode",
    "RewardRequest",
    "RewardResponse",
    "RlprInput",
    "RlprInputOptions",
    "RlprScoreItem",
    "RlprScoreItemVerifier",
    "RubricDefinition",
    "RubricHistory",
    "RubricInput",
    "RubricList",
    "RubricScoreItem",
    "RubricScoreItemVerifier",
    "RubricSummary",
    "RubricVersion",
    "RunStatus",
    "ScoreRequest",
    "ScoreResponse",
    "ScoreResult",
    "ScoreResultDetails",
    "ScorerKind",
    "Scoring",
    "SimilarityMetric",
    "SourceModel",
    "Status",
    "StdEstimator",
    "StdFilter",
    "StdFilterState",
    "StdioTest",
    "TaskInfo",
    "TextFormat",
    "VerdictTally",
    "VerifierInfo",
    "VerifierInfoInputSchema",
    "VerifierList",
    "VerifierScoreItem",
    "VerifierScoreItemInput",
    "VerifierScoreRequest",
    "VersionSummary",
)
