# Sourced by the GUI tests that drive a real NormLab window with xdotool (taps.sh, idle.sh), after
# ../lib.sh (fail, normlab_test_dir, …):
#   normlab_quit PID STDERR     Ctrl+Q, then waits up to 20 s for PID to end with status 0;
#                               prints "FAIL: …" and returns 1 otherwise (STDERR: its stderr file)

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
