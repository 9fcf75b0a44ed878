#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/patches.sh - host-side test of the kbuild patch series.
#
# Usage: tests/patches.sh [SERIES...]    (default: 6.1 6.12 7.3)
#
# For each kernel version: apply the series to a fresh unpack, run
# checkpatch on it, build the tiny flavour's configuration with O=,
# install the two halves into directories far apart, look for
# build-host paths in them, build the C test modules of tests/modules
# against the installed object tree (one needs a private header of the
# source half), move both trees and build again; check that an in-tree
# build's modules_install is unchanged.
# Modules are never loaded here.
#
# When build-kernel.sh has built that version (the tree out/debs/manifest
# names) from the same tarball and series, by content (patches/apply.sh
# --describe), its patched tree and the O= tree of one of its flavours
# (tiny when there is one) stand for the unpack and the build: the same
# apply.sh made them on a fresh unpack, and a kernel build costs CI
# minutes.  The two checks not run then are reported as SKIP.
#
# Environment: KBS_OUT (default out/), KBS_JOBS (default nproc + 1),
# KBS_CCACHE=0 to build without ccache, KBS_CCACHE_DIR, KBS_REUSE=0 to
# unpack and build here even when the package build could be reused.

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

OUT=${KBS_OUT:-$TOP/out}
JOBS=${KBS_JOBS:-$(($(nproc) + 1))}
MODULES="kbs_plain kbs_private"

# checkpatch: EMBEDDED_FILENAME fires on every added line of the top
# Makefile that names "Makefile" (the generated include line must), and
# FILE_PATH_CHANGES on every new file (scripts/package is kbuild's).  Run
# from the tree, on stdin: in a git work tree checkpatch takes a file
# argument for one of that tree's files.
check_patches() {
	_fail=
	sed -e 's/#.*//' -e '/^$/d' "$TOP/patches/$SERIES/series" > "$W/series"
	while read -r _p; do
		(cd "$SRC" && scripts/checkpatch.pl -q --no-tree --no-summary \
			--ignore EMBEDDED_FILENAME,FILE_PATH_CHANGES - < "$TOP/patches/$SERIES/$_p") ||
			_fail="$_fail ${_p##*/}"
	done < "$W/series"
	[ -z "$_fail" ] || { echo "checkpatch complains about:$_fail"; return 1; }
}

build_kernel() {
	# shellcheck disable=SC2046 # file names without spaces
	merge_flavour_config "$SRC" "$OBJ" $(flavour_fragments tiny "$SERIES")
	_t0=$(date +%s)
	make -C "$SRC" O="$OBJ" -j"$JOBS" CC="$KBS_CC" bzImage modules \
		> "$W/build.log" 2>&1 || { tail -n 20 "$W/build.log"; return 1; }
	echo "# build of tinyconfig+tiny with O=: $(($(date +%s) - _t0)) s"
}

# install_halves: as upstream's packaging runs install-extmod-build,
# through "make run-command" (v6.1 gains it from the series), with the
# compiler the tree was configured with: before 6.13 run-command syncs
# the configuration to another one (a kept package build's tree would
# then recompile every object)
install_halves() {
	# shellcheck disable=SC2016 # $(srctree) and $(CONFIG_SHELL) are make's
	_run='$(CONFIG_SHELL) $(srctree)/scripts/package/install-extmod-build'
	_cc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\([^ ]*\) .*/\1/p' "$OBJ/.config")
	[ -n "$_cc" ] || { echo "no CONFIG_CC_VERSION_TEXT in $OBJ/.config"; return 1; }
	make -s -C "$SRC" O="$OBJ" CC="$_cc" run-command KBUILD_RUN_COMMAND="$_run --srctree $W/far/away/src" &&
	make -s -C "$SRC" O="$OBJ" CC="$_cc" run-command \
		KBUILD_RUN_COMMAND="$_run --objtree $W/else/where/obj ../../../far/away/src" &&
	echo "# installed: objtree $(du -sk --apparent-size "$W/else/where/obj" | cut -f1) KiB," \
		"srctree $(du -sk --apparent-size "$W/far/away/src" | cut -f1) KiB"
}

