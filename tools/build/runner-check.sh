#!/bin/sh
# runner-check.sh - ctests/run.sh's output, in the style of a test program
# (prints "runner-check: N passed, N failed"): a program that passes shows
# its result line only, its other lines are left out; one that fails shows
# its whole output; PMON_TEST_VERBOSE=1 shows every output; the last line
# is "N passed, N failed, N skipped" as CI reads it.
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

echo "runner-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
