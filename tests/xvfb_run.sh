#!/usr/bin/env bash
# Runs one command on a virtual X display of its own, as xvfb-run does, for the GUI tests:
#   xvfb_run.sh [-a] [-s "XVFB ARGS"] COMMAND [ARG...]
# Xvfb chooses a free display itself (-displayfd) and says its number once it accepts clients;
# the command runs with DISPLAY set to it (and XVFB_PID to the server's pid, for a test that
# takes the display away) and its exit status is this script's. -a is accepted
# for xvfb-run's command line (a free display is always chosen); -s defaults to xvfb-run's screen.
# Unlike Debian 12's xvfb-run there is no Xauthority folder to remove at the end and no race
# for a display number: xvfb-run sometimes failed on its own after the command had run
# ("problem while cleaning up temporary directory", exit 5), which failed a test that had passed.
set -u
server_args="-screen 0 1280x1024x24"
while [ $# -gt 0 ]; do
    case $1 in
        -a) shift ;;
        -s) [ $# -ge 2 ] || break; server_args=$2; shift 2 ;;
        --) shift; break ;;
        *) break ;;
    esac
done
if [ $# -eq 0 ]; then
    echo "usage: $0 [-a] [-s \"XVFB ARGS\"] COMMAND [ARG...]" >&2
    exit 2
fi

log=$(mktemp -t normlab-xvfb.XXXXXX) || exit 1
# Xvfb writes the display's number on its stdout (the pipe) when it is ready.
# shellcheck disable=SC2086   # server_args is a list of words, as xvfb-run takes it
exec 3< <(exec Xvfb -displayfd 1 -nolisten tcp $server_args 2>"$log")
server=$!
stop_server() {
    kill "$server" 2>/dev/null
    wait "$server" 2>/dev/null
    exec 3<&-
    rm -f "$log"
}
trap stop_server EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
if ! read -r -t 60 display <&3 || [ -z "$display" ]; then
    echo "xvfb_run.sh: error: Xvfb did not start: $(head -c 400 "$log")" >&2
    exit 1
fi
env -u XAUTHORITY DISPLAY=":$display" XVFB_PID="$server" "$@"
