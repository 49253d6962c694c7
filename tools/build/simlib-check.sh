#!/bin/sh
# simlib-check.sh - the emulated machine as a library of its own, in the
# style of a test program (prints "simlib-check: N passed, N failed"):
#   - libpmon.so exports no pmon_sim_* function, libpmon-sim.so exports them;
#   - the pmon tool with PMON_BACKEND=sim loads libpmon-sim.so.<version> from
#     the directory libpmon.so was loaded from (a copy of both in a temporary
#     directory, taken through LD_LIBRARY_PATH), and refuses with a message
#     naming the file when it is missing or a symbolic link, and, run as
#     root, when the file or its directory can be written by group or others,
#     or a directory above it (unless sticky, as /tmp) or belongs to another user; a
#     symbolic link on the way is resolved and the library loaded from where
#     it leads.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
lib=$top/build/lib
pmon=$top/build/bin/pmon
pass=0
fail=0
check() { if eval "$1"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL simlib-check: $2" >&2; fi; }

version=$(sed -n 's/^#define PMON_VERSION_STRING "\(.*\)"/\1/p' "$top/include/pmon/pmon.h")
so=libpmon-sim.so.$version

n=$(nm -D --defined-only "$lib/libpmon.so.$version" | grep -c ' pmon_sim_')
check "[ '$n' -eq 0 ]" "libpmon.so exports $n pmon_sim_* symbols"
n=$(nm -D --defined-only "$lib/$so" | grep -c ' T pmon_sim_')
check "[ '$n' -ge 40 ]" "$so exports $n pmon_sim_* functions, want 40 or more"

# under build/: the test changes the modes of the directories above
tmp=$(mktemp -d "$top/build/simlib.XXXXXX")
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT INT TERM
d=$tmp/lib
mkdir "$d"
chmod 755 "$d"
cp "$lib/libpmon.so.$version" "$d/libpmon.so.0"
run() { LD_LIBRARY_PATH=$d PMON_BACKEND=sim PMON_SIM= "$pmon" info 2>&1 | head -n 1; }

out=$(run)
check "[ \"\$out\" = 'pmon: the emulated machine'\"'\"'s library $d/$so: No such file or directory (it is built and installed beside libpmon)' ]" \
	"missing library: '$out'"
ln -s "$lib/$so" "$d/$so"
out=$(run)
check "[ \"\$out\" = 'pmon: the emulated machine'\"'\"'s library $d/$so is not a regular file' ]" \
	"a symbolic link: '$out'"
rm "$d/$so"
cp "$lib/$so" "$d/$so"
chmod 755 "$d/$so"
out=$(run)
check "[ \"\$out\" = 'backend: sim' ]" "the library beside libpmon: '$out'"
if [ "$(id -u)" -eq 0 ]; then
	chmod 775 "$d/$so"
	out=$(run)
	check "echo \"\$out\" | grep -q \"the file $d/$so belongs to uid 0 with mode 775; pmon runs with privileges\"" \
		"a group-writable library as root: '$out'"
	chmod 755 "$d/$so"
	chmod 757 "$d"
	out=$(run)
	check "echo \"\$out\" | grep -q \"the directory $d belongs to uid 0 with mode 757; pmon runs with privileges\"" \
		"a world-writable directory as root: '$out'"
	chmod 755 "$d"
	# the directories above: $tmp (mode 700 from mktemp) made unsafe
	for how in 775 757; do
		chmod "$how" "$tmp"
		out=$(run)
		check "echo \"\$out\" | grep -q \"the directory $tmp, above libpmon's directory $d, belongs to uid 0 with mode $how; pmon runs with privileges\"" \
			"a directory above libpmon's of mode $how as root: '$out'"
	done
	# sticky and writable by all, as /tmp: safe above libpmon's directory
	# when it is root's (only an entry's owner can rename it there), not
	# when another user owns it; libpmon's own directory may not be one
	chmod 1777 "$tmp"
	out=$(run)
	check "[ \"\$out\" = 'backend: sim' ]" "a sticky directory of root's above libpmon's: '$out'"
	chmod 1777 "$d"
	out=$(run)
	check "echo \"\$out\" | grep -q \"the directory $d belongs to uid 0 with mode 1777; pmon runs with privileges\"" \
		"libpmon's own directory sticky and world-writable as root: '$out'"
	chmod 755 "$d"
	chown 65534 "$tmp"
	out=$(run)
	check "echo \"\$out\" | grep -q \"the directory $tmp, above libpmon's directory $d, belongs to uid 65534 with mode 1777\"" \
		"a sticky directory of another user above libpmon's as root: '$out'"
	chmod 755 "$tmp"
	out=$(run)
	check "echo \"\$out\" | grep -q \"the directory $tmp, above libpmon's directory $d, belongs to uid 65534 with mode 755\"" \
		"a directory above libpmon's of another user as root: '$out'"
	chown 0 "$tmp"
	chmod 700 "$tmp"
	out=$(run)
	check "[ \"\$out\" = 'backend: sim' ]" "safe again: '$out'"
	# a symbolic link on the way: resolved, the library loaded where it leads
	ln -s lib "$tmp/link"
	out=$(LD_LIBRARY_PATH=$tmp/link PMON_BACKEND=sim PMON_SIM= "$pmon" info 2>&1 | head -n 1)
	check "[ \"\$out\" = 'backend: sim' ]" "through a symbolic link: '$out'"
fi

echo "simlib-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
