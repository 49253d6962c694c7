#!/bin/sh
# papi-fetch.sh CACHE_DIR - make sure Debian's PAPI 7.0.0 orig tarball is in
# CACHE_DIR, and print its path on the last line of stdout.
#
# A tarball already in CACHE_DIR is used as it is: nothing is fetched.
# Otherwise the source package "papi" is downloaded with
# `apt-get source --download-only`; if apt knows no source package yet, deb-src
# entries are derived from the machine's apt sources (apt-deb-src.sh, root
# only) and the package lists are updated first.
set -eu

want=7.0.0          # upstream version we build against
cache=${1:?usage: papi-fetch.sh CACHE_DIR}
here=$(cd "$(dirname "$0")" && pwd)

find_cached() {
	for t in "$cache"/papi_"$want".orig.tar.* "$cache"/papi_"$want".*.orig.tar.*; do
		[ -f "$t" ] && { printf '%s\n' "$t"; return 0; }
	done
	return 1
}

if t=$(find_cached); then
	echo "papi-fetch: using cached $t" >&2
	printf '%s\n' "$t"
	exit 0
fi

die() {
	echo "papi-fetch: $*" >&2
	echo "papi-fetch: alternatively give a PAPI source tree: ./configure --with-papi-src=DIR" >&2
	exit 1
}

command -v apt-get >/dev/null 2>&1 || die "apt-get not found: cannot fetch Debian's papi source package"

# The newest papi source version apt offers whose upstream part is $want.
src_version() {
	apt-cache showsrc papi 2>/dev/null | awk -v w="$want" '
		/^Version:/ { v = $2; u = v; sub(/^[0-9]+:/, "", u); sub(/-[^-]*$/, "", u)
			      if (u == w || index(u, w ".") == 1) print v }' | sort -V | tail -n 1
}

ver=$(src_version)
if [ -z "$ver" ]; then
	if [ "$(id -u)" != 0 ]; then
		die "apt knows no source package papi $want and enabling deb-src needs root;
  as root run: sh $here/apt-deb-src.sh && apt-get update"
	fi
	echo "papi-fetch: enabling deb-src entries derived from this machine's apt sources" >&2
	sh "$here/apt-deb-src.sh" >&2 || die "could not derive deb-src entries"
	echo "papi-fetch: apt-get update" >&2
	apt-get update >&2 || echo "papi-fetch: warning: apt-get update reported errors" >&2
	ver=$(src_version)
	[ -n "$ver" ] || die "apt offers no source package papi $want (apt-cache showsrc papi)"
fi

mkdir -p "$cache"
echo "papi-fetch: apt-get source --download-only papi=$ver (into $cache)" >&2
# apt-get downloads as root unsandboxed into the cache; its notice about that
# is harmless.
(cd "$cache" && apt-get source --download-only "papi=$ver" </dev/null >&2) ||
	die "apt-get source --download-only papi=$ver failed"
t=$(find_cached) || die "no papi_$want orig tarball in $cache after the download"
printf '%s\n' "$t"
