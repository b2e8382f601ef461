"""Contains all the data models used in inputs/outputs"""

from .across_runs import AcrossRuns
from .advantage_request import AdvantageRequest
from .advantage_response import AdvantageResponse
from .advantage_single_rollout import AdvantageSingleRollout
from .aggregation_formula import AggregationFormula
from .aggregation_formula_type import AggregationFormulaType
from .aggregation_weighted_mean import AggregationWeightedMean
from .aggregation_weighted_mean_type import AggregationWeightedMeanType
from .alarm_rates import AlarmRates
from .appeal_rates import AppealRates
from .appeal_settings import AppealSettings
from .appeal_settings_input_patch_type_0 import AppealSettingsInputPatchType0
from .appealed_verdict import AppealedVerdict
from .appealed_verdict_details_type_0 import AppealedVerdictDetailsType0
from .audit_upload import AuditUpload
from .binomial_interval import BinomialInterval
from .bootstrap_interval import BootstrapInterval
from .chat_message import ChatMessage
from .check_program import CheckProgram
from .checker_kind import CheckerKind
from .code_input import CodeInput
from .code_options import CodeOptions
from .code_score_item import CodeScoreItem
from .code_score_item_verifier import CodeScoreItemVerifier
from .code_tests_input import CodeTestsInput
from .code_tests_score_item import CodeTestsScoreItem
from .code_tests_score_item_verifier import CodeTestsScoreItemVerifier
from .command_run_result import CommandRunResult
from .compare_request import CompareRequest
from .composite_aggregate import CompositeAggregate
from .composite_input import CompositeInput
from .composite_part import CompositePart
from .composite_part_input import CompositePartInput
from .composite_score_item import CompositeScoreItem
from .composite_score_item_verifier import CompositeScoreItemVerifier
from .composite_split import CompositeSplit
from .configured_rates import ConfiguredRates
from .configured_rates_rho_0_interval_type_0 import ConfiguredRatesRho0IntervalType0
from .configured_rates_rho_1_interval_type_0 import ConfiguredRatesRho1IntervalType0
from .correction import Correction
from .count_window_type_0 import CountWindowType0
from .count_window_type_0_kind import CountWindowType0Kind
from .count_window_type_1 import CountWindowType1
from .count_window_type_1_kind import CountWindowType1Kind
from .count_window_type_2 import CountWindowType2
from .count_window_type_2_kind import CountWindowType2Kind
from .criterion import Criterion
from .criterion_kind_choices import CriterionKindChoices
from .criterion_kind_choices_type import CriterionKindChoicesType
from .criterion_kind_format import CriterionKindFormat
from .criterion_kind_format_type import CriterionKindFormatType
from .criterion_kind_json_schema import CriterionKindJsonSchema
from .criterion_kind_json_schema_schema import CriterionKindJsonSchemaSchema
from .criterion_kind_json_schema_type import CriterionKindJsonSchemaType
from .criterion_kind_keywords import CriterionKindKeywords
from .criterion_kind_keywords_type import CriterionKindKeywordsType
from .criterion_kind_label import CriterionKindLabel
from .criterion_kind_label_type import CriterionKindLabelType
from .criterion_kind_language import CriterionKindLanguage
from .criterion_kind_language_type import CriterionKindLanguageType
from .criterion_kind_length import CriterionKindLength
from .criterion_kind_length_type import CriterionKindLengthType
from .criterion_kind_principle import CriterionKindPrinciple
from .criterion_kind_principle_type import CriterionKindPrincipleType
from .criterion_kind_regex import CriterionKindRegex
from .criterion_kind_regex_type import CriterionKindRegexType
from .criterion_kind_score import CriterionKindScore
from .criterion_kind_score_type import CriterionKindScoreType
from .criterion_kind_section import CriterionKindSection
from .criterion_kind_section_type import CriterionKindSectionType
from .criterion_kind_similarity import CriterionKindSimilarity
from .criterion_kind_similarity_type import CriterionKindSimilarityType
from .criterion_kind_valid_json import CriterionKindValidJson
from .criterion_kind_valid_json_type import CriterionKindValidJsonType
from .criterion_kind_verifier import CriterionKindVerifier
from .criterion_kind_verifier_input import CriterionKindVerifierInput
from .criterion_kind_verifier_type import CriterionKindVerifierType
from .direction import Direction
from .environment_entries import EnvironmentEntries
from .environment_entry import EnvironmentEntry
from .environment_entry_action_schema import EnvironmentEntryActionSchema
from .environment_entry_options_schema import EnvironmentEntryOptionsSchema
from .environment_list import EnvironmentList
from .episode_started import EpisodeStarted
from .episode_started_observation import EpisodeStartedObservation
from .episode_state import EpisodeState
from .episode_state_state import EpisodeStateState
from .episode_status import EpisodeStatus
from .episode_step import EpisodeStep
from .episode_step_observation import EpisodeStepObservation
from .episode_transcript import EpisodeTranscript
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
from .filter_single_rollout import FilterSingleRollout
from .format_mode import FormatMode
from .function_case import FunctionCase
from .function_tests import FunctionTests
from .generate_instances import GenerateInstances
from .generated_instance import GeneratedInstance
from .generated_instance_instance import GeneratedInstanceInstance
from .gold_label import GoldLabel
from .grounding_answer import GroundingAnswer
from .grounding_answer_input import GroundingAnswerInput
from .grounding_format import GroundingFormat
from .grounding_input import GroundingInput
from .grounding_score_item import GroundingScoreItem
from .grounding_score_item_verifier import GroundingScoreItemVerifier
from .group_advantages import GroupAdvantages
from .group_answer import GroupAnswer
from .group_stats import GroupStats
from .instances_response import InstancesResponse
from .interval import Interval
from .interval_method import IntervalMethod
from .job_from_path import JobFromPath
from .job_list import JobList
from .job_state import JobState
from .job_status import JobStatus
from .keyword_mode import KeywordMode
from .language import Language
from .language_availability import LanguageAvailability
from .language_state import LanguageState
from .latency_stats import LatencyStats
from .length_unit import LengthUnit
from .level_info import LevelInfo
from .list_run_prompts_order import ListRunPromptsOrder
from .list_run_prompts_sort import ListRunPromptsSort
from .match_mode import MatchMode
from .math_input import MathInput
from .math_options import MathOptions
from .math_score_item import MathScoreItem
from .math_score_item_verifier import MathScoreItemVerifier
from .mean_at_k import MeanAtK
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
from .open_env_health import OpenEnvHealth
from .open_env_metadata import OpenEnvMetadata
from .open_env_result import OpenEnvResult
from .open_env_result_observation import OpenEnvResultObservation
from .open_env_schema import OpenEnvSchema
from .open_env_schema_action import OpenEnvSchemaAction
from .open_env_schema_observation import OpenEnvSchemaObservation
from .open_env_schema_state import OpenEnvSchemaState
from .open_env_step_request import OpenEnvStepRequest
from .open_env_step_request_action import OpenEnvStepRequestAction
from .open_step import OpenStep
from .openenv_reset_body import OpenenvResetBody
from .openenv_state_response_200 import OpenenvStateResponse200
from .operation import Operation
from .overturn import Overturn
from .overturn_input import OverturnInput
from .overturn_list import OverturnList
from .pass_at_k import PassAtK
from .pass_rate_decay_type_0 import PassRateDecayType0
from .pass_rate_decay_type_0_kind import PassRateDecayType0Kind
from .pass_rate_decay_type_1 import PassRateDecayType1
from .pass_rate_decay_type_1_kind import PassRateDecayType1Kind
from .pass_rate_decay_type_2 import PassRateDecayType2
from .pass_rate_decay_type_2_kind import PassRateDecayType2Kind
from .pass_rate_decay_type_3 import PassRateDecayType3
from .pass_rate_decay_type_3_kind import PassRateDecayType3Kind
from .percent_policy import PercentPolicy
from .prepare_answer import PrepareAnswer
from .prepare_item import PrepareItem
from .prepare_request import PrepareRequest
from .prepared_item import PreparedItem
from .prepared_sequence import PreparedSequence
from .principle_score import PrincipleScore
from .probe_status import ProbeStatus
from .process_aggregate import ProcessAggregate
from .process_check_type_0 import ProcessCheckType0
from .process_check_type_0_by import ProcessCheckType0By
from .process_check_type_1 import ProcessCheckType1
from .process_check_type_1_by import ProcessCheckType1By
from .process_input import ProcessInput
from .process_score_item import ProcessScoreItem
from .process_score_item_verifier import ProcessScoreItemVerifier
from .process_split import ProcessSplit
from .prompt_list import PromptList
from .prompt_rate import PromptRate
from .rate_estimate import RateEstimate
from .reasoning import Reasoning
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
from .rounded_figures import RoundedFigures
from .rubric_definition import RubricDefinition
from .rubric_history import RubricHistory
from .rubric_input import RubricInput
from .rubric_list import RubricList
from .rubric_score_item import RubricScoreItem
from .rubric_score_item_verifier import RubricScoreItemVerifier
from .rubric_summary import RubricSummary
from .rubric_version import RubricVersion
from .run_code_request import RunCodeRequest
from .run_code_request_files import RunCodeRequestFiles
from .run_code_response import RunCodeResponse
from .run_code_response_files import RunCodeResponseFiles
from .run_comparison import RunComparison
from .run_list import RunList
from .run_sample import RunSample
from .run_sample_details import RunSampleDetails
from .run_stats import RunStats
from .run_status import RunStatus
from .run_summary import RunSummary
from .run_totals import RunTotals
from .sample_list import SampleList
from .sample_request import SampleRequest
from .sample_response import SampleResponse
from .sample_retention import SampleRetention
from .sampling_decision import SamplingDecision
from .sampling_policy_type_0 import SamplingPolicyType0
from .sampling_policy_type_0_name import SamplingPolicyType0Name
from .sampling_policy_type_1 import SamplingPolicyType1
from .sampling_policy_type_1_name import SamplingPolicyType1Name
from .sampling_policy_type_2 import SamplingPolicyType2
from .sampling_policy_type_2_name import SamplingPolicyType2Name
from .score_histogram import ScoreHistogram
from .score_quantiles import ScoreQuantiles
from .score_request import ScoreRequest
from .score_response import ScoreResponse
from .score_result import ScoreResult
from .score_result_details import ScoreResultDetails
from .scorer_kind import ScorerKind
from .scoring import Scoring
from .similarity_metric import SimilarityMetric
from .source_model import SourceModel
from .start_episode import StartEpisode
from .start_episode_options import StartEpisodeOptions
from .status import Status
from .std_estimator import StdEstimator
from .std_filter import StdFilter
from .std_filter_state import StdFilterState
from .stdio_test import StdioTest
from .step_episode import StepEpisode
from .step_episode_action import StepEpisodeAction
from .step_stats import StepStats
from .step_update import StepUpdate
from .stored_episode import StoredEpisode
from .stored_episode_options import StoredEpisodeOptions
from .stored_step import StoredStep
from .stored_step_action_type_0 import StoredStepActionType0
from .stored_step_observation import StoredStepObservation
from .suite_format import SuiteFormat
from .suite_options import SuiteOptions
from .suite_reward import SuiteReward
from .task_info import TaskInfo
from .text_format import TextFormat
from .unit_policy import UnitPolicy
from .verdict_tally import VerdictTally
from .verifier_availability import VerifierAvailability
from .verifier_info import VerifierInfo
from .verifier_info_input_schema import VerifierInfoInputSchema
from .verifier_list import VerifierList
from .verifier_score_item import VerifierScoreItem
from .verifier_score_item_input import VerifierScoreItemInput
from .verifier_score_request import VerifierScoreRequest
from .verifier_status import VerifierStatus
from .verifier_step import VerifierStep
from .verifier_step_statuses import VerifierStepStatuses
from .verifier_summary import VerifierSummary
from .verifier_totals import VerifierTotals
from .verilog_input import VerilogInput
from .verilog_score_item import VerilogScoreItem
from .verilog_score_item_verifier import VerilogScoreItemVerifier
from .version_summary import VersionSummary

