#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/farm.sh - build-kernel.sh through a compile farm, behind ccache,
# on a farm made on this machine (tests/farm/nodes, tests/farm/lib.sh):
# icecream's scheduler and iceccd nodes in network namespaces, distccd
# daemons on loopback addresses.  It is also the reproducibility test.
#
#   1. SERIES's FLAVOUR built with --icecc in another directory with an
#      empty ccache, so that every compile goes to the farm: every node ran
#      jobs (the scheduler's log), and every .deb is byte-identical to the
#      local build's in out/debs (another directory, the farm, no cache hit).
#   2. Files of the kept tree touched, built again --incremental with
#      --distcc and an empty ccache: every distccd ran jobs; the .debs are
#      still identical.
#   3. Faults, on incremental builds of touched files: an icecc node killed
#      (every process of its namespace, a crash) while it compiles; the
#      icecc scheduler stopped.  Each build falls back to local compiles,
#      completes, and a warning names the node.
#
# Usage: tests/farm.sh [SERIES FLAVOUR]     (default: 6.1 tiny)
#
# Needs root (namespaces, daemons), icecc, distcc and iproute2.
# Environment: KBS_OUT (default out/).

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
# shellcheck source=tests/farm/lib.sh
. "$TOP/tests/farm/lib.sh"

OUT=${KBS_OUT:-$TOP/out}
SERIES=${1:-6.1}
FLAVOUR=${2:-tiny}
F=$OUT/farm-test

cleanup() {
	farm_down
}

# farm_build NAME [netns NS] ARGS...: build-kernel.sh in the farm test's
# own output directory, with a ccache and a distcc state of its own, empty
# (every compile misses the cache and goes to the farm); output in NAME.log
farm_build() {
	_name=$1
	shift
	_ns=
	if [ "$1" = netns ]; then
		_ns=$2
		shift 2
	fi
	${_ns:+ip netns exec "$_ns"} env KBS_OUT="$F/out" KBS_CCACHE_DIR="$F/ccache-$_name" \
		ICECC_SCHEDULER="$FARM_NET.1:8765" DISTCC_DIR="$F/distcc-$_name" \
		"$TOP/build-kernel.sh" --series "$SERIES" --flavours "$FLAVOUR" "$@" > "$F/$_name.log" 2>&1
}

# touch_sources N: N sources of the kept tree whose objects the flavour has
touch_sources() {
	_b=$(manifest_get "$F/out/debs" file series="$SERIES" kind=tree arch="$(dpkg --print-architecture)") || return 1
	(cd "$_b/obj-$FLAVOUR" && find kernel mm fs -name '*.o' ! -name '*.mod.o' ! -name 'built-in*' | sort | head -n "$1") |
		sed 's/\.o$/.c/' | while read -r _c; do
			[ -f "$_b/src/$_c" ] && touch "$_b/src/$_c"
		done
}

icecc_build() {
	farm_build icecc netns kbs-farm-client --icecc || { tail -n 5 "$F/icecc.log"; return 1; }
	grep 'farm behind ccache' "$F/icecc.log" | sed 's/^/# /'
}

icecc_nodes_ran_jobs() {
	for _n in $(farm_nodes icecc | awk '{ print $1 }'); do
		_j=$(icecc_jobs_on "$_n")
		echo "# icecc $_n: $_j jobs"
		[ "$_j" -gt 0 ] || { echo "no job ran on $_n"; return 1; }
	done
}

# same_as_local DEB: byte-identical with the local build's of the same
# package in out/debs
same_as_local() {
	_local=$(manifest_get "$OUT/debs" file series="$SERIES" package="$(dpkg-deb -f "$1" Package)" \
		arch="$(dpkg-deb -f "$1" Architecture)") || return 1
	cmp "$1" "$_local"
}

