from typing import Literal

ListRunPromptsOrder = Literal["asc", "desc"]

LIST_RUN_PROMPTS_ORDER_VALUES: set[ListRunPromptsOrder] = {
    "asc",
    "desc",
}


def check_list_run_prompts_order(value: str) -> ListRunPromptsOrder:
    if value in LIST_RUN_PROMPTS_ORDER_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_RUN_PROMPTS_ORDER_VALUES!r}"
    )
