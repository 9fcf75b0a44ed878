#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/incremental.sh - build-kernel.sh --incremental gives the packages a
# clean build gives: after the clean build of SERIES (out/debs/manifest
# names its flavours and the trees it kept), a file of the kept patched
# tree is touched and the packages built again incrementally, into a
# directory of their own; the kept trees must have been used (no unpack,
# a few objects compiled, the source tree's .deb reused), and every .deb
# must have the contents of the clean build's .deb of the same package
# (byte for byte, being reproducible, as the suite also reports).  Before
# that, a clean build of the same inputs: it must hard-link the untouched
# patched tree instead of unpacking, keep the source tree's .deb, and make
# the same contents too; and lib/build.sh's keep_patched_tree must not
# keep a tree whose file was touched, or whose series differs.
#
# Usage: tests/incremental.sh [SERIES [FLAVOURS [FILE]]]
#        (default: 6.1, the flavours of its build, kernel/panic.c)
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
# shellcheck source=lib/build.sh
. "$TOP/lib/build.sh"

OUT=${KBS_OUT:-$TOP/out}
SERIES=${1:-6.1}
FLAVOURS=${2:-}
FILE=${3:-kernel/panic.c}
BUILD_ARCH=$(dpkg --print-architecture)
TREE=
PRISTINE=
W=

cleanup() {
	if [ -n "$W" ]; then
		rm -rf "$W"
	fi
}

# clean_rebuild: a clean build of the last build's inputs into $W/clean
clean_rebuild() {
	"$TOP/build-kernel.sh" --series "$SERIES" --flavours "$FLAVOURS" --debs "$W/clean" \
		> "$W/clean.out" 2>&1 || { tail -n 5 "$W/clean.out"; return 1; }
}

# reused_tree: the clean rebuild hard-linked the kept patched tree if it
# was untouched (a suite before may have touched it), else unpacked
reused_tree() {
	_log=$OUT/logs/build-$SERIES-$BUILD_ARCH.log
	if [ "$PRISTINE" = yes ]; then
		grep -q 'the patched tree of .*\.src, hard-linked' "$_log" || { echo "it did not reuse the untouched patched tree"; return 1; }
		! grep -q 'apply.sh: unpacking' "$_log" || { echo "it unpacked the tarball"; return 1; }
	else
		grep -q 'apply.sh: unpacking' "$_log" || { echo "it did not unpack again, the kept tree being touched"; return 1; }
	fi
	echo "# the kept tree was untouched: $PRISTINE"
}

# kept_source_deb: the clean rebuild kept the source tree's .deb
kept_source_deb() {
	grep -q 'source package are kept' "$W/clean.out" || { echo "it did not keep the source tree's .deb"; return 1; }
	! grep -q "building package 'linux-kbuild-source" "$W/clean.out" || { echo "it built the source tree's .deb again"; return 1; }
}

# keeps_no_touched_tree: keep_patched_tree on a small tree of this series
# keeps it untouched only
keeps_no_touched_tree() {
	_d=$W/keep/kbuild-split
	mkdir -p "$_d/debian/build/src/kernel"
	echo 'int x;' > "$_d/debian/build/src/kernel/panic.c"
	"$TOP/patches/apply.sh" --describe "$SERIES" > "$_d/debian/build/src/.kbuild-split-series"
	tree_fingerprint "$_d/debian/build/src" > "$_d/debian/build/src.fingerprint"
	touch -d '1 hour ago' "$_d/debian/build/src/kernel/panic.c"
	(OUT=$W; keep_patched_tree "$_d")
	[ ! -d "$_d.src" ] || { echo "it kept a tree with a touched file"; return 1; }
	echo "other" >> "$_d/debian/build/src/.kbuild-split-series"
	tree_fingerprint "$_d/debian/build/src" > "$_d/debian/build/src.fingerprint"
	(OUT=$W; keep_patched_tree "$_d")
	[ ! -d "$_d.src" ] || { echo "it kept a tree of another series"; return 1; }
	sed -i '$d' "$_d/debian/build/src/.kbuild-split-series"
	tree_fingerprint "$_d/debian/build/src" > "$_d/debian/build/src.fingerprint"
	(OUT=$W; keep_patched_tree "$_d")
	[ -f "$_d.src/kernel/panic.c" ] || { echo "it did not keep the untouched tree"; return 1; }
}

