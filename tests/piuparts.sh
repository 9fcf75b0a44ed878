#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/piuparts.sh - Debian's piuparts on the built packages, against a
# bookworm base: install and purge in a fresh chroot, then the upgrade from
# the previous build to this one, checking that nothing is left behind and
# no file is broken.  Not part of tests/run: it debootstraps its own chroot
# and downloads gcc into it for every test, several minutes a flavour.
#
# Usage: tests/piuparts.sh [DEBDIR]     (default: out/debs)
#
# One piuparts run per flavour of this machine's architecture on its
# source, host programs, kbuild and image packages together.  The previous build is these packages with version V~prev
# (lower than V), in a local repository that piuparts's apt-get installs
# first; then piuparts installs the .debs over them.  Needs root and
# piuparts (apt-get install piuparts).
# Environment: KBS_OUT (default out/), KBS_FLAVOUR (default: every flavour),
# KBS_MIRROR (default: this machine's Debian mirror).

set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/kbuild-split.sh
. "$TOP/lib/kbuild-split.sh"

OUT=${KBS_OUT:-$TOP/out}
FLAVOUR=${KBS_FLAVOUR:-}
MIRROR=$(find_mirror)
BASE=$OUT/piuparts/bookworm.tgz

# make_prev_repo DIR DEB...: the "previous build" of DEBs as an apt repository
make_prev_repo() {
	_dir=$1
	shift
	rm -rf "$_dir"
	mkdir -p "$_dir"
	for _deb in "$@"; do
		bump_deb "$_deb" '~prev' "$_dir" > /dev/null
	done
	(cd "$_dir" && dpkg-scanpackages . > Packages 2> /dev/null)
}

# piuparts_run NAME DEB...: one piuparts run (install/purge, then upgrade from
# the previous build), its log kept
piuparts_run() {
	_name=$1
	shift
	_log=$OUT/piuparts/$_name.log
	_prev=$OUT/piuparts/prev-$_name
	rm -f "$_log" # piuparts appends to it
	make_prev_repo "$_prev" "$@"
	_base=-s # save the base chroot the first time, then reuse it
	[ ! -f "$BASE" ] || _base=-b
	piuparts -d bookworm -m "$MIRROR" "$_base" "$BASE" --bindmount="$_prev" \
		--extra-repo="deb [trusted=yes] file://$_prev ./" -l "$_log" "$@" > /dev/null 2>&1 ||
		{ grep -E 'FAIL|ERROR' "$_log" | tail -n 5; return 1; }
	for _pass in 'Installation and purging test' 'Installation, upgrade and purging tests'; do
		grep -q "INFO: PASS: $_pass" "$_log" || { echo "piuparts did not pass '$_pass'; see $_log"; return 1; }
		grep "INFO: PASS: $_pass" "$_log" | sed 's/^/# /'
	done
}

# test_release SOURCE.deb KBUILD.deb: piuparts on them, their host
# programs and their image
test_release() {
	_rel=$(dpkg-deb -f "$2" Package | sed 's/^linux-kbuild-//')
	_img=$(find "$DEBS" -maxdepth 1 -name "linux-image-${_rel}_*.deb" | sort -V | tail -n 1)
	_hp=$(find "$DEBS" -maxdepth 1 -name "linux-kbuild-hostprogs-${_rel}_*_$(dpkg --print-architecture).deb" | sort -V | tail -n 1)
	_t0=$(date +%s)
	ktap_check "piuparts: linux-kbuild-source + linux-kbuild-hostprogs + linux-kbuild + linux-image of $_rel" \
		piuparts_run "$_rel" "$1" "$_hp" "$2" "$_img"
	echo "# piuparts $_rel: $(($(date +%s) - _t0)) s, log $OUT/piuparts/$_rel.log"
}

main() {
	DEBS=${1:-$OUT/debs}
	need_cmd piuparts piuparts
	need_cmd dpkg-scanpackages dpkg-dev
	[ "$(id -u)" = 0 ] || die "piuparts needs root"
	mkdir -p "$OUT/piuparts"
	_sources=$(find "$DEBS" -maxdepth 1 -name 'linux-kbuild-source-*_all.deb' | sort -V)
	[ -n "$_sources" ] || die "no packages in $DEBS: run ./build-kernel.sh first"
	for _src in $_sources; do
		_kver=$(dpkg-deb -f "$_src" Package | sed 's/^linux-kbuild-source-//')
		for _kb in "$DEBS"/linux-kbuild-"$_kver"-${FLAVOUR:-*}_*_"$(dpkg --print-architecture)".deb; do
			[ -f "$_kb" ] || continue
			test_release "$_src" "$_kb"
		done
	done
	ktap_summary
}

main "$@"
