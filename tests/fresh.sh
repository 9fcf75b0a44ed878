#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/fresh.sh - the README's two commands on a fresh Debian 12 machine:
# a minbase debootstrap chroot (no sudo, no rsync, no dpkg-dev, no gcc)
# with a copy of this repository's tracked files, as root.  The first
# command, ./build-kernel.sh, must install everything it needs by itself
# and get as far as compiling the kernel (then it is stopped: the full
# build is what the other suites test); the second, tests/run (with the
# lint suite: the whole run needs the packages built), must install what
# it needs and pass.  As a user other than root, build-kernel.sh must stop
# with one line naming the apt-get command to run.
#
# Usage: tests/fresh.sh [KERNEL FLAVOUR]     (default: 6.12 tiny)
#
# Environment: KBS_OUT (default out/), KBS_MIRROR (default: this
# machine's Debian mirror).  The minbase tree is cached in
# out/fresh/minbase-<suite> and copied for every run.

set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/kbuild-split.sh
. "$TOP/lib/kbuild-split.sh"

OUT=${KBS_OUT:-$TOP/out}
F=$OUT/fresh
KERNEL=${1:-6.12}
FLAVOUR=${2:-tiny}
R=
PGID=

cleanup() {
	if [ -n "$PGID" ]; then
		env kill -TERM -- "-$PGID" 2>/dev/null || true # ended by itself already
	fi
	if [ -n "$R" ]; then
		umount "$R/proc" 2>/dev/null || true # not mounted when it failed early
		rm -rf "$R"
	fi
}

# make_minbase: the cached minbase tree, copied into R (made by main: this
# runs in ktap_check's subshell)
make_minbase() {
	if ! [ -f "$F/minbase-bookworm/.done" ]; then
		rm -rf "$F/minbase-bookworm"
		debootstrap --variant=minbase bookworm "$F/minbase-bookworm" "$(find_mirror)" > "$F/debootstrap.log" 2>&1 ||
			{ tail -n 3 "$F/debootstrap.log"; echo "debootstrap failed, see $F/debootstrap.log"; return 1; }
		touch "$F/minbase-bookworm/.done"
	fi
	cp -a "$F/minbase-bookworm/." "$R/"
	cp /etc/resolv.conf "$R/etc/resolv.conf" 2>/dev/null || true # a local mirror needs none
	# what a Debian 12 installation's apt sees: the release, its updates, security
	debian_sources > "$R/etc/apt/sources.list"
	mount -t proc proc "$R/proc"
	mkdir -p "$R/usr/local/src/kbuild-split"
	# the tracked files, as a clone has them, with the work tree's changes
	(cd "$TOP" && git ls-files -z | xargs -0 tar -cf -) | tar -xf - -C "$R/usr/local/src/kbuild-split"
	[ -x "$R/usr/local/src/kbuild-split/build-kernel.sh" ] || { echo "copying the repository failed"; return 1; }
}

# in_root CMD...: CMD in the chroot as root, in the repository copy
in_root() {
	chroot "$R" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
		sh -c 'cd /usr/local/src/kbuild-split && "$@"' sh "$@"
}

is_fresh() {
	for _c in dpkg-buildpackage rsync sudo gcc make; do
		! chroot "$R" sh -c "command -v $_c" >/dev/null || { echo "the minbase tree has $_c"; return 1; }
	done
}

# as_user: build-kernel.sh as nobody stops at once, one line naming apt-get
as_user() {
	_rc=0
	chroot --userspec=nobody:nogroup "$R" env -i PATH=/usr/bin:/bin HOME=/tmp \
		sh -c 'cd /tmp && /usr/local/src/kbuild-split/build-kernel.sh' \
		> "$F/user.out" 2> "$F/user.err" || _rc=$?
	[ "$_rc" -ne 0 ] || { echo "build-kernel.sh as nobody exited 0"; return 1; }
	[ "$(wc -l < "$F/user.err")" -eq 1 ] && grep -q 'apt-get install' "$F/user.err" ||
		{ cat "$F/user.err"; echo "not one line naming apt-get install"; return 1; }
	sed 's/^/# /' "$F/user.err"
}

# build_starts: ./build-kernel.sh until the kernel compiles, then stopped
build_starts() {
	_t0=$(date +%s)
	_limit=1800
	setsid sh -c 'exec chroot "$1" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
		sh -c "cd /usr/local/src/kbuild-split && ./build-kernel.sh --kernel $2 --flavours $3"' \
		sh "$R" "$KERNEL" "$FLAVOUR" > "$F/build.out" 2>&1 &
	PGID=$!
	while kill -0 "$PGID" 2>/dev/null; do
		if grep -q 'compiled [1-9][0-9]* ' "$F/build.out" ||
			grep -qs '^  CC ' "$R/usr/local/src/kbuild-split/out/logs/build-$KERNEL-amd64.log"; then
			echo "# the kernel compiles after $(($(date +%s) - _t0)) s; stopped there"
			grep -E '^build-kernel.sh: (installing|dpkg)' "$F/build.out" | sed 's/^/# /'
			env kill -TERM -- "-$PGID"
			wait "$PGID" || true # it was killed
			PGID=
			return 0
		fi
		[ $(($(date +%s) - _t0)) -lt "$_limit" ] || { echo "no compile after $_limit s"; return 1; }
		sleep 5
	done
	wait "$PGID" || true # its status: told by its output below
	PGID=
	tail -n 5 "$F/build.out"
	echo "build-kernel.sh ended before the kernel compiled"
	return 1
}

# tests_run: tests/run lint installs what it needs and passes
tests_run() {
	_t0=$(date +%s)
	in_root tests/run lint > "$F/tests.out" 2>&1 || { tail -n 5 "$F/tests.out"; return 1; }
	tail -n 1 "$F/tests.out" | grep -q '^[1-9][0-9]* passed, 0 failed' || { tail -n 3 "$F/tests.out"; return 1; }
	echo "# tests/run lint: $(tail -n 1 "$F/tests.out") in $(($(date +%s) - _t0)) s"
	grep '^tests/run: installing' "$F/tests.out" | sed 's/^/# /'
}

main() {
	[ "$(id -u)" = 0 ] || die "run as root: debootstrap and chroot"
	need_cmd debootstrap debootstrap
	need_cmd git git
	mkdir -p "$F"
	trap cleanup EXIT
	ktap_plan 5
	R=$(mktemp -d "$F/root.XXXXXX")
	ktap_check "a minbase Debian 12 chroot with the repository's tracked files" make_minbase
	if ! [ -x "$R/usr/local/src/kbuild-split/build-kernel.sh" ]; then
		for _s in 1 2 3 4; do
			ktap_skip "fresh machine check $_s" "no chroot"
		done
		ktap_summary
		return
	fi
	ktap_check "it has no dpkg-buildpackage, rsync, sudo, gcc or make" is_fresh
	ktap_check "./build-kernel.sh as a user stops at once, naming the apt-get command" as_user
	ktap_check "./build-kernel.sh --kernel $KERNEL --flavours $FLAVOUR as root installs what it needs and compiles" \
		build_starts
	ktap_check "tests/run lint installs what it needs and passes" tests_run
	ktap_summary
}

main "$@"
