#!/bin/sh
# apt-deb-src.sh - let apt fetch Debian source packages, using only the apt
# sources this machine already has.
#
# For every enabled "deb" entry of the running release (suite = the
# VERSION_CODENAME of /etc/os-release, or codename-something) that has no
# matching "deb-src" entry yet:
#   deb822 stanzas in /etc/apt/sources.list.d/*.sources
#       -> a stanza with "Types: deb-src" and the same URIs, Suites,
#          Components and Signed-By in /etc/apt/sources.list.d/pmon-deb-src.sources
#   one-line entries in /etc/apt/sources.list
#       -> a "deb-src" line appended to /etc/apt/sources.list
#   one-line entries in /etc/apt/sources.list.d/*.list
#       -> a "deb-src" line in /etc/apt/sources.list.d/pmon-deb-src.list
# No host name is written from here: everything is copied from those files.
# Prints what it changed.  Exit status: 0 if something usable exists after it
# ran, 1 if no entry could be derived.  Does not run apt-get update.
#
# APT_ETC overrides /etc/apt (tests).
#
# --remove (make distclean): take back what it added: its own two files, and
# in sources.list its marker comment with the deb-src lines right after it.
# Silent when there is nothing to remove; says what to run when it may not.
set -eu

etc=${APT_ETC:-/etc/apt}
own822="$etc/sources.list.d/pmon-deb-src.sources"
ownlist="$etc/sources.list.d/pmon-deb-src.list"
mainlist="$etc/sources.list"
marker="# deb-src added by pmon's build (tools/build/apt-deb-src.sh)"

if [ "${1:-}" = --remove ]; then
	in_main=0
	grep -qxF "$marker" "$mainlist" 2>/dev/null && in_main=1
	if [ ! -e "$own822" ] && [ ! -e "$ownlist" ] && [ "$in_main" = 0 ]; then
		exit 0
	fi
	if [ ! -w "$etc/sources.list.d" ]; then
		echo "apt-deb-src: pmon's build added deb-src entries to $etc; as root run:" \
		     "sh tools/build/apt-deb-src.sh --remove" >&2
		exit 0
	fi
	for f in "$own822" "$ownlist"; do
		[ -e "$f" ] && rm -f "$f" && echo "apt-deb-src: removed $f"
	done
	if [ "$in_main" = 1 ]; then
		awk -v m="$marker" '
			$0 == m { skip = 1; next }
			skip && /^deb-src[ \t]/ { next }
			{ skip = 0; print }' "$mainlist" >"$mainlist.pmon-tmp" &&
			cat "$mainlist.pmon-tmp" >"$mainlist" && rm -f "$mainlist.pmon-tmp" &&
			echo "apt-deb-src: removed pmon's deb-src lines from $mainlist"
	fi
	exit 0
fi

codename=
if [ -r /etc/os-release ]; then
	codename=$(. /etc/os-release && printf '%s' "${VERSION_CODENAME:-}")