# The object half must name neither build directory; the source link is relative.
check_no_build_paths() {
	_hits=$(grep -rlF -e "$SRC" -e "$OBJ" "$W/else/where/obj" "$W/far/away/src" || true) # grep exits 1 on no match
	[ -z "$_hits" ] || { echo "build-host path in: $_hits"; return 1; }
	_link=$(readlink "$W/else/where/obj/source")
	[ "$_link" = "../../../far/away/src" ] || { echo "source link is $_link"; return 1; }
	! grep -q "$W" "$W/else/where/obj/Makefile" || { echo "Makefile names $W"; return 1; }
}

# Only the bridging Makefile may be in both halves.
check_disjoint() {
	(cd "$W/else/where/obj" && find . ! -type d | sort) > "$W/obj.list"
	(cd "$W/far/away/src" && find . ! -type d | sort) > "$W/src.list"
	_both=$(comm -12 "$W/obj.list" "$W/src.list" | tr '\n' ' ')
	[ "$_both" = "./Makefile " ] || { echo "in both halves: $_both"; return 1; }
	for _f in .config Module.symvers System.map include/config/auto.conf include/generated/autoconf.h \
		scripts/mod/modpost scripts/basic/fixdep tools/objtool/objtool scripts/genksyms/genksyms; do
		[ -e "$W/else/where/obj/$_f" ] || { echo "objtree lacks $_f"; return 1; }
	done
	for _f in Makefile include/linux/module.h scripts/Makefile.build drivers/base/base.h mm/slab.h; do
		[ -e "$W/far/away/src/$_f" ] || { echo "srctree lacks $_f"; return 1; }
	done
	! [ -e "$W/far/away/src/drivers/gpu/drm/amd/include/asic_reg" ] ||
		{ echo "excluded asic_reg was installed"; return 1; }
}

# build_module OBJTREE NAME: build a fresh copy of a test module, check vermagic.
build_module() {
	_dir=$W/mods/$2
	rm -rf "$_dir"
	mkdir -p "$W/mods"
	cp -r "$TOP/tests/modules/$2" "$_dir"
	make -C "$1" M="$_dir" > "$_dir.log" 2>&1 || { tail -n 5 "$_dir.log"; return 1; }
	_magic=$(modinfo -F vermagic "$_dir/$2.ko")
	[ "${_magic%% *}" = "$(cat "$OBJ/include/config/kernel.release")" ] ||
		{ echo "vermagic '$_magic' does not match the kernel"; return 1; }
}

move_trees() {
	mkdir -p "$W/moved/a" "$W/moved/b/c"
	mv "$W/else/where/obj" "$W/moved/a/obj"
	mv "$W/far/away/src" "$W/moved/b/c/src"
	ln -sfn ../../b/c/src "$W/moved/a/obj/source"
}

# unapply_series TREE: take the series back out of TREE, last patch first
unapply_series() {
	data_lines "$TOP/patches/$SERIES/series" |
		awk '{ l[NR] = $1 } END { for (i = NR; i > 0; i--) print l[i] }' |
		while read -r _p; do
			patch -d "$1" -p1 -R --batch -s < "$TOP/patches/$SERIES/$_p" || return 1
		done
}

# An in-tree build's modules_install runs the same commands as unpatched.
# Both trees are hard-linked copies of the patched one (patch(1) writes a
# new file for each file it changes, so taking the series back out of one
# copy leaves the others alone), which spares a second unpack.
check_intree_unchanged() {
	cp -al "$SRC" "$W/intree-patched" && rm -f "$W/intree-patched/.kbuild-split-series"
	cp -al "$W/intree-patched" "$W/intree"
	unapply_series "$W/intree" || { echo "the series does not come back out of the patched tree"; return 1; }
	for _t in intree intree-patched; do
		make -s -C "$W/$_t" tinyconfig > /dev/null 2>&1
		"$W/$_t/scripts/config" --file "$W/$_t/.config" -e MODULES
		make -s -C "$W/$_t" syncconfig
		(cd "$W/$_t" && touch modules.order modules.builtin modules.builtin.modinfo)
		make -n -C "$W/$_t" modules_install INSTALL_MOD_PATH=/nonexistent 2>&1 |
			sed -e "s:$W/$_t:TREE:g" -e 's/Makefile:[0-9]*:/Makefile:N:/' > "$W/$_t.modinst"
	done
	grep -q 'ln -s' "$W/intree-patched.modinst" || { echo "no link made in-tree"; return 1; }
	diff -u "$W/intree.modinst" "$W/intree-patched.modinst" | head -n 20
	cmp -s "$W/intree.modinst" "$W/intree-patched.modinst"
}

