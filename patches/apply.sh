#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# apply.sh - unpack Debian's kernel source tarball and apply a patch series.
#
# Usage: patches/apply.sh VERSION DESTDIR
#        patches/apply.sh --describe VERSION
#   VERSION  kernel series: 6.1 (default of Debian 12), 6.12 or 7.3; the tarball
#            is /usr/src/linux-source-VERSION.tar.xz (apt-get install
#            linux-source-VERSION) and the series patches/VERSION/series.
#   DESTDIR  where the patched tree goes; it must not exist yet.
#
# The tree is unpacked and patched next to DESTDIR and moved into place
# only when every patch applied, so a failed run leaves no tree behind.
# Patches must apply exactly: patch(1) runs with --fuzz=0, so a patch
# whose context lines differ from the tree stops the run with the patch's
# name and patch(1)'s complaint (an offset, lines moved, is fine).  The tree's .kbuild-split-series says what it was
# made from: the tarball's and every patch's sha256.  --describe prints
# that for the current tarball and series, to tell whether a tree is stale.
#
# Environment: KBS_TARBALL overrides the tarball path.

set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/kbuild-split.sh
. "$TOP/lib/kbuild-split.sh"

WORK=

cleanup() {
	if [ -n "$WORK" ]; then
		rm -rf "$WORK"
	fi
}

usage() {
	sed -n 's/^# \{0,1\}//; 4,11p' "$0" >&2
	exit 2
}

known_versions() {
	for _s in "$TOP"/patches/*/series; do
		printf '%s ' "$(basename "$(dirname "$_s")")"
	done
}

# series_patches SERIESFILE: the patch paths it lists, '#' comments dropped.
series_patches() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1" | while read -r name _; do
		printf '%s/%s\n' "$(dirname "$1")" "$name"
	done
}

unpack_tarball() {
	need_cmd xz xz-utils
	log "unpacking $1"
	# Debian's tarball has xz blocks: -T0 decompresses them in parallel
	tar -I 'xz -T0' -xf "$1" -C "$2" --strip-components=1
}

# describe_series: the tarball and the patches, by content
describe_series() {
	printf 'tarball: %s\n' "$(sha256sum < "$TARBALL" | cut -d' ' -f1)"
	series_patches "$SERIES" | while read -r _patch; do
		printf '%s  %s\n' "$(sha256sum < "$_patch" | cut -d' ' -f1)" "${_patch#"$TOP"/}"
	done
}

# first_failed_hunk PATCH-OUTPUT: ", first at <file> hunk #N (line L)"
# for patch(1)'s first "Hunk #N FAILED at L", or nothing
first_failed_hunk() {
	printf '%s\n' "$1" | awk '
		/^patching file / { file = substr($0, 15) }
		/^Hunk #[0-9]+ FAILED at [0-9]+/ {
			sub(/\.$/, "", $5)
			printf ", first at %s hunk %s (line %s)", file, $2, $5
			exit
		}'
}

apply_series() {
	_tree=$1
	series_patches "$SERIES" > "$WORK/patches"
	while read -r _patch; do
		[ -r "$_patch" ] || die "patch ${_patch#"$TOP"/} listed in ${SERIES#"$TOP"/} is missing"
		# --fuzz=0: a hunk whose context differs is an error, not a guess
		# (no .orig backups of files patched at an offset: the tree is shipped)
		if ! _out=$(patch -d "$_tree" -p1 --forward --batch --fuzz=0 --no-backup-if-mismatch \
			< "$_patch" 2>&1); then
			printf '%s\n' "$_out" | grep -v '^patching file ' >&2
			die "patch ${_patch#"$TOP"/} does not apply exactly (fuzz 0) to linux-source-$VERSION$(first_failed_hunk "$_out"): refresh it; nothing was installed at $DEST"
		fi
		log "applied ${_patch##*/}"
	done < "$WORK/patches"
	describe_series > "$_tree/.kbuild-split-series"
}

main() {
	[ $# -eq 2 ] || usage
	if [ "$1" = --describe ]; then
		VERSION=$2
		DEST=
	else
		VERSION=$1
		DEST=$2
	fi
	SERIES=$TOP/patches/$VERSION/series
	TARBALL=${KBS_TARBALL:-$(kernel_tarball "$VERSION")}

	[ -r "$SERIES" ] || die "no series for kernel $VERSION: ${SERIES#"$TOP"/} not found (series: $(known_versions))"
	[ -r "$TARBALL" ] ||
		die "$TARBALL not found: install it with apt-get install linux-source-$VERSION"
	if [ -z "$DEST" ]; then
		describe_series
		return 0
	fi
	[ ! -e "$DEST" ] || die "$DEST already exists: remove it or name a new directory"
	need_cmd patch patch

	mkdir -p "$(dirname "$DEST")"
	trap cleanup EXIT
	WORK=$(mktemp -d "$(dirname "$DEST")/.apply.XXXXXX")
	mkdir "$WORK/tree"
	unpack_tarball "$TARBALL" "$WORK/tree"
	apply_series "$WORK/tree"
	mv "$WORK/tree" "$DEST"
	log "patched tree ready at $DEST"
}

main "$@"