fi
if [ -z "$codename" ]; then
	echo "apt-deb-src: no VERSION_CODENAME in /etc/os-release" >&2
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# Every source file apt reads, except the ones this script owns.
: >"$tmp/files822"
: >"$tmp/fileslist"
for f in "$etc"/sources.list.d/*.sources; do
	[ -f "$f" ] && [ "$f" != "$own822" ] && printf '%s\n' "$f" >>"$tmp/files822"
done
[ -f "$mainlist" ] && printf '%s\n' "$mainlist" >>"$tmp/fileslist"
for f in "$etc"/sources.list.d/*.list; do
	[ -f "$f" ] && [ "$f" != "$ownlist" ] && printf '%s\n' "$f" >>"$tmp/fileslist"
done

# The awk program reads deb822 files (mode 822) and one-line files (mode
# list) and writes:
#   have      "uri suite" pairs that already have deb-src
#   out822    derived deb822 stanzas
#   outlist   derived one-line entries, "<file>\t<line>"
# Pairs are compared after dropping a trailing "/" from the URI.
# shellcheck disable=SC2016
awkprog='
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
function normuri(u) { sub(/\/+$/, "", u); return u }
function suite_ok(s) {
	return s == codename || index(s, codename "-") == 1 || index(s, codename "/") == 1
}
function has_word(list, w,   n, a, i) {
	n = split(list, a, /[ \t]+/)
	for (i = 1; i <= n; i++) if (a[i] == w) return 1
	return 0
}
function flush822(   types, en, n, u, m, s, i, j, ok, txt, pair) {
	if (!nf) return
	types = val["types"]; en = tolower(trim(val["enabled"]))
	if (en != "no" && en != "false") {
		n = split(trim(val["uris"]), u, /[ \t\n]+/)
		m = split(trim(val["suites"]), s, /[ \t\n]+/)
		if (has_word(types, "deb-src")) {
			for (i = 1; i <= n; i++) for (j = 1; j <= m; j++)
				print normuri(u[i]) " " s[j] >> have
		}
		if (has_word(types, "deb")) {
			ok = 0
			for (j = 1; j <= m; j++) if (suite_ok(s[j])) ok = 1
			if (ok && n > 0) {
				txt = "Types: deb-src\n"
				if ("uris" in raw) txt = txt raw["uris"] "\n"
				if ("suites" in raw) txt = txt raw["suites"] "\n"
				if ("components" in raw) txt = txt raw["components"] "\n"
				if ("signed-by" in raw) txt = txt raw["signed-by"] "\n"
				pair = ""
				for (i = 1; i <= n; i++) for (j = 1; j <= m; j++)
					pair = pair normuri(u[i]) " " s[j] "\n"
				ncand++; cand[ncand] = txt; candpairs[ncand] = pair
			}
		}
	}
	nf = 0; cur = ""
	for (k in val) delete val[k]
	for (k in raw) delete raw[k]
}
FNR == 1 { if (mode == "822") flush822() }
mode == "822" {
	line = $0
	if (line ~ /^[ \t]*$/) { flush822(); next }
	if (line ~ /^#/) next
	if (line ~ /^[ \t]/) {
		if (cur != "") { val[cur] = val[cur] "\n" line; raw[cur] = raw[cur] "\n" line }
		next
	}
	p = index(line, ":")
	if (p == 0) next
	cur = tolower(trim(substr(line, 1, p - 1)))
	val[cur] = substr(line, p + 1); raw[cur] = line; nf++
	next
}
mode == "list" {
	line = trim($0)
	if (line == "" || line ~ /^#/) next
	sub(/[ \t]*#.*$/, "", line)
	type = line; sub(/[ \t].*$/, "", type)
	rest = trim(substr(line, length(type) + 1))
	opts = ""
	if (substr(rest, 1, 1) == "[") {
		p = index(rest, "]")
		if (p == 0) next
		opts = substr(rest, 1, p); rest = trim(substr(rest, p + 1))
	}
	n = split(rest, w, /[ \t]+/)
	if (n < 2) next
	if (type == "deb-src") { print normuri(w[1]) " " w[2] >> have; next }
	if (type != "deb" || !suite_ok(w[2])) next
	nl++
	lfile[nl] = FILENAME
	lline[nl] = "deb-src" (opts == "" ? "" : " " opts) " " rest
	lpair[nl] = normuri(w[1]) " " w[2]
	next
}
END {
	if (mode == "822") flush822()
	close(have)
	while ((getline l < have) > 0) got[l] = 1
	for (c = 1; c <= ncand; c++) {
		n = split(candpairs[c], pp, "\n"); need = 0
		for (i = 1; i <= n; i++) if (pp[i] != "" && !(pp[i] in got)) need = 1
		if (need) printf "%s\n", cand[c] >> out822
	}
	for (c = 1; c <= nl; c++) if (!(lpair[c] in got)) print lfile[c] "\t" lline[c] >> outlist
}
'

: >"$tmp/have"
: >"$tmp/out822"
: >"$tmp/outlist"
# Pass 1 collects the deb-src pairs of every file; pass 2 derives entries.
for pass in 1 2; do
	while IFS= read -r f; do
		awk -v mode=822 -v codename="$codename" -v have="$tmp/have.$pass" \
		    -v out822="$tmp/out822.$pass" -v outlist="$tmp/outlist.$pass" \
		    "$awkprog" "$f"
	done <"$tmp/files822"
	while IFS= read -r f; do
		awk -v mode=list -v codename="$codename" -v have="$tmp/have.$pass" \
		    -v out822="$tmp/out822.$pass" -v outlist="$tmp/outlist.$pass" \
		    "$awkprog" "$f"
	done <"$tmp/fileslist"
	if [ "$pass" = 1 ]; then
		# Pass 2 starts from the complete set of existing deb-src pairs.
		cat "$tmp"/have.1 >"$tmp/have.2" 2>/dev/null || : >"$tmp/have.2"
		rm -f "$tmp"/out822.1 "$tmp"/outlist.1
	fi
done
[ -f "$tmp/out822.2" ] && cp "$tmp/out822.2" "$tmp/out822"
[ -f "$tmp/outlist.2" ] && cp "$tmp/outlist.2" "$tmp/outlist"

changed=0
if [ -s "$tmp/out822" ]; then
	{
		echo "# Written by pmon's build (tools/build/apt-deb-src.sh): source"
		echo "# entries matching this machine's binary entries, for 'apt-get source'."
		echo
		cat "$tmp/out822"
	} >"$tmp/new822"
	if ! cmp -s "$tmp/new822" "$own822" 2>/dev/null; then
		cp "$tmp/new822" "$own822"
		chmod 644 "$own822"
		echo "apt-deb-src: wrote $own822:"
		sed 's/^/    /' "$tmp/out822"
		changed=1
	fi
fi
if [ -s "$tmp/outlist" ]; then
	# Lines derived from sources.list go back into it; the others go into
	# pmon-deb-src.list.
	while IFS="$(printf '\t')" read -r f l; do
		if [ "$f" = "$mainlist" ]; then dest=$mainlist; else dest=$ownlist; fi
		if ! grep -qxF "$l" "$dest" 2>/dev/null; then
			if [ "$dest" = "$mainlist" ] && ! grep -qxF "$marker" "$dest"; then
				echo "$marker" >>"$dest"
			fi
			printf '%s\n' "$l" >>"$dest"
			echo "apt-deb-src: added to $dest: $l"
			changed=1
		fi
	done <"$tmp/outlist"
fi

if [ "$changed" = 0 ]; then
	if [ -s "$tmp/have.2" ] || [ -s "$own822" ] || [ -s "$ownlist" ]; then
		echo "apt-deb-src: deb-src entries already configured"
		exit 0
	fi
	echo "apt-deb-src: found no '$codename' deb entry in $etc to derive deb-src entries from" >&2
	exit 1
fi
exit 0
