#!/bin/sh
# install-check.sh - what a new user does after `make install`, in the style
# of a test program: prints "install-check: N passed, N failed".
#   - make install DESTDIR=<tmp> PREFIX=/usr/local installs libpmon.pc, the
#     headers, both libraries and the emulated machine's (libpmon-sim.so),
#     the pmon tool and the four manual pages;
#   - an outside program builds with pkg-config and nothing else against the
#     installed tree (PKG_CONFIG_SYSROOT_DIR, as for any staged install):
#     shared, and then static once only libpmon.a is left (its private
#     libraries, libpci and hwloc, come from libpmon.pc); both run and encode
#     an event, and open the emulated machine (which needs hwloc);
#   - the installed pmon prints the version of pmon.h;
#   - make uninstall with the same DESTDIR removes every file.
# Run from anywhere; needs cc, pkg-config and make.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL install-check: $*" >&2; }
check() { if eval "$1"; then ok; else bad "$2"; fi; }

# under build/, not /tmp: run as root, libpmon loads the emulated machine's
# library only through directories no one else can write (src/sim_load.c)
tmp=$(mktemp -d "$top/build/install-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
dest=$tmp/root
prefix=/usr/local
root=$dest$prefix

if make -s -C "$top" install DESTDIR="$dest" PREFIX="$prefix" >"$tmp/install.log" 2>&1; then ok; else
	bad "make install failed:"; sed 's/^/    /' "$tmp/install.log" >&2
fi
for f in lib/pkgconfig/libpmon.pc lib/pkgconfig/libpmon-static.pc lib/libpmon.a lib/libpmon.so lib/libpmon-sim.so include/pmon/pmon.h \
	 include/pmon/sim.h include/pmon/metric.h bin/pmon share/man/man1/pmon.1 \
	 share/man/man1/pmon-stat.1 share/man/man3/libpmon.3 \
	 share/man/man7/pmon-events.7; do
	check "[ -e '$root/$f' ]" "$f not installed"
done
check "grep -q '^prefix=$prefix\$' '$root/lib/pkgconfig/libpmon.pc'" "libpmon.pc names the prefix"
# PAPI's libpapi.so.7.0 shadows Debian's where the loader searches the prefix
if grep -qsx "$prefix/lib" /etc/ld.so.conf /etc/ld.so.conf.d/*.conf; then
	check "grep -q 'warning: $prefix/lib/libpapi.so.7.0 has the soname of Debian' '$tmp/install.log'" \
		"make install PREFIX=$prefix does not warn that its libpapi shadows Debian's"
fi

version=$(sed -n 's/^#define PMON_VERSION_STRING "\(.*\)"/\1/p' "$top/include/pmon/pmon.h")
check "[ \"\$('$root/bin/pmon' --version)\" = 'pmon $version' ]" "installed pmon --version is not 'pmon $version'"

# The outside program: pmon.h's version, an encoding (CAS RD: event 0x04,
# umask 0x03), and the emulated machine's two sockets.
cat >"$tmp/outside.c" <<'PROG'
#include <stdio.h>
#include <pmon/pmon.h>
int main(void)
{
	pmon_encoding_t e;
	pmon_machine_t *m;
	char err[256];
	if (pmon_encode("snbep_unc_imc0::UNC_M_CAS_COUNT:RD", 2, 32, &e, err, sizeof err))
		return 1;
	if (pmon_machine_open(&m, "sim", err, sizeof err))
		return 2;
	printf("%s ctl=0x%llx sockets=%d\n", PMON_VERSION_STRING, (unsigned long long)e.ctl,
	       pmon_machine_nsockets(m));
	pmon_machine_close(m);
	return 0;
}
PROG
want="$version ctl=0x304 sockets=2"
export PKG_CONFIG_PATH="$root/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export PKG_CONFIG_SYSROOT_DIR=$dest
cc=${CC:-cc}

# shellcheck disable=SC2046
if $cc -o "$tmp/shared" "$tmp/outside.c" $(pkg-config --cflags --libs libpmon) >"$tmp/cc.log" 2>&1; then
	ok
	out=$(LD_LIBRARY_PATH=$root/lib PMON_SIM= "$tmp/shared" 2>&1)
	check "[ \"\$out\" = '$want' ]" "shared program printed '$out', want '$want'"
	check "readelf -d '$tmp/shared' | grep -q 'NEEDED.*libpmon\.so'" "shared program does not need libpmon.so"
else
	bad "shared build with pkg-config failed:"; sed 's/^/    /' "$tmp/cc.log" >&2
fi

# the libpmon(3) synopsis's static line, with libpmon.so installed beside
# libpmon.a: the program must not need libpmon.so
# shellcheck disable=SC2046
if $cc -o "$tmp/static2" "$tmp/outside.c" $(pkg-config --static --cflags --libs libpmon-static) \
	>"$tmp/cc.log" 2>&1; then
	ok
	out=$(PMON_SIM= "$tmp/static2" 2>&1)
	check "[ \"\$out\" = '$want' ]" "libpmon-static program printed '$out', want '$want'"
	check "! readelf -d '$tmp/static2' | grep -q 'NEEDED.*libpmon'" \
		"pkg-config --static libpmon-static links libpmon.so when both are installed"
else
	bad "static build with pkg-config --static libpmon-static failed:"; sed 's/^/    /' "$tmp/cc.log" >&2
fi

rm -f "$root"/lib/libpmon.so*
# shellcheck disable=SC2046
if $cc -o "$tmp/static" "$tmp/outside.c" $(pkg-config --static --cflags --libs libpmon) >"$tmp/cc.log" 2>&1; then
	ok
	out=$(PMON_SIM= "$tmp/static" 2>&1)
	check "[ \"\$out\" = '$want' ]" "static program printed '$out', want '$want'"
	check "! readelf -d '$tmp/static' | grep -q 'NEEDED.*libpmon'" "static program still needs libpmon.so"
else
	bad "static build with pkg-config --static failed:"; sed 's/^/    /' "$tmp/cc.log" >&2
fi

if make -s -C "$top" uninstall DESTDIR="$dest" PREFIX="$prefix" >"$tmp/uninstall.log" 2>&1; then ok; else
	bad "make uninstall failed:"; sed 's/^/    /' "$tmp/uninstall.log" >&2
fi
left=$(find "$dest" ! -type d | wc -l)
check "[ '$left' -eq 0 ]" "make uninstall left $left files: $(find "$dest" ! -type d | head -n 5 | tr '\n' ' ')"

echo "install-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