# find_package_build: set SRC and OBJ to build-kernel.sh's patched tree and
# the O= tree of one flavour when they are of the current tarball and series
find_package_build() {
	[ "${KBS_REUSE:-1}" = 1 ] || return 1
	_build=$(manifest_get "$OUT/debs" file series="$SERIES" kind=tree arch="$(dpkg --print-architecture)" \
		2> /dev/null) || return 1
	[ -f "$_build/src/.kbuild-split-series" ] || return 1
	"$TOP/patches/apply.sh" --describe "$SERIES" > "$W/series.now" 2> /dev/null || return 1
	cmp -s "$W/series.now" "$_build/src/.kbuild-split-series" || return 1
	for _obj in "$_build/obj-tiny" "$_build"/obj-*; do
		if [ -f "$_obj/Module.symvers" ] && [ -f "$_obj/include/config/kernel.release" ]; then
			SRC=$_build/src
			OBJ=$_obj
			return 0
		fi
	done
	return 1
}

test_version() {
	SERIES=$1
	W=$OUT/tests/patches-$SERIES
	SRC=$W/src
	OBJ=$W/obj
	rm -rf "$W"
	mkdir -p "$W"
	echo "# series $SERIES"
	if find_package_build; then
		ktap_skip "$SERIES: series applies" "build-kernel.sh applied it to a fresh unpack, ${SRC#"$OUT"/}, of the same tarball and series (by sha256)"
		ktap_check "$SERIES: checkpatch clean" check_patches
		ktap_skip "$SERIES: O= build" "build-kernel.sh built ${OBJ#"$OUT"/} from that tree"
	elif ! "$TOP/patches/apply.sh" "$SERIES" "$SRC" > "$W/apply.log" 2>&1; then
		ktap_fail "$SERIES: series applies" "$(tail -n 1 "$W/apply.log")"
		return 0
	else
		ktap_ok "$SERIES: series applies"
		ktap_check "$SERIES: checkpatch clean" check_patches
		ktap_check "$SERIES: O= build" build_kernel
	fi
	if ! [ -f "$OBJ/Module.symvers" ]; then
		ktap_skip "$SERIES: install and module builds" "the kernel did not build"
		return 0
	fi
	ktap_check "$SERIES: install both halves" install_halves
	ktap_check "$SERIES: the object half's Makefile reaches the source half through the link" check_objtree_makefile
	ktap_check "$SERIES: no build-host path in the halves" check_no_build_paths
	ktap_check "$SERIES: halves disjoint and complete" check_disjoint
	for _m in $MODULES; do
		ktap_check "$SERIES: build $_m against the installed trees" build_module "$W/else/where/obj" "$_m"
	done
	ktap_check "$SERIES: move both trees" move_trees
	for _m in $MODULES; do
		ktap_check "$SERIES: build $_m after moving the trees" build_module "$W/moved/a/obj" "$_m"
	done
	ktap_check "$SERIES: in-tree modules_install unchanged" check_intree_unchanged
}

# check_objtree_makefile: the installed object half's Makefile names no
# path: it exports its own directory as KBUILD_OUTPUT (which M= builds
# read since 6.13) and includes source/Makefile through its own link;
# the O= directory's Makefile is upstream's (it names the source tree)
check_objtree_makefile() {
	# shellcheck disable=SC2016 # make expressions are the expected text
	printf '%s\n' '# Automatically generated by install-extmod-build: don'"'"'t edit' \
		'export KBUILD_OUTPUT := $(realpath $(dir $(lastword $(MAKEFILE_LIST))))' \
		'include $(KBUILD_OUTPUT)/source/Makefile' > "$W/objtree.mk"
	cmp -s "$W/objtree.mk" "$W/else/where/obj/Makefile" || { cat "$W/else/where/obj/Makefile"; return 1; }
	grep -qx 'include /.*/Makefile' "$OBJ/Makefile" || { cat "$OBJ/Makefile"; echo "the O= Makefile is not upstream's"; return 1; }
}

main() {
	need_cmd modinfo kmod
	setup_ccache
	[ $# -gt 0 ] || set -- 6.1 6.12 7.3
	for _v in "$@"; do
		test_version "$_v"
	done
	ktap_summary
}

main "$@"
