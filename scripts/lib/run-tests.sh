# Sourced by scripts/test and scripts/test-tsan: runs `swift test` with a
# watchdog. A run longer than PETREL_TEST_TIMEOUT seconds (default 1200; a
# normal run takes one to two minutes) is stopped, after the watchdog has
# printed what it was doing: every thread's stack in the test process
# (gdb), the end of the log, and the tests that started and never finished. A hang thus fails CI with a diagnosis instead of running
# into CI's own time limit.
run_tests_with_watchdog() {
    local limit="${PETREL_TEST_TIMEOUT:-1200}"
    local log
    log="$(mktemp)"
    local status=0
    # The watchdog: checks each second whether the run is over.
    (
        for ((second = 0; second < limit; second++)); do
            sleep 1
            [ -e "$log.over" ] && exit 0
        done
        touch "$log.expired"
        report_unfinished_tests "$log" "$limit" >&2
        pkill -TERM -f 'PetrelPackageTests\.xctest' 2>/dev/null || true
        sleep 30
        pkill -KILL -f 'PetrelPackageTests\.xctest' 2>/dev/null || true
    ) &
    local watchdog=$!
    # Line-buffered output, so the log holds every event up to a hang.
    stdbuf -oL -eL swift test "$@" 2>&1 | tee "$log" || status=$?
    touch "$log.over"
    wait "$watchdog" 2>/dev/null || true
    if [ -e "$log.expired" ]; then
        echo "error: the tests did not finish within $limit s (see above)" >&2
        status=124
    fi
    rm -f "$log" "$log.over" "$log.expired"
    return "$status"
}

# What a run that hangs was doing: the stacks of the test process's
# threads (when gdb is installed), the last lines of the log, and the tests
# started and not finished, in the order they started.
report_unfinished_tests() {
    local log="$1" limit="$2"
    # The test events are UTF-8 whatever the locale: match them as such.
    export LC_ALL=C.UTF-8
    local pid
    for pid in $(pgrep -f 'PetrelPackageTests\.xctest'); do
        if command -v gdb >/dev/null 2>&1; then
            echo "--- threads of the test process $pid:"
            timeout 120 gdb -p "$pid" -batch -nx -ex "set print frame-arguments none" -ex "thread apply all bt 25" 2>/dev/null \
                | grep -E '^(Thread|#)' | cut -c1-240 | head -600
        fi
    done
    echo "--- the last lines of the log:"
    tail -n 40 "$log"
    echo "error: the tests did not finish within $limit s; started and never finished, oldest first (all start at once: the stacks above say more):"
    awk '
        /^◇ Test .* started\.$/ && !/^◇ Test run started/ {
            name = $0; sub(/^◇ Test /, "", name); sub(/ started\.$/, "", name)
            if (!(name in started)) { started[name] = NR; order[++count] = name }
        }
        /^(✔|✘) Test .* (passed|failed) after / {
            name = $0; sub(/^(✔|✘) Test /, "", name); sub(/ (passed|failed) after .*$/, "", name)
            sub(/ with [0-9]+ test cases?$/, "", name)
            finished[name] = 1
        }
        END {
            shown = 0
            for (i = 1; i <= count; i++) if (!(order[i] in finished)) { if (shown++ < 80) print "  " order[i] }
            if (shown > 80) print "  ... and " (shown - 80) " more"
        }
    ' "$log"
}
