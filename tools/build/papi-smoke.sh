#!/bin/sh
# papi-smoke.sh - checks of the PAPI built with the pmon component, in the
# style of a test program: prints "papi-smoke: N passed, N failed".
#   - build/bin/papi_component_avail runs and lists the component pmon;
#   - build/lib/libpapi.so needs libpmon.so (one shared copy of libpmon);
#   - PAPI's utilities (libpapi.a inside) load libpmon.so from build/lib;
#   - papi_native_avail prints umask rows as users append them (":RD").
# Run from anywhere; PMON_BACKEND=sim comes from the runner.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/build/bin
lib=$top/build/lib
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL papi-smoke: $*" >&2; }

for u in papi_component_avail papi_native_avail papi_command_line; do
	if [ -x "$bin/$u" ]; then ok; else bad "$bin/$u missing"; fi
done
for f in "$lib/libpapi.so" "$lib/libpapi.a" "$top/build/include/papi.h"; do
	if [ -e "$f" ]; then ok; else bad "$f missing"; fi
done

out=$("$bin/papi_component_avail" 2>&1)
rc=$?
if [ "$rc" -eq 0 ]; then ok; else bad "papi_component_avail exit status $rc"; fi
if printf '%s\n' "$out" | grep -Eq 'Name: +pmon( |$)'; then ok; else
	bad "papi_component_avail does not list pmon:"
	printf '%s\n' "$out" | sed 's/^/    /' >&2
fi

rows=$("$bin/papi_native_avail" 2>&1 | grep -A16 '| pmon:::snbep_unc_imc0::UNC_M_CAS_COUNT ')
if printf '%s\n' "$rows" | grep -q '^|     :RD ' &&
   ! printf '%s\n' "$rows" | grep -q '::UNC_M_CAS_COUNT:RD'; then ok; else
	bad "papi_native_avail does not show the umask row as ':RD':"
	printf '%s\n' "$rows" | sed 's/^/    /' >&2
fi

if command -v readelf >/dev/null 2>&1; then
	if readelf -d "$lib/libpapi.so" | grep -q 'NEEDED.*\[libpmon\.so'; then ok; else
		bad "libpapi.so does not need libpmon.so"
	fi
	if readelf -d "$lib/libpapi.so" | grep -E 'R(UN)?PATH' | grep -qF "$top/build"; then
		bad "libpapi.so has a run path into the build tree"
	else ok; fi
fi
deps=$(ldd "$bin/papi_component_avail" 2>&1)
so=$(printf '%s\n' "$deps" | sed -n 's/^[[:space:]]*libpmon\.so\.[0-9]* => \([^ ]*\) .*/\1/p')
if [ -n "$so" ] && [ "$(cd "$(dirname "$so")" && pwd -P)" = "$(cd "$lib" && pwd -P)" ]; then ok; else
	bad "papi_component_avail does not load libpmon from $lib:"
	printf '%s\n' "$deps" | sed 's/^/    /' >&2
fi

echo "papi-smoke: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
