"""LongRLVR's reward code, as its training recipe computes the reward, for the tests and
benchmarks that compare Referee's `grounding` with it."""

import re

# Copied from real-absolute-AI/LongRLVR at commit 4531306ca6f88ddc697e3aeb7a074daf40bea0a8,
# recipe/dapo/longrl_reward_manager.py (Chen, Shieh and Bing, "LongRLVR: Long-Context
# Reinforcement Learning Requires Verifiable Context Rewards", ICLR 2026): extract_used_context,
# extract_answer and convert_to_chunks verbatim (comments shortened), and the scoring lines of
# LongRLRewardManager.custom_compute_score verbatim. Changed only where LongRLVR calls its LLM
# judge (`evaluate_answer`, an endpoint we cannot reach): the judge is passed in, and the callers
# pass `whitespace_judge` below, the comparison Referee's `exact-match` makes by default.


def extract_used_context(solution_str):
    used_context_pattern = "<useful_chunks>(.*?)</useful_chunks>"
    match = re.finditer(used_context_pattern, solution_str, re.DOTALL)
    matches = list(match)

    # Ensure there is exactly one match
    if len(matches) != 1:
        return None
    return matches[0].group(1).strip()


def extract_answer(solution_str):
    answer_pattern = "<answer>(.*?)</answer>"
    match = re.finditer(answer_pattern, solution_str, re.DOTALL)
    matches = list(match)
    # Ensure there is exactly one match
    if len(matches) != 1:
        return None
    return matches[0].group(1).strip()


def convert_to_chunks(used_context):
    if not used_context or not isinstance(used_context, str):
        return []

    # First extract all chunk patterns using regex
    chunk_pattern = r"<CHUNK_(\d+)>"
    matches = re.findall(chunk_pattern, used_context)

    # Convert matched strings to integers
    used_chunks = []
    for match in matches:
        try:
            used_chunks.append(int(match))
        except ValueError:
            # Skip invalid chunk IDs
            continue
    return used_chunks


def custom_compute_score(solution_str, ground_truth, extra_info, evaluate_answer):
    used_context = extract_used_context(solution_str)
    answer = extract_answer(solution_str)
    if (used_context is None) or (answer is None):
        return {
            "score": 0.0,
            "recall": 0.0,
            "precision": 0.0,
            "fbeta_score": 0.0,
            "answer_acc": 0.0,
        }
    ref_chunks = extra_info["ref_chunks"]
    used_chunks = convert_to_chunks(used_context)
    # calculate the IOU of used_chunks and ref_chunks
    if used_chunks:
        intersection = set(used_chunks) & set(ref_chunks)
        precision = len(intersection) / len(used_chunks)
        recall = len(intersection) / len(set(ref_chunks))
        if precision + recall == 0:
            fbeta_score = 0.0
        else:
            fbeta_score = (5 * precision * recall) / (4 * precision + recall)
    else:
        recall = 0
        precision = 0
        fbeta_score = 0.0

    answer_judgment = evaluate_answer(answer, ground_truth)
    return {
        "score": answer_judgment + 0.1 * fbeta_score + 0.9 * answer_judgment * fbeta_score,
        "recall": recall,
        "precision": precision,
        "fbeta_score": fbeta_score,
        "answer_acc": answer_judgment,
    }


def whitespace_judge(answer: str, ground_truth: str) -> float:
    """The answer judge the comparisons use in place of LongRLVR's LLM judge (not LongRLVR's
    code): the answers equal once whitespace is collapsed, as `exact-match` compares them."""
    return 1.0 if " ".join(answer.split()) == " ".join(ground_truth.split()) else 0.0
