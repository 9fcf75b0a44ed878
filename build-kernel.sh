#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# build-kernel.sh - build the kbuild-split Debian packages.
#
# Usage: ./build-kernel.sh [--kernel 6.1|6.12] [--flavours "qemu tiny"]
#                          [--jobs N] [--no-ccache]
#
# Installs the build dependencies with apt-get when they are missing (needs
# root), copies the packaging into out/pkg/<kernel>/kbuild-split, selects the
# kernel and flavours (debian/bin/gencontrol), runs dpkg-buildpackage -b -uc
# -us there and puts the .debs in out/debs/.  Progress goes to stderr, the
# full log to out/logs/build-<kernel>.log, and its tail on failure.
#
# Environment: KBS_OUT (default out/), KBS_CCACHE_DIR (default
# /var/cache/kbuild-split/ccache), SOURCE_DATE_EPOCH (dpkg-buildpackage:
# the date of debian/changelog).

set -eu

TOP=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/kbuild-split.sh
. "$TOP/lib/kbuild-split.sh"

OUT=${KBS_OUT:-$TOP/out}
KERNEL=6.1
FLAVOURS=
JOBS=$(($(nproc) + 1))
KBS_CCACHE=${KBS_CCACHE:-1}
LOG=

usage() {
	sed -n 's/^# \{0,1\}//; 4,6p' "$0" >&2
	exit 2
}

cleanup() {
	if [ -n "$LOG" ] && [ -f "$LOG.failed" ]; then
		log "failed; last lines of $LOG:"
		tail -n 40 "$LOG" >&2
		rm -f "$LOG.failed"
	fi
}

# install_build_deps PKGDIR: apt-get what dpkg-checkbuilddeps says is missing.
install_build_deps() {
	_missing=$(cd "$1" && dpkg-checkbuilddeps 2>&1 | sed -n 's/.*Unmet build dependencies: //p' |
		sed 's/([^)]*)//g') || true # it exits 1 exactly when something is missing
	[ -n "$_missing" ] || return 0
	[ "$(id -u)" = 0 ] || die "missing build dependencies: $_missing; run as root or apt-get install them"
	log "installing build dependencies: $_missing"
	apt-get update -qq >/dev/null
	# shellcheck disable=SC2086 # a list of package names
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $_missing >/dev/null
}

copy_packaging() {
	mkdir -p "$1"
	# debian/build is the previous build's; dpkg-buildpackage's clean removes it
	rsync -a --delete --exclude=/out/ --exclude=/.git/ --exclude=/debian/build/ "$TOP/" "$1/"
}

# progress: the stages of the build as they start, with the time.
show_progress() {
	_t0=$(date +%s)
	while IFS= read -r _line; do
		printf '%s\n' "$_line" >> "$LOG"
		case $_line in
		"apply.sh: unpacking"* | "   dh_auto_"* | "   dh_builddeb"* | "   debian/rules override_dh_auto_"* | "dpkg-deb: building"*)
			log "[$(($(date +%s) - _t0))s] ${_line#"${_line%%[! ]*}"}"
			;;
		esac
	done
}

build_packages() {
	_dir=$1
	: > "$LOG"
	touch "$LOG.failed"
	log "building linux-source-$KERNEL with flavours: ${FLAVOURS:-all} (log: $LOG)"
	# shellcheck disable=SC2086 # flavour names
	(cd "$_dir" && debian/bin/gencontrol "$KERNEL" $FLAVOURS) 2>&1 | show_progress
	install_build_deps "$_dir"
	setup_ccache
	_start=$(date +%s)
	{ (cd "$_dir" && KBS_CC="$KBS_CC" DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:-} parallel=$JOBS" \
		dpkg-buildpackage -b -uc -us 2>&1) || echo "kbuild-split: dpkg-buildpackage failed"; } | show_progress
	! grep -q '^kbuild-split: dpkg-buildpackage failed' "$LOG" || exit 1
	rm -f "$LOG.failed"
	log "built in $(($(date +%s) - _start)) s"
}

collect_debs() {
	mkdir -p "$OUT/debs"
	for _deb in "$1"/*.deb; do
		[ -e "$_deb" ] || die "dpkg-buildpackage made no .deb in $1"
		mv "$_deb" "$OUT/debs/"
		log "$(basename "$_deb") ($(du -k "$OUT/debs/${_deb##*/}" | cut -f1) KiB)"
	done
	rm -f "$1"/*.buildinfo "$1"/*.changes
}

main() {
	while [ $# -gt 0 ]; do
		case $1 in
		--kernel) KERNEL=${2:?}; shift ;;
		--flavours) FLAVOURS=${2:?}; shift ;;
		--jobs) JOBS=${2:?}; shift ;;
		--no-ccache) KBS_CCACHE=0 ;;
		-h | --help) usage ;;
		*) die "unknown option $1 (see --help)" ;;
		esac
		shift
	done
	need_cmd dpkg-buildpackage dpkg-dev
	need_cmd rsync rsync
	[ -r "$TOP/patches/$KERNEL/series" ] || die "no patch series for kernel $KERNEL (patches/$KERNEL/series)"

	_pkgdir=$OUT/pkg/$KERNEL
	mkdir -p "$OUT/logs"
	LOG=$OUT/logs/build-$KERNEL.log
	trap cleanup EXIT
	if ! dpkg-query -W -f='${Status}' "linux-source-$KERNEL" 2>/dev/null | grep -q 'ok installed'; then
		[ "$(id -u)" = 0 ] || die "linux-source-$KERNEL is not installed: apt-get install linux-source-$KERNEL"
		log "installing linux-source-$KERNEL"
		apt-get update -qq >/dev/null
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "linux-source-$KERNEL" >/dev/null
	fi
	copy_packaging "$_pkgdir/kbuild-split"
	build_packages "$_pkgdir/kbuild-split"
	collect_debs "$_pkgdir"
}

main "$@"
