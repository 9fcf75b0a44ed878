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
# shellcheck source=lib/host.sh
. "$TOP/lib/host.sh"
# shellcheck source=tests/lib/ktap.sh
. "$TOP/tests/lib/ktap.sh"
# shellcheck source=lib/manifest.sh
. "$TOP/lib/manifest.sh"

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

# test_release SERIES FLAVOUR: piuparts on the source tree, host programs,
# kbuild and image packages of that flavour of SERIES' build
test_release() {
	_arch=$(dpkg --print-architecture)
	_src=$(manifest_get "$DEBS" file series="$1" kind=source) || exit 1
	_rel=$(manifest_get "$DEBS" abiname series="$1" kind=source)-$2 || exit 1
	_img=$(manifest_get "$DEBS" file series="$1" kind=image flavour="$2" arch="$_arch") || exit 1
	_kb=$(manifest_get "$DEBS" file series="$1" kind=kbuild flavour="$2" arch="$_arch") || exit 1
	_hp=$(manifest_get "$DEBS" file series="$1" kind=hostprogs flavour="$2" arch="$_arch") || exit 1
	_t0=$(date +%s)
	ktap_check "piuparts: linux-kbuild-source + linux-kbuild-hostprogs + linux-kbuild + linux-image of $_rel" \
		piuparts_run "$_rel" "$_src" "$_hp" "$_kb" "$_img"
	echo "# piuparts $_rel: $(($(date +%s) - _t0)) s, log $OUT/piuparts/$_rel.log"
}

main() {
	DEBS=${1:-$OUT/debs}
	need_cmd piuparts piuparts
	need_cmd dpkg-scanpackages dpkg-dev
	[ "$(id -u)" = 0 ] || die "piuparts needs root"
	mkdir -p "$OUT/piuparts"
	_series=$(manifest_series "$DEBS") || exit 1
	for _s in $_series; do
		for _f in $(manifest_list "$DEBS" flavour series="$_s" kind=kbuild arch="$(dpkg --print-architecture)"); do
			[ -z "${FLAVOUR:-}" ] || [ "$_f" = "$FLAVOUR" ] || continue
			test_release "$_s" "$_f"
		done
	done
	ktap_summary
}

main "$@"