distcc_build() {
	touch_sources 20
	farm_build distcc --incremental --distcc "$(distcc_hosts)" || { tail -n 5 "$F/distcc.log"; return 1; }
	grep -q 'incremental: the kept trees' "$F/distcc.log" || { echo "it did not build incrementally"; return 1; }
	for _a in $(farm_nodes distcc); do
		_j=$(distcc_jobs_on "$_a")
		echo "# distccd $_a: $_j jobs"
		[ "$_j" -gt 0 ] || { echo "no job ran on $_a"; return 1; }
	done
	for _d in $(manifest_debs "$F/out/debs"); do
		same_as_local "$_d" > /dev/null || { echo "${_d##*/} differs from the local build's"; return 1; }
	done
}

# first_node_job FROM: the farm node (not the build machine's own daemon)
# that the scheduler's log, from line FROM on, shows beginning a job
first_node_job() {
	tail -n +"$1" "$FARM_DIR/scheduler.log" | sed -n 's/.*BEGIN: .* server=\([^(]*\)(.*/\1/p' |
		grep -vx client | head -n 1
}

# node_killed: an icecc node crashes (every process of its namespace)
# while it compiles for the build: the first node to begin a job
node_killed() {
	_from=$(($(wc -l < "$FARM_DIR/scheduler.log") + 1))
	touch_sources 60
	farm_build killed netns kbs-farm-client --incremental --icecc &
	_pid=$!
	_name=
	_i=0
	until [ -n "$_name" ]; do
		kill -0 "$_pid" 2> /dev/null || { echo "the build ended before a node began a job"; return 1; }
		[ "$_i" -lt 1500 ] || { kill "$_pid" 2> /dev/null || true; echo "no node began a job in 300 s"; return 1; }
		sleep 0.2
		_i=$((_i + 1))
		_name=$(first_node_job "$_from")
	done
	kill_ns "kbs-farm-$_name"
	_addr=$(farm_nodes icecc | awk -v n="$_name" '$1 == n { print $2 }')
	echo "# killed $_name ($_addr) at its first job"
	wait "$_pid" || { tail -n 5 "$F/killed.log"; echo "the build failed after $_name crashed"; return 1; }
	grep "warning: farm node $_addr " "$F/killed.log" || { echo "no warning names $_addr"; return 1; }
}

scheduler_gone() {
	kill "$(cat "$FARM_DIR/scheduler.pid")"
	touch_sources 10
	farm_build nosched netns kbs-farm-client --incremental --icecc ||
		{ tail -n 5 "$F/nosched.log"; echo "the build failed without a scheduler"; return 1; }
	grep "warning: icecc scheduler $FARM_NET.1:8765 cannot be reached" "$F/nosched.log" ||
		{ echo "no warning names the scheduler"; return 1; }
}

main() {
	[ "$(id -u)" = 0 ] || die "run as root: network namespaces and daemons"
	manifest_get "$OUT/debs" file series="$SERIES" kind=image flavour="$FLAVOUR" > /dev/null ||
		die "no $FLAVOUR image of $SERIES in $OUT/debs/manifest: ./build-kernel.sh --series $SERIES first"
	trap cleanup EXIT
	rm -rf "$F"
	mkdir -p "$F"
	farm_up "$F/farm"
	ktap_check "$SERIES $FLAVOUR built --icecc, empty ccache, another directory" icecc_build
	ktap_check "every icecc node ran jobs" icecc_nodes_ran_jobs
	_debs=$(manifest_debs "$F/out/debs" 2> /dev/null) || _debs=
	[ -n "$_debs" ] || ktap_fail "the --icecc build's .debs" "there are none"
	for _d in $_debs; do
		ktap_check "${_d##*/} is byte-identical to the local build's" same_as_local "$_d"
	done
	ktap_check "touched files built --incremental --distcc: every distccd ran jobs, the .debs identical" distcc_build
	ktap_check "an icecc node crashes mid-build: it completes, a warning names the node" node_killed
	ktap_check "the icecc scheduler stopped: the build completes here, a warning names it" scheduler_gone
	ktap_summary
}

main "$@"
