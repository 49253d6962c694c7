#!/bin/sh
# run.sh - run test programs and add up their results.
#
#   sh ctests/run.sh [--lsan-probe PROG] [--group] [-e VAR=VALUE]... TEST|DIR...
#                    [--group [-e VAR=VALUE]... TEST|DIR...]...
#
# Each test program prints its own line "<name>: N passed, N failed"
# (ctests/check.h); the last such line of its output is its result.  A
# program that prints no such line, is killed by a signal or times out, or
# exits non-zero while reporting no failure, counts as one more failure, and
# its name is printed.  A program that cannot run here (check_skip() in
# ctests/check.h: a line "<name>: skipped: <why>" and exit status 77) counts
# as one skipped program, never as passed.  The output ends with exactly one
# line "N passed, N failed, N skipped": checks passed and failed summed over
# all programs, and skipped programs; the exit status is 1 if anything
# failed.  No test at all is not an error ("0 passed, 0 failed, 0 skipped").
#
# -e VAR=VALUE   environment of the tests that follow, up to the next --group
#                (the PAPI-level tests get -e PMON_BACKEND=sim from make)
# DIR            every executable test_* in DIR
# --lsan-probe   sanitizer run: PROG is a program built with ASan that leaks
#                on purpose.  If LeakSanitizer reports its leak, leak
#                detection stays on; if LeakSanitizer cannot run here (it
#                needs ptrace-like access that some sandboxes refuse),
#                ASAN_OPTIONS gets detect_leaks=0, and the runner says so.
# PMON_TEST_TIMEOUT   seconds per program (default 600)
set -u

timeout_s=${PMON_TEST_TIMEOUT:-600}
passed=0
failed=0
skipped=0
nprog=0
broken=
skips=
genv=
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# Sanitizer defaults; the caller's settings come last and win.
setup_sanitizers() {
	probe=$1
	asan_base="abort_on_error=0:halt_on_error=1:detect_stack_use_after_return=1"
	UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
	export UBSAN_OPTIONS
	lsan=1
	if [ ! -x "$probe" ]; then
		echo "run.sh: no LeakSanitizer probe $probe; leak detection off"
		lsan=0
	else
		ASAN_OPTIONS="detect_leaks=1" "$probe" >"$tmp/probe" 2>&1
		if grep -q 'ERROR: LeakSanitizer: detected memory leaks' "$tmp/probe"; then
			echo "run.sh: LeakSanitizer works here: leak detection on"
		else
			lsan=0
			echo "run.sh: LeakSanitizer does not work here:" \
			     "$(grep -m1 -i 'LeakSanitizer' "$tmp/probe" || head -n 1 "$tmp/probe")"
			echo "run.sh: ASAN_OPTIONS gets detect_leaks=0"
		fi
	fi
	ASAN_OPTIONS="$asan_base:detect_leaks=$lsan${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
	export ASAN_OPTIONS
}

run_one() {
	t=$1
	nprog=$((nprog + 1))
	# shellcheck disable=SC2086
	env $genv timeout -k 10 "$timeout_s" "$t" >"$tmp/out" 2>&1 </dev/null
	rc=$?
	cat "$tmp/out"
	line=$(grep -E '^[^ ]+: [0-9]+ passed, [0-9]+ failed$' "$tmp/out" | tail -n 1)
	why=
	if [ -n "$line" ]; then
		p=$(printf '%s\n' "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed$/\1/')
		f=$(printf '%s\n' "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed$/\2/')
		passed=$((passed + p))
		failed=$((failed + f))
	fi
	if [ "$rc" -eq 77 ] && grep -q '^[^ ]*: skipped: ' "$tmp/out"; then
		skipped=$((skipped + 1))
		skips="$skips
  $t: $(grep -m1 '^[^ ]*: skipped: ' "$tmp/out" | sed 's/^[^ ]*: skipped: //')"
	elif [ "$rc" -eq 124 ]; then
		why="timed out after ${timeout_s}s"
	elif [ "$rc" -gt 128 ]; then
		why="killed by signal $((rc - 128))"
	elif [ -z "$line" ]; then
		why="exit status $rc, no result line"
	elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		why="exit status $rc after reporting no failure"
	fi
	if [ -n "$why" ]; then
		failed=$((failed + 1))
		broken="$broken
  $t: $why"
		echo "FAILED: $t: $why"
	fi
}

run_path() {
	if [ -d "$1" ]; then
		for t in "$1"/test_*; do
			[ -f "$t" ] && [ -x "$t" ] && run_one "$t"
		done
	elif [ -e "$1" ]; then
		run_one "$1"
	else
		failed=$((failed + 1))
		broken="$broken
  $1: not found"
		echo "FAILED: $1: not found"
	fi
}

while [ $# -gt 0 ]; do
	case $1 in
	--group) genv= ;;
	--lsan-probe) shift; setup_sanitizers "${1:?--lsan-probe needs a program}" ;;
	-e) shift; genv="$genv ${1:?-e needs VAR=VALUE}" ;;
	*) run_path "$1" ;;
	esac
	shift
done

if [ -n "$broken" ]; then
	echo "programs that failed without a result, or crashed:$broken"
fi
if [ -n "$skips" ]; then
	echo "programs skipped (they cannot run here):$skips"
fi
echo "($nprog test programs)"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
