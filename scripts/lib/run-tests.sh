# Sourced by scripts/test and scripts/test-tsan: runs `swift test` with a
# watchdog. A run longer than PETREL_TEST_TIMEOUT seconds (default 1200; a
# normal run takes one to two minutes) is stopped, and the tests that
# started and never finished are named, so a hang fails CI with a
# diagnosis instead of running into CI's own time limit.
run_tests_with_watchdog() {
    local limit="${PETREL_TEST_TIMEOUT:-1200}"
    local log
    log="$(mktemp)"
    local status=0
    # Line-buffered output, so the log holds every event up to a hang.
    timeout --kill-after=30 "$limit" stdbuf -oL -eL swift test "$@" 2>&1 | tee "$log" || status=$?
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
        echo "error: the tests did not finish within $limit s; started and never finished:" >&2
        sed -n 's/^◇ Test \(.*\) started\.$/\1/p' "$log" | sort -u > "$log.started"
        sed -n 's/^[✔✘] Test \(.*\) \(passed\|failed\) after .*$/\1/p' "$log" \
            | sed 's/ with [0-9]* test cases\{0,1\}$//' | sort -u > "$log.finished"
        comm -23 "$log.started" "$log.finished" | sed 's/^/  /' >&2
        rm -f "$log.started" "$log.finished"
    fi
    rm -f "$log"
    return "$status"
}
