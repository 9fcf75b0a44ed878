#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/fresh.sh - the README's two commands on a fresh Debian 12 machine,
# in the README's order: a minbase debootstrap chroot (no sudo, no rsync,
# no dpkg-dev, no gcc) with a copy of this repository's tracked files, as
# root.  The first command, ./build-kernel.sh, with one small flavour
# (6.1's tiny), must install everything it needs by itself and build the
# packages; the second, tests/run with the host-side suites that reuse
# that build's kept trees (incremental, abi) and those that install tools
# of their own (fail-loud, lint), must install what it needs and pass.
# So a tool that one command installs and the other relies on shows: a
# ccache that tests/run installed after the build used to turn the
# incremental build into a full one.  As a user other than root,
# build-kernel.sh must stop with one line naming the apt-get command to
# run.
#
# Usage: tests/fresh.sh [FLAVOUR]     (default: tiny, of 6.1, the kernel
#                                      the incremental and abi suites test)
#
# Environment: KBS_OUT (default out/), KBS_MIRROR (default: this
# machine's Debian mirror).  The minbase tree is cached in
# out/fresh/minbase-<suite> and copied for every run.

set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/kbuild-split.sh
. "$TOP/lib/kbuild-split.sh"
# shellcheck source=lib/host.sh
. "$TOP/lib/host.sh"
# shellcheck source=tests/lib/ktap.sh
. "$TOP/tests/lib/ktap.sh"

OUT=${KBS_OUT:-$TOP/out}
F=$OUT/fresh
FLAVOUR=${1:-tiny}
SUITES="lint fail-loud incremental abi"
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

# run_limited LIMIT OUTFILE CMD...: CMD in the chroot as root, in the
# repository's copy, in a process group of its own that is stopped after
# LIMIT seconds
run_limited() {
	_limit=$1
	_outfile=$2
	shift 2
	# shellcheck disable=SC2016 # the chroot's shell expands it
	setsid chroot "$R" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
		sh -c 'cd /usr/local/src/kbuild-split && exec "$@"' sh "$@" > "$_outfile" 2>&1 &
	PGID=$!
	_t0=$(date +%s)
	while kill -0 "$PGID" 2>/dev/null; do
		if [ $(($(date +%s) - _t0)) -ge "$_limit" ]; then
			env kill -TERM -- "-$PGID"
			wait "$PGID" || true # it was stopped
			PGID=
			echo "$* did not finish in $_limit s"
			return 1
		fi
		sleep 5
	done
	_rc=0
	wait "$PGID" || _rc=$?
	PGID=
	return "$_rc"
}

# command_1: ./build-kernel.sh --flavours FLAVOUR installs what it needs
# and builds the packages
command_1() {
	_t0=$(date +%s)
	run_limited 3000 "$F/build.out" ./build-kernel.sh --flavours "$FLAVOUR" ||
		{ tail -n 5 "$F/build.out"; echo "build-kernel.sh failed"; return 1; }
	ls "$R/usr/local/src/kbuild-split/out/debs/"linux-image-*"-${FLAVOUR}_"*.deb > /dev/null 2>&1 ||
		{ echo "no linux-image .deb of $FLAVOUR in out/debs"; return 1; }
	echo "# built in $(($(date +%s) - _t0)) s"
	grep -E '^build-kernel.sh: (installing|built)' "$F/build.out" | sed 's/^/# /'
}

# command_2: tests/run SUITES installs what it needs and passes
command_2() {
	_t0=$(date +%s)
	# shellcheck disable=SC2086 # suite names
	run_limited 3000 "$F/tests.out" tests/run $SUITES || { tail -n 5 "$F/tests.out"; return 1; }
	tail -n 1 "$F/tests.out" | grep -q '^[1-9][0-9]* passed, 0 failed' || { tail -n 3 "$F/tests.out"; return 1; }
	echo "# tests/run $SUITES: $(tail -n 1 "$F/tests.out") in $(($(date +%s) - _t0)) s"
	grep -E '^tests/run: installing|^ *# [0-9]+ objects compiled|^ *# incremental build|incremental: the' "$F/tests.out" |
		sed 's/^ */# /'
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
	ktap_check "README command 1, ./build-kernel.sh --flavours $FLAVOUR, as root installs what it needs and builds" \
		command_1
	ktap_check "README command 2, tests/run $SUITES, installs what it needs and passes" command_2
	ktap_summary
}

main "$@"
