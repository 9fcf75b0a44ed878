# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# tests/lib/root.sh: a throwaway copy of qemu-test's cached Debian 12 root
# filesystem, for the suites that install the build's packages in a chroot
# (tests/maintscripts/lib.sh for maintscripts and extmod, and
# tests/autopkgtest.sh).  Sourced by them, which set TOP and OUT; sets R.

R=

# copy_root NAME: R, a new copy under OUT of the bookworm root filesystem
# qemu-test/run made or reuses, as it says in OUT/logs/NAME-prepare.log
copy_root() {
	_cached=$(KBS_SUITE=bookworm "$TOP/qemu-test/run" --prepare 2> "$OUT/logs/$1-prepare.log") ||
		die "qemu-test/run --prepare failed; see $OUT/logs/$1-prepare.log"
	[ -f "$_cached/.kbs-rootfs-done" ] || die "qemu-test/run --prepare named no root filesystem ('$_cached')"
	R=$(mktemp -d "$OUT/$1.XXXXXX")
	cp -a "$_cached/." "$R/"
	# The root is thrown away: spare dpkg's fsync of each of the source
	# tree's 28k files, which made a suite take minutes.
	printf 'force-unsafe-io\n' > "$R/etc/dpkg/dpkg.cfg.d/kbs-unsafe-io"
}

# with_proc CMD...: CMD with /proc mounted in the root, as in any container
# or testbed (7.3's objtool reads the stack limit there)
with_proc() {
	mount -t proc proc "$R/proc" || return 1
	_wp=0
	"$@" || _wp=$?
	umount "$R/proc" || { echo "cannot unmount $R/proc"; return 1; }
	return "$_wp"
}

# remove_root: R, if there is one, gone
remove_root() {
	if [ -n "$R" ]; then
		umount "$R/proc" 2>/dev/null || true # mounted only while with_proc runs
		rm -rf "$R"
		R=
	fi
}
