#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/extmod.sh - every kind of external-module build of
# qemu-test/phases/extmod-kinds (qemu-test/guest/extmod-kinds), against the split trees installed
# by dpkg in a chroot (a copy of qemu-test's cached Debian 12 root
# filesystem): the kbuild, host-programs and source packages, no image,
# as a build server or a container has them.  The builds run as nobody,
# so one that writes into the installed trees fails.  MO= is SKIP on a
# kernel before 6.13, which has no such option.
#
# Usage: tests/extmod.sh [DEBDIR]     (default: out/debs)
#
# One chroot per series that DEBDIR/manifest names; the flavour is
# KBS_FLAVOUR, or qemu, or the series' first for this machine.
#
# Environment: KBS_OUT (default out/), KBS_FLAVOUR.

set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/kbuild-split.sh
. "$TOP/lib/kbuild-split.sh"
# shellcheck source=tests/lib/ktap.sh
. "$TOP/tests/lib/ktap.sh"
# shellcheck source=lib/manifest.sh
. "$TOP/lib/manifest.sh"
# shellcheck source=tests/maintscripts/lib.sh
. "$TOP/tests/maintscripts/lib.sh"

OUT=${KBS_OUT:-$TOP/out}

# build_kind KIND: extmod-kinds in the root; SKIP on its exit 77
build_kind() {
	_name="extmod $REL: $1"
	_rc=0
	with_proc in_root /kbs/extmod-kinds /kbs/modules "$REL" "$1" > "$R/tmp/kind.out" 2>&1 || _rc=$?
	case $_rc in
	0)
		ktap_ok "$_name"
		echo "# $(tail -n 1 "$R/tmp/kind.out")"
		;;
	77) ktap_skip "$_name" "$(tail -n 1 "$R/tmp/kind.out")" ;;
	*)
		sed 's/^/# /' "$R/tmp/kind.out"
		ktap_fail "$_name" "$(tail -n 1 "$R/tmp/kind.out")"
		;;
	esac
}

# test_series SERIES: a fresh chroot with SERIES' trees, every kind
test_series() {
	pick_debs "$1"
	cleanup
	prepare_root
	mkdir -p "$R/kbs"
	cp -r "$TOP/tests/modules" "$R/kbs/modules"
	cp "$TOP/qemu-test/guest/extmod-kinds" "$R/kbs/"
	chmod -R a+rX "$R/kbs"
	dpkg_do -i "/debs/${SOURCE##*/}" "/debs/${HOSTPROGS##*/}" "/debs/${KBUILD##*/}" ||
		die "dpkg -i of $REL's kbuild packages failed in the chroot: $(tail -n 1 "$R/tmp/out")"
	echo "# external modules against $REL's installed trees, as nobody"
	for _kind in $(sed -n 's/^extmod-kind //p' "$TOP/qemu-test/phases/extmod-kinds"); do
		build_kind "$_kind"
	done
}

main() {
	run_per_series test_series "$@"
}

main "$@"
