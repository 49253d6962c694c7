#!/bin/sh
# validate/break-all.sh PROG [ARGS...] - one breakage per event the suite
# checks: the plan (--list) names the events; for each, its event code is
# changed as a wrong table entry would (--break=code:EVENT) and the run must
# exit 1 (its checks FAIL).  An event on a fixed counter has no code: the
# run says it changed nothing (exit 2), counted apart.  Exit 1 if any
# breakage passed unnoticed.
prog=$1
shift
out=${PMON_VALIDATE_OUT:-build/validate-break}
mkdir -p "$out" || exit 2
events=$("$prog" --list --output "$out" "$@" 2>/dev/null |
	grep -o '::[A-Z0-9_]*' | sort -u | sed 's/^:://')
[ -n "$events" ] || { echo "validate-break: --list named no event"; exit 2; }
caught=0 fixed=0 missed=0
for ev in $events; do
	"$prog" --output "$out/$ev" --break="code:$ev" "$@" >"$out/$ev.out" 2>"$out/$ev.err"
	rc=$?
	if [ $rc -eq 1 ]; then
		caught=$((caught + 1))
		echo "caught  code:$ev ($(tail -2 "$out/$ev.out" | head -1 | cut -d';' -f1))"
	elif [ $rc -eq 2 ] && grep -q "changed no event" "$out/$ev.err"; then
		fixed=$((fixed + 1))
		echo "n/a     code:$ev (fixed counters only: no event code)"
	else
		missed=$((missed + 1))
		echo "MISSED  code:$ev (exit $rc)"
	fi
done
echo "validate-break: $caught caught, $missed missed, $fixed on fixed counters"
[ $missed -eq 0 ]
