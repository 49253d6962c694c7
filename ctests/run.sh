#!/bin/sh
# run.sh - run test programs and add up their results.
#
#   sh ctests/run.sh [--lsan-probe PROG] [--times FILE] [--group]
#                    [-e VAR=VALUE]... TEST|DIR...
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
# The programs are independent (each makes its own temporary files), so they
# run several at a time (PMON_TEST_JOBS, default: the number of CPUs); each
# one's output is kept apart and printed whole, in the order given, as soon
# as it and the ones before it have ended.
#
# --times FILE   the CPU and wall time of each program in the last run
#                (written at the end of every run, one line "CPU_MS WALL_MS
#                PROGRAM" each): this run starts the programs it has no
#                time for first (a new test never starts last), then the
#                others by their CPU time, longest first.  A light program
#                runs in a second set of half as many slots (at least one)
#                beside the first, longest wall time first, and in the
#                first set's slots too once no other program is left for
#                them to start: light, one whose CPU time was under
#                PMON_TEST_LIGHT_MS (default 1000), or under twice that and
#                under half its wall time (it mostly waited: sleeps, a child
#                that takes its time; not more: after a run beside other
#                jobs, when every program's share fell, the next would find
#                most programs light).  Such a program need not hold a CPU's slot.  Half:
#                programs that time a window of wall-clock time
#                (pmon-validate's clock kernel) see more of their machine
#                the fewer run at once.  Under half: under other jobs' load
#                every program's share of the wall time falls, to about
#                two thirds for three programs on two CPUs.
#                Without the file (a first run), the order given, every
#                program in the first set.
#
# -e VAR=VALUE   environment of the tests that follow, up to the next --group
#                (the PAPI-level tests get -e PMON_BACKEND=sim from make)
# DIR            every executable test_* in DIR
# --times FILE   see above
# --lsan-probe   sanitizer run: PROG is a program built with ASan that leaks
#                on purpose.  If LeakSanitizer reports its leak, leak
#                detection stays on; if LeakSanitizer cannot run here (it
#                needs ptrace-like access that some sandboxes refuse),
#                ASAN_OPTIONS gets detect_leaks=0, and the runner says so.
# PMON_TEST_TIMEOUT   seconds per program (default 600)
# PMON_TEST_VERBOSE   non-empty: print every program's whole output (by
#                     default a program that passed shows its result line
#                     only, one that failed its whole output)
# PMON_TEST_JOBS      programs run at once (default: the number of CPUs)
set -u

# One program, run by xargs below: run.sh --one DIR IDX runs the program
# named in DIR/IDX.prog with the environment in DIR/IDX.env, its output in
# DIR/IDX.out and its exit status in DIR/IDX.rc (written last: it marks the
# end).
if [ "${1:-}" = --one ]; then
	d=$2
	i=$3
	timeout_s=${PMON_TEST_TIMEOUT:-600}
	IFS= read -r t <"$d/$i.prog"
	IFS= read -r genv <"$d/$i.env"
	t0=$(date +%s%N)
	# shellcheck disable=SC2086
	env $genv timeout -k 10 "$timeout_s" "$t" >"$d/$i.out" 2>&1 </dev/null
	rc=$?
	# its time: wall from the clock, CPU from this shell's waited-for
	# children (fields 16 and 17 of /proc/self/stat, in clock ticks)
	t1=$(date +%s%N)
	if [ -r /proc/$$/stat ] && tick=$(getconf CLK_TCK 2>/dev/null); then
		IFS= read -r st </proc/$$/stat
		# shellcheck disable=SC2086
		set -- ${st##*) }
		case $t0$t1$tick${14}${15} in
		*[!0-9]*) ;;
		*) echo "$(( (${14} + ${15}) * 1000 / tick )) $(( (t1 - t0) / 1000000 ))" >"$d/$i.time" ;;
		esac
	fi
	echo $rc >"$d/$i.rc.tmp"
	mv "$d/$i.rc.tmp" "$d/$i.rc"
	exit 0
fi

