#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/repro.sh - reproducibility: build the packages of the small
# flavour again, from the same commit and SOURCE_DATE_EPOCH (the
# debian/changelog date) but in another directory and without ccache, and
# compare them byte for byte with the ones in out/debs.
#
# Usage: tests/repro.sh [FLAVOUR [SERIES]]     (default: tiny 6.1)
#
# Every package of the rebuild (image, kbuild, host programs, metapackages,
# source tree) is compared; when they differ, the files that differ inside
# them are listed.
#
# What it took (measured): ccache without base_dir (with it, ccache makes
# the compiler's paths relative, __FILE__ escapes -fmacro-prefix-map and
# vmlinux differs from a build without ccache), and host programs built
# with -ffile-prefix-map (objtool's -g debug info, and so its build-id,
# held the build directory).  A second full build of both flavours would
# not fit CI's time, so the small flavour stands for both.
#
# Environment: KBS_OUT (default out/).

set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/kbuild-split.sh
. "$TOP/lib/kbuild-split.sh"
# shellcheck source=tests/lib/ktap.sh
. "$TOP/tests/lib/ktap.sh"
# shellcheck source=lib/manifest.sh
. "$TOP/lib/manifest.sh"

OUT=${KBS_OUT:-$TOP/out}
FLAVOUR=${1:-tiny}
SERIES=${2:-6.1}
AGAIN=$OUT/repro

# diff_debs A B: the paths whose contents differ between two .debs
diff_debs() {
	rm -rf "$AGAIN/x" "$AGAIN/y"
	dpkg-deb -R "$1" "$AGAIN/x"
	dpkg-deb -R "$2" "$AGAIN/y"
	diff -rq "$AGAIN/x" "$AGAIN/y" | sed "s:$AGAIN/[xy]/::g" | head -n 10
}

# compare PACKAGE ARCH: the rebuilt .deb is identical to the first one
compare() {
	_a=$(manifest_get "$OUT/debs" file series="$SERIES" package="$1" arch="$2") || return 1
	_b=$(manifest_get "$AGAIN/debs" file series="$SERIES" package="$1" arch="$2") || return 1
	cmp -s "$_a" "$_b" && return 0
	echo "$1 differs:"
	diff_debs "$_a" "$_b"
	return 1
}

main() {
	_kver=$(manifest_get "$OUT/debs" abiname series="$SERIES" kind=source) || exit 1
	_kernel=$SERIES
	rm -rf "$AGAIN"
	_t0=$(date +%s)
	if KBS_OUT=$AGAIN "$TOP/build-kernel.sh" --series "$_kernel" --flavours "$FLAVOUR" --no-ccache \
		> "$OUT/logs/repro-build.log" 2>&1; then
		ktap_ok "rebuild of $_kver-$FLAVOUR in another directory without ccache # $(($(date +%s) - _t0)) s"
	else
		ktap_fail "rebuild of $_kver-$FLAVOUR" "see $OUT/logs/repro-build.log"
		ktap_summary
		return 1
	fi
	for _d in $(manifest_debs "$AGAIN/debs"); do
		_p=$(dpkg-deb -f "$_d" Package)
		ktap_check "$_p is reproducible" compare "$_p" "$(dpkg-deb -f "$_d" Architecture)"
	done
	ktap_summary
}

main "$@"
