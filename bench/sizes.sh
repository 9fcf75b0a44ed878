# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# bench/sizes.sh: bench/run's installed-size rows, per series.  Ours: the
# Installed-Size of one flavour's kbuild, host programs and source
# packages, as a build's manifest names them.  Theirs: bindeb-pkg's
# linux-headers package of the same configuration, plus the headers of our
# source tree it lacks (the private headers we ship, counted as dpkg
# counts Installed-Size).  For the bench's own series, theirs is the
# headers .deb its "make bindeb-pkg" made (measured); for the others, the
# tree upstream's install-extmod-build merges in the kept output
# directory of their package build, which is what bindeb-pkg's
# linux-headers holds (projected: no bindeb-pkg ran).
# Sourced by bench/run after lib/manifest.sh.

# tree_kib DIR: DIR's size as dpkg-gencontrol counts Installed-Size: each
# file and symlink rounded up to a KiB, one KiB for anything else
tree_kib() {
	find "$1" -printf '%y %s\n' |
		awk '$1 == "f" || $1 == "l" { kib += int(($2 + 1023) / 1024); next } { kib++ } END { print kib }'
}

# headers_of DIR: the headers under DIR, relative to it, sorted
headers_of() {
	(cd "$1" && find . -name '*.h' | LC_ALL=C sort)
}

# private_kib OURS THEIRS: the headers of tree OURS that tree THEIRS
# lacks, in KiB as dpkg counts them
private_kib() {
	headers_of "$1" > "$W/ours.h"
	headers_of "$2" > "$W/theirs.h"
	LC_ALL=C comm -23 "$W/ours.h" "$W/theirs.h" | tr '\n' '\0' |
		(cd "$1" && xargs -0 -r stat -c %s) |
		awk '{ kib += int(($1 + 1023) / 1024) } END { print kib + 0 }'
}

# merged_tree TREE FLAVOUR DEST: upstream's merged install-extmod-build
# run in the kept output directory TREE/obj-FLAVOUR into DEST, as
# bindeb-pkg's linux-headers gets it (CC is HOSTCC: nothing rebuilt)
merged_tree() {
	_karch=$(arch_value amd64 kernel-arch)
	(cd "$1/obj-$2" && srctree=$1/src SRCARCH=$_karch CC=gcc HOSTCC=gcc MAKE=make \
		sh "$1/src/scripts/package/install-extmod-build" "$3") > "$W/merged.log" 2>&1 ||
		die "install-extmod-build in $1/obj-$2 failed; see $W/merged.log"
}

# size_row DEBS SERIES [HEADERS.deb]: the sizes of SERIES' build in
# DEBS (its first amd64 flavour) against HEADERS.deb, or the projection
size_row() {
	_flavour=$(manifest_values "$1" flavour "$(manifest_rows "$1" series="$2" kind=kbuild arch=amd64)" | head -n 1)
	[ -n "$_flavour" ] || { echo "| $2 | no amd64 build in $1/manifest: ./build-kernel.sh --series $2 | | | | |"; return 0; }
	_kb=$(manifest_get "$1" file series="$2" kind=kbuild flavour="$_flavour")
	_hp=$(manifest_get "$1" file series="$2" kind=hostprogs flavour="$_flavour" arch=amd64)
	_src=$(manifest_get "$1" file series="$2" kind=source)
	_abiname=$(manifest_get "$1" abiname series="$2" kind=source)
	_ours=0
	for _d in "$_kb" "$_hp" "$_src"; do
		_ours=$((_ours + $(dpkg-deb -f "$_d" Installed-Size)))
	done
	rm -rf "$W/x" "$W/y"
	dpkg-deb -x "$_src" "$W/x"
	_srcdir=$W/x/usr/src/linux-kbuild-source-$_abiname
	if [ -n "${3:-}" ]; then
		dpkg-deb -x "$3" "$W/y"
		_theirs=$(dpkg-deb -f "$3" Installed-Size)
		_how="measured: ${3##*/}"
	else
		_tree=$(manifest_get "$1" file series="$2" kind=tree arch=amd64)
		if [ ! -f "$_tree/obj-$_flavour/.config" ]; then
			echo "| $2 | another build replaced the kept tree of $_abiname-$_flavour: ./build-kernel.sh --series $2 | | | | |"
			return 0
		fi
		merged_tree "$_tree" "$_flavour" "$W/y/usr/src/linux-headers"
		_theirs=$(tree_kib "$W/y")
		_how="projected: install-extmod-build's merged tree of the kept build"
	fi
	_priv=$(private_kib "$_srcdir" "$(find "$W/y/usr/src" -mindepth 1 -maxdepth 1 -type d | head -n 1)")
	_src_kib=$(dpkg-deb -f "$_src" Installed-Size)
	echo "| $2 ($_abiname-$_flavour) | $_ours (source $_src_kib) | $_theirs + $_priv = $((_theirs + _priv)) |" \
		"$(ratio "$_ours" $((_theirs + _priv))) | $(verdict "$(ratio "$_ours" $((_theirs + _priv)))" 0.90) | $_how |"
	# a second configuration or architecture shares our source tree; each
	# bindeb-pkg headers package would need the private headers too
	_ours2=$((2 * (_ours - _src_kib) + _src_kib))
	echo "| $2, two flavours | $_ours2 | 2 x $((_theirs + _priv)) = $((2 * (_theirs + _priv))) |" \
		"$(ratio "$_ours2" $((2 * (_theirs + _priv)))) | | projected: a second flavour the size of the first |"
	rm -rf "$W/x" "$W/y"
}

# write_size_table HEADERS.deb: every series, the bench's own against
# HEADERS.deb, the others' builds of OUT/debs against their projection
write_size_table() {
	echo
	echo "| series | ours: kbuild + host programs + source, installed KiB | bindeb-pkg headers + private headers, KiB | ratio | target <= 0.90 | theirs |"
	echo "|---|---:|---:|---:|---|---|"
	for _s in $(find "$TOP/patches" -mindepth 2 -maxdepth 2 -name series | sed 's|.*/patches/\(.*\)/series|\1|' | sort -V); do
		if [ "$_s" = "$SERIES" ]; then
			size_row "$W/pkg/debs" "$_s" "$1"
		else
			size_row "$OUT/debs" "$_s"
		fi
	done
}