timeout_s=${PMON_TEST_TIMEOUT:-600}
jobs=${PMON_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
light_ms=${PMON_TEST_LIGHT_MS:-1000}
case $light_ms in
''|*[!0-9]*) echo "run.sh: PMON_TEST_LIGHT_MS=$light_ms: want a number of milliseconds"; exit 2 ;;
esac
case $jobs in
''|*[!0-9]*|0) echo "run.sh: PMON_TEST_JOBS=$jobs: want a number of programs, 1 or more"; exit 2 ;;
esac
passed=0
failed=0
skipped=0
nprog=0
broken=
skips=
genv=
times=
tmp=$(mktemp -d)
runners=
trap '[ -n "$runners" ] && kill $runners 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

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

# Queue a program (IDX.prog, IDX.env); a missing one is queued too, so that
# its failure is told in its place.
queue() {
	nprog=$((nprog + 1))
	printf '%s\n' "$1" >"$tmp/$nprog.prog"
	printf '%s\n' "$genv" >"$tmp/$nprog.env"
	[ -e "$1" ] || : >"$tmp/$nprog.missing"
}

queue_path() {
	if [ -d "$1" ]; then
		for t in "$1"/test_*; do
			[ -f "$t" ] && [ -x "$t" ] && queue "$t"
		done
	else
		queue "$1"
	fi
}

# Add up program IDX's result (its output, its exit status).
tally() {
	i=$1
	read -r t <"$tmp/$i.prog"
	if [ -e "$tmp/$i.missing" ]; then
		failed=$((failed + 1))
		broken="$broken
  $t: not found"
		echo "FAILED: $t: not found"
		return
	fi
	if [ ! -e "$tmp/$i.rc" ]; then
		failed=$((failed + 1))
		broken="$broken
  $t: did not end (the runner of the programs stopped)"
		echo "FAILED: $t: did not end (the runner of the programs stopped)"
		return
	fi
	read -r rc <"$tmp/$i.rc"
	line=$(grep -E '^[^ ]+: [0-9]+ passed, [0-9]+ failed$' "$tmp/$i.out" | tail -n 1)
	why=
	if [ -n "$line" ]; then
		p=$(printf '%s\n' "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed$/\1/')
		f=$(printf '%s\n' "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed$/\2/')
		passed=$((passed + p))
		failed=$((failed + f))
	fi
	if [ "$rc" -eq 77 ] && grep -q '^[^ ]*: skipped: ' "$tmp/$i.out"; then
		skipped=$((skipped + 1))
		skips="$skips
  $t: $(grep -m1 '^[^ ]*: skipped: ' "$tmp/$i.out" | sed 's/^[^ ]*: skipped: //')"
	elif [ "$rc" -eq 124 ]; then
		why="timed out after ${timeout_s}s"
	elif [ "$rc" -gt 128 ]; then
		why="killed by signal $((rc - 128))"
	elif [ -z "$line" ]; then
		why="exit status $rc, no result line"
	elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		why="exit status $rc after reporting no failure"
	fi
	# a program that passed shows its result line (or its skip line); one
	# that failed, or every one with PMON_TEST_VERBOSE=1, its whole output
	whole=${PMON_TEST_VERBOSE:-}
	[ -n "$why" ] && whole=1
	{ [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ]; } && whole=1
	{ [ -n "$line" ] && [ "$f" -ne 0 ]; } && whole=1
	if [ -n "$whole" ]; then
		cat "$tmp/$i.out"
	elif [ "$rc" -eq 77 ]; then
		grep -m1 '^[^ ]*: skipped: ' "$tmp/$i.out"
	else
		printf '%s\n' "$line"
	fi
	if [ -n "$why" ]; then
		failed=$((failed + 1))
		broken="$broken
  $t: $why"
		echo "FAILED: $t: $why"
	fi
}

while [ $# -gt 0 ]; do
	case $1 in
	--group) genv= ;;
	--lsan-probe) shift; setup_sanitizers "${1:?--lsan-probe needs a program}" ;;
	--times) shift; times=${1:?--times needs a file} ;;
	-e) shift; genv="$genv ${1:?-e needs VAR=VALUE}" ;;
	*) queue_path "$1" ;;
	esac
	shift
done

