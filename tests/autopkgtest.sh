#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/autopkgtest.sh - the source package's own test (debian/tests, its
# Testsuite: autopkgtest), run by autopkgtest as Debian's CI runs it: in
# a testbed that is a chroot (autopkgtest-virt-chroot) of a copy of
# qemu-test's cached Debian 12 root filesystem, from the build's .dsc,
# with the build's .debs of this machine's architecture.  autopkgtest
# installs them (Depends: @), then debian/tests/build-module builds a
# module against every object tree they brought.
#
# Usage: tests/autopkgtest.sh [SERIES...]   (default: every series of the
#   default suite's build, out/debs)
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
# shellcheck source=tests/lib/root.sh
. "$TOP/tests/lib/root.sh"

OUT=${KBS_OUT:-$TOP/out}
DEBS=$OUT/debs

# prepare_testbed: R (tests/lib/root.sh), a copy of the cached bookworm
# root filesystem that resolves names as this machine does
prepare_testbed() {
	copy_root autopkgtest
	cp /etc/resolv.conf "$R/etc/resolv.conf"
	# the cached root has no package lists: autopkgtest installs from them
	chroot "$R" apt-get update -q > "$OUT/logs/autopkgtest-update.log" 2>&1 ||
		die "apt-get update in the testbed failed; see $OUT/logs/autopkgtest-update.log"
}

# run_series SERIES: autopkgtest of SERIES' build; ok when it exits 0 and
# build-module's KTAP passed at least one object tree
run_series() {
	_dsc=$(manifest_get "$DEBS" file series="$1" kind=dsc) || return 1
	_debs=$( (manifest_debs "$DEBS" series="$1" arch="$BUILD_ARCH" && manifest_debs "$DEBS" series="$1" arch=all) |
		tr '\n' ' ')
	[ -n "$_debs" ] || { echo "no $BUILD_ARCH .deb of $1 in $DEBS"; return 1; }
	prepare_testbed
	_res=$OUT/logs/autopkgtest-$1
	rm -rf "$_res"
	_rc=0
	# with /proc, as any testbed (lxc, qemu, unshare) has it, which
	# autopkgtest-virt-chroot does not mount
	# shellcheck disable=SC2086 # file names without blanks
	with_proc autopkgtest --output-dir "$_res" "$_dsc" $_debs -- chroot "$R" > "$OUT/logs/autopkgtest-$1.log" 2>&1 ||
		_rc=$?
	remove_root
	sed 's/^/# /' "$_res/build-module-stdout" 2>/dev/null | grep -v '^# KTAP\|^# 1\.\.' || true
	# autopkgtest's exit: 4 a test failed, 8 no test ran, 12 and more its own or the testbed's error
	[ "$_rc" = 0 ] || { echo "autopkgtest exited $_rc: $(tail -n 1 "$OUT/logs/autopkgtest-$1.log") (log: $OUT/logs/autopkgtest-$1.log)"; return 1; }
	grep -qE '^[1-9][0-9]* passed, 0 failed$' "$_res/build-module-stdout" ||
		{ echo "build-module built no module: see $_res"; return 1; }
}

main() {
	need_cmd autopkgtest autopkgtest
	[ "$(id -u)" = 0 ] || die "autopkgtest-virt-chroot needs root: run as root"
	BUILD_ARCH=$(dpkg --print-architecture)
	mkdir -p "$OUT/logs"
	trap remove_root EXIT
	_series=${*:-$(manifest_series "$DEBS")} || exit 1
	for _s in $_series; do
		ktap_check "$_s: autopkgtest debian/tests/build-module in a bookworm chroot, with the build's packages" \
			run_series "$_s"
	done
	ktap_summary
}

main "$@"
