#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/fail-loud.sh - bad input and failing steps must fail loudly: a
# non-zero exit, one line naming the problem and the fix, nothing left
# half-built.  Each case is a file tests/fail-loud/<case>.sh defining
# check_case, run in a subshell with a fresh scratch directory $T; stubs
# (commands put first on PATH from $T/bin) stand for slow or dangerous
# tools (make, dpkg-buildpackage, apt-get, lintian).
#
# Usage: tests/fail-loud.sh [CASE...]     (default: every case)
#
# Environment: KBS_OUT (default out/).

set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/kbuild-split.sh
. "$TOP/lib/kbuild-split.sh"
# shellcheck source=tests/lib/ktap.sh
. "$TOP/tests/lib/ktap.sh"

OUT=${KBS_OUT:-$TOP/out}
CASES=$TOP/tests/fail-loud
W=

cleanup() {
	if [ -n "$W" ]; then
		rm -rf "$W"
	fi
}

# stub NAME [SCRIPT]: a command NAME on $T/bin that logs its call to
# $T/calls and runs SCRIPT (default: exit 0)
stub() {
	mkdir -p "$T/bin"
	printf '#!/bin/sh\necho "%s $*" >> "%s/calls"\n%s\n' "$1" "$T" "${2:-exit 0}" > "$T/bin/$1"
	chmod 755 "$T/bin/$1"
}

# stub_build [KIND...]: a dpkg-buildpackage stub that makes, in ../, a
# small .deb of each package of the flavours debian/selection.mk names
# (amd64 ones), but those of the KINDs (image, kbuild, hostprogs, source,
# meta-image, meta-kbuild), and keeps a debian/build as a build does
stub_build() {
	# shellcheck disable=SC2016 # the stub's own variables
	stub dpkg-buildpackage 'skip=" '"$*"' "
sel() { sed -n "s/^KBS_$1 := //p" debian/selection.mk; }
n=$(sel ABINAME)
s=$(sel SERIES)
v=$(sel VERSION)
mkdir -p debian/build
make_deb() {
	case $skip in *" $1 "*) return 0 ;; esac
	mkdir -p "../$2/DEBIAN"
	printf "Package: %s\nVersion: %s\nArchitecture: %s\nMaintainer: t <t@t>\nDescription: t\n" "$2" "$v" "$3" \
		> "../$2/DEBIAN/control"
	dpkg-deb -b "../$2" "../$2_${v}_$3.deb" > /dev/null
	rm -rf "../$2"
}
make_deb source "linux-kbuild-source-$n" all
for f in $(sel FLAVOURS); do
	make_deb image "linux-image-$n-$f" amd64
	make_deb kbuild "linux-kbuild-$n-$f" amd64
	make_deb hostprogs "linux-kbuild-hostprogs-$n-$f" amd64
	make_deb meta-image "linux-image-$s-$f" amd64
	make_deb meta-kbuild "linux-kbuild-$s-$f" amd64
done'
}

# one_error_line FILE PATTERN: FILE (a command's stderr) is one line, an
# error matching PATTERN
one_error_line() {
	[ "$(wc -l < "$1")" -eq 1 ] || { echo "stderr has $(wc -l < "$1") lines, not one:"; head -n 5 "$1"; return 1; }
	grep -q "$2" "$1" || { echo "stderr does not say '$2': $(cat "$1")"; return 1; }
}

# run_case FILE: its check_case in a subshell with a scratch directory
run_case() {
	(
		T=$W/${1##*/}
		T=${T%.sh}
		mkdir -p "$T"
		PATH=$T/bin:$PATH
		# shellcheck source=/dev/null
		. "$1"
		check_case
	)
}

main() {
	trap cleanup EXIT
	mkdir -p "$OUT"
	W=$(mktemp -d "$OUT/fail-loud.XXXXXX")
	[ $# -gt 0 ] || set -- "$CASES"/*.sh
	ktap_plan $#
	for _c in "$@"; do
		[ -f "$_c" ] || _c=$CASES/$_c.sh
		ktap_check "$(sed -n 's/^# Help: *//p' "$_c")" run_case "$_c"
	done
	ktap_summary
}

main "$@"