# Run the programs that exist, $jobs at a time (and the light ones half as
# many more at a time beside them, and in the $jobs slots once the others
# have all started), and print the results in order as they come.
# A program whose end mark never comes (the runner itself was killed) is
# told as such; the wait is bounded by each program's own timeout.
i=1
while [ "$i" -le "$nprog" ]; do
	[ -e "$tmp/$i.missing" ] || printf '%s %s\n' "$i" "$(cat "$tmp/$i.prog")"
	i=$((i + 1))
done >"$tmp/queued"
# The order and the set of each program from the last run's times (a line
# "CPU_MS WALL_MS PROGRAM"; unknown or malformed lines count as no time):
# IDX and a sort key into heavy (no time first, in the order given, then
# CPU time descending) and light (wall time descending): light, a program
# of little CPU time, or one that waited more than it ran.
[ -n "$times" ] && [ -r "$times" ] && cp "$times" "$tmp/last" 2>/dev/null || : >"$tmp/last"
awk -v light="$light_ms" -v dir="$tmp" -v last="$tmp/last" '
	FILENAME == last { if ($1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && NF >= 3) {
			p = substr($0, length($1) + length($2) + 3); cpu[p] = $1; wall[p] = $2 }
		    next }
	{ i = $1; p = substr($0, length($1) + 2)
	  if (!(p in cpu)) printf "%d %010d\n", i, i > (dir "/heavy")
	  else if (cpu[p] + 0 < light + 0 || (2 * cpu[p] < wall[p] + 0 && cpu[p] + 0 < 2 * light))
		printf "%d %010d\n", i, 999999999 - wall[p] > (dir "/light")
	  else printf "%d %010d\n", i, 999999999 - cpu[p] + 0 > (dir "/heavy2") }
' "$tmp/last" "$tmp/queued"
for f in heavy heavy2 light; do
	[ -e "$tmp/$f" ] || : >"$tmp/$f"
done
{ sort -k2,2 -s "$tmp/heavy"; sort -k2,2 -s "$tmp/heavy2"; } | cut -d' ' -f1 >"$tmp/list"
sort -k2,2 -s "$tmp/light" | cut -d' ' -f1 >"$tmp/list2"
self=$0
# A slot is a loop that starts, one after the other, the programs of its
# lists that no slot has taken yet (mkdir IDX.claim takes one: it succeeds
# once): the $jobs slots the heavy list, then the light one (once no heavy
# program is left to start, such a slot takes light ones rather than stay
# empty); the others the light list only.
slot() {
	for l in "$@"; do
		while IFS= read -r i; do
			mkdir "$tmp/$i.claim" 2>/dev/null || continue
			sh "$self" --one "$tmp" "$i" </dev/null
		done <"$tmp/$l"
	done
}
n=0
while [ "$n" -lt "$jobs" ]; do
	slot list list2 &
	runners="$runners $!"
	n=$((n + 1))
done
n=0
while [ -s "$tmp/list2" ] && [ "$n" -lt $(( (jobs + 1) / 2 )) ]; do
	slot list2 &
	runners="$runners $!"
	n=$((n + 1))
done
running() {
	for r in $runners; do
		kill -0 "$r" 2>/dev/null && return 0
	done
	return 1
}
i=1
while [ "$i" -le "$nprog" ]; do
	if [ ! -e "$tmp/$i.missing" ]; then
		while [ ! -e "$tmp/$i.rc" ] && running; do
			sleep 0.05
		done
	fi
	tally "$i"
	i=$((i + 1))
done
for r in $runners; do
	wait "$r" 2>/dev/null
done
runners=

# This run's times, for the next run's order (programs without one left
# out); written whole, then moved into place.
if [ -n "$times" ]; then
	i=1
	while [ "$i" -le "$nprog" ]; do
		if [ -s "$tmp/$i.time" ]; then
			IFS= read -r tm <"$tmp/$i.time"
			printf '%s %s\n' "$tm" "$(cat "$tmp/$i.prog")"
		fi
		i=$((i + 1))
	done >"$tmp/times.new"
	{ cp "$tmp/times.new" "$times.tmp" && mv "$times.tmp" "$times"; } 2>/dev/null ||
		echo "run.sh: could not write the times to $times"
fi

if [ -n "$broken" ]; then
	echo "programs that failed without a result, or crashed:$broken"
fi
if [ -n "$skips" ]; then
	echo "programs skipped (they cannot run here):$skips"
fi
echo "($nprog test programs)"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
