from typing import Literal

ListRunPromptsSort = Literal["attempts", "last_step", "pass_rate", "prompt_id"]

LIST_RUN_PROMPTS_SORT_VALUES: set[ListRunPromptsSort] = {
    "attempts",
    "last_step",
    "pass_rate",
    "prompt_id",
}


def check_list_run_prompts_sort(value: str) -> ListRunPromptsSort:
    if value in LIST_RUN_PROMPTS_SORT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_RUN_PROMPTS_SORT_VALUES!r}"
    )
