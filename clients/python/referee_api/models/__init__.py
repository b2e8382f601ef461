"""Contains all the data models used in inputs/outputs"""

from .direction import Direction
from .environment_list import EnvironmentList
from .error_body import ErrorBody
from .exact_match_input import ExactMatchInput
from .exact_match_score_item import ExactMatchScoreItem
from .exact_match_score_item_verifier import ExactMatchScoreItemVerifier
from .extra_logs import ExtraLogs
from .extraction import Extraction
from .extraction_mode import ExtractionMode
from .generate_instances import GenerateInstances
from .generated_instance import GeneratedInstance
from .generated_instance_instance import GeneratedInstanceInstance
from .instances_response import InstancesResponse
from .job_from_path import JobFromPath
from .job_state import JobState
from .job_status import JobStatus
from .level_info import LevelInfo
from .match_mode import MatchMode
from .math_input import MathInput
from .math_options import MathOptions
from .math_score_item import MathScoreItem
from .math_score_item_verifier import MathScoreItemVerifier
from .multiple_choice_input import MultipleChoiceInput
from .multiple_choice_score_item import MultipleChoiceScoreItem
from .multiple_choice_score_item_verifier import MultipleChoiceScoreItemVerifier
from .np_input import NpInput
from .np_input_instance_type_0 import NpInputInstanceType0
from .np_score_item import NpScoreItem
from .np_score_item_verifier import NpScoreItemVerifier
from .operation import Operation
from .percent_policy import PercentPolicy
from .probe_status import ProbeStatus
from .reference import Reference
from .reference_kind import ReferenceKind
from .regex_match_input import RegexMatchInput
from .regex_match_score_item import RegexMatchScoreItem
from .regex_match_score_item_verifier import RegexMatchScoreItemVerifier
from .reward_mode import RewardMode
from .reward_request import RewardRequest
from .reward_response import RewardResponse
from .score_request import ScoreRequest
from .score_response import ScoreResponse
from .score_result import ScoreResult
from .score_result_details import ScoreResultDetails
from .scorer_kind import ScorerKind
from .status import Status
from .task_info import TaskInfo
from .verifier_info import VerifierInfo
from .verifier_info_input_schema import VerifierInfoInputSchema
from .verifier_list import VerifierList
from .verifier_score_item import VerifierScoreItem
from .verifier_score_item_input import VerifierScoreItemInput
from .verifier_score_request import VerifierScoreRequest

__all__ = (
    "Direction",
    "EnvironmentList",
    "ErrorBody",
    "ExactMatchInput",
    "ExactMatchScoreItem",
    "ExactMatchScoreItemVerifier",
    "ExtraLogs",
    "Extraction",
    "ExtractionMode",
    "GenerateInstances",
    "GeneratedInstance",
    "GeneratedInstanceInstance",
    "InstancesResponse",
    "JobFromPath",
    "JobState",
    "JobStatus",
    "LevelInfo",
    "MatchMode",
    "MathInput",
    "MathOptions",
    "MathScoreItem",
    "MathScoreItemVerifier",
    "MultipleChoiceInput",
    "MultipleChoiceScoreItem",
    "MultipleChoiceScoreItemVerifier",
    "NpInput",
    "NpInputInstanceType0",
    "NpScoreItem",
    "NpScoreItemVerifier",
    "Operation",
    "PercentPolicy",
    "ProbeStatus",
    "Reference",
    "ReferenceKind",
    "RegexMatchInput",
    "RegexMatchScoreItem",
    "RegexMatchScoreItemVerifier",
    "RewardMode",
    "RewardRequest",
    "RewardResponse",
    "ScoreRequest",
    "ScoreResponse",
    "ScoreResult",
    "ScoreResultDetails",
    "ScorerKind",
    "Status",
    "TaskInfo",
    "VerifierInfo",
    "VerifierInfoInputSchema",
    "VerifierList",
    "VerifierScoreItem",
    "VerifierScoreItemInput",
    "VerifierScoreRequest",
)
