#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/piuparts.sh - Debian's piuparts on the built packages: install into
# a fresh bookworm chroot, remove, purge, and check that nothing is left
# behind and no file is broken.  Not part of tests/run (it debootstraps its
# own chroot, a few minutes); the upgrade from a previous build is covered
# by tests/maintscripts.sh, since piuparts only upgrades from the archive.
#
# Usage: tests/piuparts.sh [DEBDIR]     (default: out/debs)
#
# Runs one piuparts per flavour on the source, kbuild and image packages
# together.  Needs root and piuparts (apt-get install piuparts).
# Environment: KBS_OUT (default out/), KBS_MIRROR (default: deb.debian.org's).

set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/kbuild-split.sh
. "$TOP/lib/kbuild-split.sh"

OUT=${KBS_OUT:-$TOP/out}
MIRROR=${KBS_MIRROR:-$(sed -n 's/^URIs: *\(http[^ ]*\/debian\)$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
BASE=$OUT/piuparts/bookworm.tgz

# piuparts_run NAME DEB...: one piuparts run, its log kept
piuparts_run() {
	_name=$1
	shift
	_log=$OUT/piuparts/$_name.log
	if [ -f "$BASE" ]; then
		set -- -b "$BASE" "$@"
	else
		set -- -s "$BASE" "$@"
	fi
	piuparts -d bookworm -m "$MIRROR" --no-upgrade-test -l "$_log" "$@" > /dev/null 2>&1 ||
		{ grep -E 'FAIL|ERROR' "$_log" | tail -n 5; return 1; }
	grep -E '^[0-9:]+ PASS' "$_log" | tail -n 1 | sed 's/^/# /'
}

main() {
	DEBS=${1:-$OUT/debs}
	need_cmd piuparts piuparts
	[ "$(id -u)" = 0 ] || die "piuparts needs root"
	mkdir -p "$OUT/piuparts"
	_src=$(find "$DEBS" -maxdepth 1 -name 'linux-kbuild-source-*_all.deb' | sort -V | tail -n 1)
	[ -n "$_src" ] || die "no packages in $DEBS: run ./build-kernel.sh first"
	_kver=$(dpkg-deb -f "$_src" Package | sed 's/^linux-kbuild-source-//')
	for _kb in "$DEBS"/linux-kbuild-"$_kver"-*.deb; do
		_rel=$(dpkg-deb -f "$_kb" Package | sed 's/^linux-kbuild-//')
		_img=$(find "$DEBS" -maxdepth 1 -name "linux-image-${_rel}_*.deb" | sort -V | tail -n 1)
		ktap_check "piuparts: linux-kbuild-source + linux-kbuild + linux-image of $_rel" \
			piuparts_run "$_rel" "$_src" "$_kb" "$_img"
	done
	ktap_summary
}

main "$@"
