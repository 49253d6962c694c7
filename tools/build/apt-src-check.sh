#!/bin/sh
# apt-src-check.sh - apt-deb-src.sh adds deb-src entries and --remove (what
# make distclean runs) takes every one of them back, leaving apt's files as
# they were; in an APT_ETC of its own.  Prints "apt-src-check: N passed, N
# failed" like a test program.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
pass=0
fail=0
check() { if eval "$1"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL apt-src-check: $2" >&2; fi; }
codename=$(. /etc/os-release 2>/dev/null && printf '%s' "${VERSION_CODENAME:-}")
if [ -z "$codename" ]; then
	echo "apt-src-check: skipped: no VERSION_CODENAME in /etc/os-release"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
etc=$tmp/apt
mkdir -p "$etc/sources.list.d"
printf 'deb http://deb.example/debian %s main\n' "$codename" >"$etc/sources.list"
printf 'deb http://other.example/debian %s contrib\n' "$codename" >"$etc/sources.list.d/other.list"
printf 'Types: deb\nURIs: http://third.example/debian\nSuites: %s\nComponents: main\n' "$codename" \
	>"$etc/sources.list.d/third.sources"
cp -a "$etc" "$tmp/before"

APT_ETC=$etc sh "$top/tools/build/apt-deb-src.sh" >/dev/null 2>&1
check "grep -q '^deb-src http://deb.example/debian' '$etc/sources.list'" "deb-src added to sources.list"
check "[ -f '$etc/sources.list.d/pmon-deb-src.list' ]" "pmon-deb-src.list written"
check "[ -f '$etc/sources.list.d/pmon-deb-src.sources' ]" "pmon-deb-src.sources written"
APT_ETC=$etc sh "$top/tools/build/apt-deb-src.sh" --remove >/dev/null 2>&1
check "diff -r '$tmp/before' '$etc' >/dev/null" "after --remove apt's files differ: $(diff -r "$tmp/before" "$etc" | head -n 3 | tr '\n' ' ')"
out=$(APT_ETC=$etc sh "$top/tools/build/apt-deb-src.sh" --remove 2>&1)
check "[ -z \"\$out\" ]" "--remove with nothing to remove says '$out'"
echo "apt-src-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