# rebuild: touch FILE, build incrementally into $W/debs
rebuild() {
	_src=$TREE/src
	[ -f "$_src/$FILE" ] || { echo "no kept tree with $FILE in $TREE: build first (./build-kernel.sh --series $SERIES)"; return 1; }
	touch "$_src/$FILE"
	_t0=$(date +%s)
	"$TOP/build-kernel.sh" --series "$SERIES" --flavours "$FLAVOURS" --incremental --debs "$W/debs" \
		> "$W/build.out" 2>&1 || { tail -n 5 "$W/build.out"; return 1; }
	echo "# incremental build after touching $FILE: $(($(date +%s) - _t0)) s"
}

# used_kept_trees: no unpack, few objects compiled, the source tree's .deb reused
used_kept_trees() {
	grep -q 'incremental: the kept trees' "$W/build.out" || { grep incremental "$W/build.out"; echo "it started clean"; return 1; }
	! grep 'incremental: the compiler command changed' "$W/build.out" || { echo "the compiler command changed"; return 1; }
	! grep -q 'apply.sh: unpacking' "$OUT/logs/build-$SERIES-$BUILD_ARCH.log" || { echo "it unpacked the tarball"; return 1; }
	_n=$(grep -cE '^  (CC|AS)( \[M\])? ' "$OUT/logs/build-$SERIES-$BUILD_ARCH.log" || true) # none is fine
	[ "$_n" -le 20 ] || { echo "it compiled $_n objects"; return 1; }
	! grep -q "building package 'linux-kbuild-source" "$W/build.out" || { echo "it built the source tree's .deb again"; return 1; }
	echo "# $_n objects compiled"
}

# same_contents DEB: the DEB of a rebuild against the clean build's of the
# same package: contents and control equal; byte-identical reported
same_contents() {
	_p=$(dpkg-deb -f "$1" Package)
	_a=$(dpkg-deb -f "$1" Architecture)
	_clean=$(manifest_get "$OUT/debs" file series="$SERIES" package="$_p" arch="$_a") || return 1
	if cmp -s "$1" "$_clean"; then
		echo "# ${1##*/}: byte-identical"
		return 0
	fi
	rm -rf "$W/a" "$W/b"
	dpkg-deb -R "$1" "$W/a"
	dpkg-deb -R "$_clean" "$W/b"
	diff -r "$W/a" "$W/b" | head -n 5
	diff -rq "$W/a" "$W/b" > /dev/null
}

main() {
	trap cleanup EXIT
	mkdir -p "$OUT"
	W=$(mktemp -d "$OUT/incremental.XXXXXX")
	TREE=$(manifest_get "$OUT/debs" file series="$SERIES" kind=tree arch="$BUILD_ARCH") || TREE=/nonexistent
	[ -n "$FLAVOURS" ] || FLAVOURS=$(manifest_flavours "$OUT/debs" "$SERIES") ||
		FLAVOURS="(none built)" # rebuild fails, naming the build to run first
	ktap_check "keep_patched_tree keeps an untouched tree of the series alone" keeps_no_touched_tree
	# whether the kept patched tree is untouched, before the clean build
	# (ktap_check runs each check in a subshell)
	PRISTINE=no
	[ ! -d "$TREE/src" ] || [ "$(tree_fingerprint "$TREE/src")" != "$(cat "$TREE/src.fingerprint" 2>/dev/null)" ] ||
		PRISTINE=yes
	ktap_check "$SERIES ($FLAVOURS): a clean build of the same inputs" clean_rebuild
	if [ -d "$W/clean" ]; then
		ktap_check "it hard-linked the kept patched tree if untouched, else unpacked" reused_tree
		ktap_check "it kept the source tree's .deb" kept_source_deb
		for _d in $(manifest_debs "$W/clean"); do
			ktap_check "${_d##*/} of the clean rebuild has the first build's contents" same_contents "$_d"
		done
	else
		ktap_skip "the patched tree and source .deb were reused" "the clean build failed"
	fi
	ktap_check "$SERIES ($FLAVOURS): touch $FILE, build-kernel.sh --incremental" rebuild
	if ! [ -d "$W/debs" ]; then
		ktap_skip "the kept trees were used" "the incremental build failed"
		ktap_summary
		return
	fi
	ktap_check "the kept trees were used: no unpack, a few objects, the source tree's .deb reused" used_kept_trees
	for _d in $(manifest_debs "$W/debs"); do
		ktap_check "${_d##*/} has the clean build's contents" same_contents "$_d"
	done
	ktap_summary
}

main "$@"
