#!/bin/sh
# runner-check.sh - ctests/run.sh's output, in the style of a test program
# (prints "runner-check: N passed, N failed"): a program that passes shows
# its result line only, its other lines are left out; one that fails shows
# its whole output; PMON_TEST_VERBOSE=1 shows every output; the last line
# is "N passed, N failed, N skipped" as CI reads it.  With --times: each
# program's CPU and wall time written; the next run starts programs with
# no time first, then by CPU time, longest first, the results still in the
# order given; a program of little CPU time runs beside the others, not in
# their slots.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
pass=0
fail=0
check() { if eval "$1"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL runner-check: $2" >&2; fi; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
printf '#!/bin/sh\necho "noise of a passing program"\necho "test_good: 3 passed, 0 failed"\n' >"$tmp/test_good"
printf '#!/bin/sh\necho "what went wrong"\necho "test_bad: 1 passed, 2 failed"\nexit 1\n' >"$tmp/test_bad"
chmod +x "$tmp/test_good" "$tmp/test_bad"

sh "$top/ctests/run.sh" "$tmp/test_good" >"$tmp/good.out" 2>&1
check "[ \$? -eq 0 ]" "a passing program: exit status 0"
check "! grep -q 'noise of a passing program' '$tmp/good.out'" "a passing program's other lines are shown"
check "grep -qx 'test_good: 3 passed, 0 failed' '$tmp/good.out'" "a passing program's result line is not shown"
check "[ \"\$(tail -n 1 '$tmp/good.out')\" = '3 passed, 0 failed, 0 skipped' ]" \
	"last line '$(tail -n 1 "$tmp/good.out")'"
check "[ \$(wc -l <'$tmp/good.out') -eq 3 ]" "a passing run is 3 lines: $(wc -l <"$tmp/good.out")"

sh "$top/ctests/run.sh" "$tmp/test_good" "$tmp/test_bad" >"$tmp/bad.out" 2>&1
check "[ \$? -ne 0 ]" "a failing program: exit status not 0"
check "grep -q 'what went wrong' '$tmp/bad.out'" "a failing program's output is not shown whole"
check "[ \"\$(tail -n 1 '$tmp/bad.out')\" = '4 passed, 2 failed, 0 skipped' ]" \
	"last line '$(tail -n 1 "$tmp/bad.out")'"

PMON_TEST_VERBOSE=1 sh "$top/ctests/run.sh" "$tmp/test_good" >"$tmp/verbose.out" 2>&1
check "grep -q 'noise of a passing program' '$tmp/verbose.out'" "PMON_TEST_VERBOSE=1 shows every line"

# --times: one line "CPU_MS WALL_MS PROGRAM" per program that ran
sh "$top/ctests/run.sh" --times "$tmp/times" "$tmp/test_good" "$tmp/test_bad" >/dev/null 2>&1
check "[ \$(grep -cE '^[0-9]+ [0-9]+ $tmp/test_(good|bad)\$' '$tmp/times') -eq 2 ]" \
	"--times: a line for each program: $(tr '\n' '|' <"$tmp/times" 2>/dev/null)"

# The order: one at a time, the last run's times say test_x took more CPU
# than test_y; test_z (new) has no time.  Given y x z, they start z x y and
# their results are printed y x z.
for p in x y z; do
	printf '#!/bin/sh\necho %s >>"%s/started"\necho "test_%s: 1 passed, 0 failed"\n' "$p" "$tmp" "$p" >"$tmp/test_$p"
	chmod +x "$tmp/test_$p"
done
printf '2000 2000 %s/test_x\n1000 1000 %s/test_y\n' "$tmp" "$tmp" >"$tmp/times-xyz"
PMON_TEST_JOBS=1 sh "$top/ctests/run.sh" --times "$tmp/times-xyz" "$tmp/test_y" "$tmp/test_x" "$tmp/test_z" \
	>"$tmp/xyz.out" 2>&1
check "[ \"\$(tr -d '\n' <'$tmp/started')\" = zxy ]" "start order '$(tr -d '\n' <"$tmp/started" 2>/dev/null)', want zxy"
check "[ \"\$(grep -o '^test_[xyz]' '$tmp/xyz.out' | tr -d '\n')\" = test_ytest_xtest_z ]" \
	"results not in the order given: $(tr '\n' '|' <"$tmp/xyz.out")"

# test_NAME: marks itself started, then waits (bounded: 2 s) for test_OTHER
# to have started, and passes only if it did: two such programs pass only
# when they run at the same time.
waits_for() {
	printf '#!/bin/sh\ntouch "%s/%s-on"\ni=0\nwhile [ $i -lt 40 ] && [ ! -e "%s/%s-on" ]; do sleep 0.05; i=$((i + 1)); done\n' \
		"$tmp" "$1" "$tmp" "$2" >"$tmp/test_$1"
	printf '[ -e "%s/%s-on" ] && echo "test_%s: 1 passed, 0 failed" || echo "test_%s: 0 passed, 1 failed"\n' \
		"$tmp" "$2" "$1" "$1" >>"$tmp/test_$1"
	chmod +x "$tmp/test_$1"
}

# A light program (under 1000 ms of CPU in the last run, whatever its wall
# time, or under 2000 ms and half its wall time) runs beside a heavy one even with one
# slot: each waits (bounded) for the other to have started.  Without the
# times they run one after the other and both fail.
waits_for heavy light
waits_for light heavy
for light in "400 400" "900 9000" "1900 9000"; do
	printf '1000 1000 %s/test_heavy\n%s %s/test_light\n' "$tmp" "$light" "$tmp" >"$tmp/times-hl"
	PMON_TEST_JOBS=1 sh "$top/ctests/run.sh" --times "$tmp/times-hl" "$tmp/test_heavy" "$tmp/test_light" \
		>"$tmp/hl.out" 2>&1
	check "[ \"\$(tail -n 1 '$tmp/hl.out')\" = '2 passed, 0 failed, 0 skipped' ]" \
		"a light program ($light ms) beside a heavy one with one slot: $(tail -n 1 "$tmp/hl.out")"
	rm -f "$tmp/heavy-on" "$tmp/light-on"
done
# 3000 ms of CPU in 9000 ms is heavy however long it waited (after a run
# beside other jobs most programs wait more than half their time): the two
# one after the other, and the first fails.
printf '1000 1000 %s/test_heavy\n3000 9000 %s/test_light\n' "$tmp" "$tmp" >"$tmp/times-hl"
PMON_TEST_JOBS=1 sh "$top/ctests/run.sh" --times "$tmp/times-hl" "$tmp/test_heavy" "$tmp/test_light" \
	>"$tmp/hl3.out" 2>&1
check "[ \"\$(tail -n 1 '$tmp/hl3.out')\" = '1 passed, 1 failed, 0 skipped' ]" \
	"3000 ms of CPU in 9000 ms is heavy: $(tail -n 1 "$tmp/hl3.out")"
rm -f "$tmp/heavy-on" "$tmp/light-on"
PMON_TEST_JOBS=1 sh "$top/ctests/run.sh" "$tmp/test_heavy" "$tmp/test_light" >"$tmp/hl0.out" 2>&1
check "[ \"\$(tail -n 1 '$tmp/hl0.out')\" = '1 passed, 1 failed, 0 skipped' ]" \
	"without times, one slot: one after the other: $(tail -n 1 "$tmp/hl0.out")"

# Once no heavy program is left to start, a heavy slot takes light ones: a
# heavy program that ends at once and two light ones that each wait
# (bounded) for the other to have started, one slot: the light slot starts
# one, the heavy slot the other.  (Light programs only in the light slot
# ran one after the other, and the first failed.)
waits_for la lb
waits_for lb la
printf '#!/bin/sh\necho "test_h: 1 passed, 0 failed"\n' >"$tmp/test_h"
chmod +x "$tmp/test_h"
printf '1000 1000 %s/test_h\n400 400 %s/test_la\n300 300 %s/test_lb\n' "$tmp" "$tmp" "$tmp" >"$tmp/times-hll"
PMON_TEST_JOBS=1 sh "$top/ctests/run.sh" --times "$tmp/times-hll" "$tmp/test_h" "$tmp/test_la" "$tmp/test_lb" \
	>"$tmp/hll.out" 2>&1
check "[ \"\$(tail -n 1 '$tmp/hll.out')\" = '3 passed, 0 failed, 0 skipped' ]" \
	"two light programs at once, one in the heavy slot left free: $(tail -n 1 "$tmp/hll.out")"

echo "runner-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
