#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/sbuild.sh - a clean-room build: the source package that
# build-kernel.sh made (the .dsc out/debs/manifest names) built
# by sbuild in a fresh bookworm chroot, which has nothing but
# build-essential and what Build-Depends names: so Build-Depends must be
# complete, and name the linux-source version debian/rules requires.  Its
# .debs are then compared with the local build's in out/debs: byte for
# byte (the build is reproducible across directories and without ccache,
# as the farm suite checks with ccache), else the files that differ are
# listed.
#
# Not in tests/run: the chroot, its build dependencies and a build of the
# selection without ccache take about half an hour on 2 cores.
#
# Usage: tests/sbuild.sh [SERIES]     (default: 6.1)
#
# Needs root: sbuild-createchroot makes /srv/chroot/kbs-bookworm-<arch>
# (schroot), once.  Environment: KBS_OUT (default out/), KBS_MIRROR.

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
SERIES=${1:-6.1}
ARCH=$(dpkg --print-architecture)
# sbuild-createchroot names the schroot <prefix>-<arch>-sbuild
CHROOT_DIR=/srv/chroot/kbs-bookworm-$ARCH
CHROOT=kbs-bookworm-$ARCH-sbuild
S=$OUT/sbuild

# make_chroot: the schroot sbuild builds in, made once
make_chroot() {
	if schroot -l 2>/dev/null | grep -qx "chroot:$CHROOT"; then
		echo "# reusing the schroot $CHROOT"
		return 0
	fi
	_t0=$(date +%s)
	# the suites this machine has beside bookworm (-updates, -security:
	# linux-source-<series> may be in one of them only)
	set --
	while read -r _l; do
		case $_l in
		"deb "*" bookworm "*) ;;
		deb*) set -- "$@" "--extra-repository=$_l" ;;
		esac
	done <<-EOF
	$(debian_sources)
	EOF
	sbuild-createchroot "$@" --chroot-prefix=kbs-bookworm --arch="$ARCH" bookworm "$CHROOT_DIR" \
		"$(find_mirror)" > "$S/createchroot.log" 2>&1 || { tail -n 5 "$S/createchroot.log"; return 1; }
	echo "# sbuild-createchroot: $(($(date +%s) - _t0)) s"
}

# run_sbuild DSC: the package built in the chroot, its .debs in $S
run_sbuild() {
	_t0=$(date +%s)
	(cd "$S" && sbuild --dist=bookworm --arch="$ARCH" --chroot="$CHROOT" --arch-all --arch-any \
		--no-run-lintian --no-run-piuparts --no-run-autopkgtest \
		--build-dep-resolver=apt --jobs="$(($(nproc) + 1))" "$1") > "$S/sbuild.out" 2>&1 ||
		{ tail -n 15 "$S/sbuild.out" "$S"/*_"$ARCH".build 2> /dev/null; return 1; } # its log, if it made one
	echo "# sbuild: $(($(date +%s) - _t0)) s"
	# sbuild's summary, from its build log (the link to the newest)
	awk '/^\| Summary/ { f = 1; next } f && /^[A-Z][A-Za-z -]*: / { print "# " $0; n++ } f && n && /^$/ { exit }' \
		"$S"/*_"$ARCH".build
}

# same_as_local DEB: byte-identical with out/debs' one, or what differs
same_as_local() {
	_local=$OUT/debs/${1##*/}
	[ -f "$_local" ] || { echo "no ${1##*/} in $OUT/debs"; return 1; }
	cmp -s "$1" "$_local" && return 0
	rm -rf "$S/x" "$S/y"
	dpkg-deb -R "$1" "$S/x"
	dpkg-deb -R "$_local" "$S/y"
	diff -rq "$S/x" "$S/y" | sed "s:$S/[xy]/::g" | head -n 5
	return 1
}

main() {
	[ "$(id -u)" = 0 ] || die "run as root: sbuild-createchroot and sbuild"
	need_packages sbuild schroot debootstrap
	_dsc=$(manifest_get "$OUT/debs" file series="$SERIES" kind=dsc) || exit 1
	[ -f "$_dsc" ] || die "no $_dsc: run ./build-kernel.sh --series $SERIES again"
	rm -rf "$S"
	mkdir -p "$S"
	# the .debs of the local build of this architecture, as its manifest
	# names them
	_debs=$({
		manifest_debs "$OUT/debs" series="$SERIES" arch="$ARCH"
		manifest_debs "$OUT/debs" series="$SERIES" arch=all
	} | sed 's|.*/||')
	[ -n "$_debs" ] || die "$OUT/debs/manifest names no .deb of $SERIES for $ARCH: run ./build-kernel.sh --series $SERIES"
	ktap_plan "$((2 + $(printf '%s\n' "$_debs" | wc -l)))"
	ktap_check "a bookworm chroot for sbuild ($CHROOT)" make_chroot
	ktap_check "sbuild ${_dsc##*/} in it (Build-Depends complete)" run_sbuild "$_dsc"
	for _d in $_debs; do
		if [ -f "$S/$_d" ]; then
			ktap_check "$_d: sbuild's is the local build's" same_as_local "$S/$_d"
		else
			ktap_fail "$_d: sbuild's is the local build's" "sbuild made no $_d"
		fi
	done
	ktap_summary
}

main "$@"
