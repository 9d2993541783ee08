# Sourced by the GUI tests that drive a real NormLab window with xdotool (taps.sh, idle.sh), after
# ../lib.sh (fail, normlab_test_dir, …):
#   normlab_quit PID STDERR     Ctrl+Q, then waits up to 20 s for PID to end with status 0;
#                               prints "FAIL: …" and returns 1 otherwise (STDERR: its stderr file)
#   wait_for TEXT LOG           the window's text log (--text-log) has a line containing TEXT within
#                               20 s (returns 1 otherwise)
#   wait_gone TEXT LOG          no line of the text log contains TEXT within 20 s

normlab_quit() {
    local pid=$1 stderr=$2
    xdotool key --delay 10 ctrl+q
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    if kill -0 "$pid" 2>/dev/null; then
        kill "$pid"
        echo "FAIL: Ctrl+Q did not quit within 20 s"
        return 1
    fi
    wait "$pid" || { echo "FAIL: normlab exited $?: $(cat "$stderr")"; return 1; }
}

wait_for() {
    for _ in $(seq 1 100); do
        grep -qF -- "$1" "$2" 2>/dev/null && return 0
        sleep 0.2
    done
    return 1
}

wait_gone() {
    for _ in $(seq 1 100); do
        grep -qF -- "$1" "$2" 2>/dev/null || return 0
        sleep 0.2
    done
    return 1
}