__all__ = (
    "AcrossRuns",
    "AdvantageRequest",
    "AdvantageResponse",
    "AdvantageSingleRollout",
    "AggregationFormula",
    "AggregationFormulaType",
    "AggregationWeightedMean",
    "AggregationWeightedMeanType",
    "AlarmRates",
    "AppealRates",
    "AppealSettings",
    "AppealSettingsInputPatchType0",
    "AppealedVerdict",
    "AppealedVerdictDetailsType0",
    "AuditUpload",
    "BinomialInterval",
    "BootstrapInterval",
    "ChatMessage",
    "CheckProgram",
    "CheckerKind",
    "CodeInput",
    "CodeOptions",
    "CodeScoreItem",
    "CodeScoreItemVerifier",
    "CodeTestsInput",
    "CodeTestsScoreItem",
    "CodeTestsScoreItemVerifier",
    "CommandRunResult",
    "CompareRequest",
    "CompositeAggregate",
    "CompositeInput",
    "CompositePart",
    "CompositePartInput",
    "CompositeScoreItem",
    "CompositeScoreItemVerifier",
    "CompositeSplit",
    "ConfiguredRates",
    "ConfiguredRatesRho0IntervalType0",
    "ConfiguredRatesRho1IntervalType0",
    "Correction",
    "CountWindowType0",
    "CountWindowType0Kind",
    "CountWindowType1",
    "CountWindowType1Kind",
    "CountWindowType2",
    "CountWindowType2Kind",
    "Criterion",
    "CriterionKindChoices",
    "CriterionKindChoicesType",
    "CriterionKindFormat",
    "CriterionKindFormatType",
    "CriterionKindJsonSchema",
    "CriterionKindJsonSchemaSchema",
    "CriterionKindJsonSchemaType",
    "CriterionKindKeywords",
    "CriterionKindKeywordsType",
    "CriterionKindLabel",
    "CriterionKindLabelType",
    "CriterionKindLanguage",
    "CriterionKindLanguageType",
    "CriterionKindLength",
    "CriterionKindLengthType",
    "CriterionKindPrinciple",
    "CriterionKindPrincipleType",
    "CriterionKindRegex",
    "CriterionKindRegexType",
    "CriterionKindScore",
    "CriterionKindScoreType",
    "CriterionKindSection",
    "CriterionKindSectionType",
    "CriterionKindSimilarity",
    "CriterionKindSimilarityType",
    "CriterionKindValidJson",
    "CriterionKindValidJsonType",
    "CriterionKindVerifier",
    "CriterionKindVerifierInput",
    "CriterionKindVerifierType",
    "Direction",
    "EnvironmentEntries",
    "EnvironmentEntry",
    "EnvironmentEntryActionSchema",
    "EnvironmentEntryOptionsSchema",
    "EnvironmentList",
    "EpisodeStarted",
    "EpisodeStartedObservation",
    "EpisodeState",
    "EpisodeStateState",
    "EpisodeStatus",
    "EpisodeStep",
    "EpisodeStepObservation",
    "EpisodeTranscript",
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
    "FilterSingleRollout",
    "FormatMode",
    "FunctionCase",
    "FunctionTests",
    "GenerateInstances",
    "GeneratedInstance",
    "GeneratedInstanceInstance",
    "GoldLabel",
    "GroundingAnswer",
    "GroundingAnswerInput",
    "GroundingFormat",
    "GroundingInput",
    "GroundingScoreItem",
    "GroundingScoreItemVerifier",
    "GroupAdvantages",
    "GroupAnswer",
    "GroupStats",
    "InstancesResponse",
    "Interval",
    "IntervalMethod",
    "JobFromPath",
    "JobList",
    "JobState",
    "JobStatus",
    "KeywordMode",
    "Language",
    "LanguageAvailability",
    "LanguageState",
    "LatencyStats",
    "LengthUnit",
    "LevelInfo",
    "ListRunPromptsOrder",
    "ListRunPromptsSort",
    "MatchMode",
    "MathInput",
    "MathOptions",
    "MathScoreItem",
    "MathScoreItemVerifier",
    "MeanAtK",
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
    "OpenEnvHealth",
    "OpenEnvMetadata",
    "OpenEnvResult",
    "OpenEnvResultObservation",
    "OpenEnvSchema",
    "OpenEnvSchemaAction",
    "OpenEnvSchemaObservation",
    "OpenEnvSchemaState",
    "OpenEnvStepRequest",
    "OpenEnvStepRequestAction",
    "OpenStep",
    "OpenenvResetBody",
    "OpenenvStateResponse200",
    "Operation",
    "Overturn",
    "OverturnInput",
    "OverturnList",
    "PassAtK",
    "PassRateDecayType0",
    "PassRateDecayType0Kind",
    "PassRateDecayType1",
    "PassRateDecayType1Kind",
    "PassRateDecayType2",
    "PassRateDecayType2Kind",
    "PassRateDecayType3",
    "PassRateDecayType3Kind",
    "PercentPolicy",
    "PrepareAnswer",
    "PrepareItem",
    "PrepareRequest",
    "PreparedItem",
    "PreparedSequence",
    "PrincipleScore",
    "ProbeStatus",
    "ProcessAggregate",
    "ProcessCheckType0",
    "ProcessCheckType0By",
    "ProcessCheckType1",
    "ProcessCheckType1By",
    "ProcessInput",
    "ProcessScoreItem",
    "ProcessScoreItemVerifier",
    "ProcessSplit",
    "PromptList",
    "PromptRate",
    "RateEstimate",
    "Reasoning",
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
    "RoundedFigures",
    "RubricDefinition",
    "RubricHistory",
    "RubricInput",
    "RubricList",
    "RubricScoreItem",
    "RubricScoreItemVerifier",
    "RubricSummary",
    "RubricVersion",
    "RunCodeRequest",
    "RunCodeRequestFiles",
    "RunCodeResponse",
    "RunCodeResponseFiles",
    "RunComparison",
    "RunList",
    "RunSample",
    "RunSampleDetails",
    "RunStats",
    "RunStatus",
    "RunSummary",
    "RunTotals",
    "SampleList",
    "SampleRequest",
    "SampleResponse",
    "SampleRetention",
    "SamplingDecision",
    "SamplingPolicyType0",
    "SamplingPolicyType0Name",
    "SamplingPolicyType1",
    "SamplingPolicyType1Name",
    "SamplingPolicyType2",
    "SamplingPolicyType2Name",
    "ScoreHistogram",
    "ScoreQuantiles",
    "ScoreRequest",
    "ScoreResponse",
    "ScoreResult",
    "ScoreResultDetails",
    "ScorerKind",
    "Scoring",
    "SimilarityMetric",
    "SourceModel",
    "StartEpisode",
    "StartEpisodeOptions",
    "Status",
    "StdEstimator",
    "StdFilter",
    "StdFilterState",
    "StdioTest",
    "StepEpisode",
    "StepEpisodeAction",
    "StepStats",
    "StepUpdate",
    "StoredEpisode",
    "StoredEpisodeOptions",
    "StoredStep",
    "StoredStepActionType0",
    "StoredStepObservation",
    "SuiteFormat",
    "SuiteOptions",
    "SuiteReward",
    "TaskInfo",
    "TextFormat",
    "UnitPolicy",
    "VerdictTally",
    "VerifierAvailability",
    "VerifierInfo",
    "VerifierInfoInputSchema",
    "VerifierList",
    "VerifierScoreItem",
    "VerifierScoreItemInput",
    "VerifierScoreRequest",
    "VerifierStatus",
    "VerifierStep",
    "VerifierStepStatuses",
    "VerifierSummary",
    "VerifierTotals",
    "VerilogInput",
    "VerilogScoreItem",
    "VerilogScoreItemVerifier",
    "VersionSummary",
)
