# Sourced by scripts/setup-test and scripts/test: `step NAME` prints `==> NAME (at N s)` and, when
# REFEREE_STEPS_CSV names a file, closes the previous step's row there (step,started_s,seconds)
# and opens this one's; `steps_done` closes the last row. SECONDS counts from the calling
# script's start; a script called by another continues its clock through REFEREE_STEPS_T0.
: "${REFEREE_STEPS_T0:=$(date +%s)}"
export REFEREE_STEPS_T0
_step_name=""
_step_start=0

_steps_now() { echo $(($(date +%s) - REFEREE_STEPS_T0)); }

_steps_close() {
    if [ -n "$_step_name" ] && [ -n "${REFEREE_STEPS_CSV:-}" ]; then
        printf '"%s",%d,%d\n' "${_step_name//\"/\'}" "$_step_start" $(($(_steps_now) - _step_start)) >>"$REFEREE_STEPS_CSV"
    fi
    _step_name=""
}

step() {
    _steps_close
    _step_name="$*"
    _step_start=$(_steps_now)
    printf '\n==> %s (at %d s)\n' "$*" "$_step_start"
}

steps_done() { _steps_close; }

die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Installs Debian packages through apt-get, as root or through sudo.
apt_install() {
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
