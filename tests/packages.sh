#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/packages.sh - host-side checks of the built .debs.
#
# Usage: tests/packages.sh [--suite SUITE]  (default: every suite of
#                                           debian/config/suites)
#
# For every target suite, in the suite's own environment (this machine
# for its own, the suite's build environment, lib/buildenv.sh, for
# another: its lintian, compilers and linux-source), and every build that
# its debs/manifest names (out/debs, out/<suite>/debs; one a series): the
# packages it lists are there as the build made them (sha256), for every
# flavour, each holds the
# right files, no file is in two packages, no shipped file names the build
# directory, no private key is shipped, every ELF file is of its package's
# architecture, the relations hold (linux-kbuild Provides linux-headers,
# image and kbuild of one build only), the maintainer scripts are sound
# and run their hooks, every binary says Built-Using, the versions follow
# the kernel (source kbuild-split-<series>
# <upstream>+abi<ABI>.src<linux-source's revision>.<revision>),
# every run's kept tree has the costs of its stages (debian/build/stages),
# lintian reports no error and no warning its overrides do not explain on
# each build's .changes
# (source and binaries, out/pkg/<series>/<arch>/, as the manifest names
# them; SKIP for one a later build replaced there), and the C test
# modules build against the trees unpacked from the packages: natively
# for this machine's flavours, cross-compiled (ARCH=, CROSS_COMPILE=) with
# this machine's host programs for the others, with the compiler the
# object tree pins and no "compiler differs"; then again with the two
# trees moved apart (the source link repointed), and make stops in one
# line on a dangling source link and on a missing compiler.
#
# The modules and the build and source links are where the suite has
# them (debian/config/suites: /lib/modules, or /usr/lib/modules with
# relative links and nothing in the aliased /lib on a merged-/usr suite).
#
# Environment: KBS_OUT (default out/), KBS_LINTIAN=0 to skip lintian.

set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/kbuild-split.sh
. "$TOP/lib/kbuild-split.sh"
# shellcheck source=tests/lib/ktap.sh
. "$TOP/tests/lib/ktap.sh"
# shellcheck source=lib/manifest.sh
. "$TOP/lib/manifest.sh"
# shellcheck source=lib/host.sh
. "$TOP/lib/host.sh"
# shellcheck source=lib/buildenv.sh
. "$TOP/lib/buildenv.sh"
# shellcheck source=tests/packages/lintian.sh
. "$TOP/tests/packages/lintian.sh"
# shellcheck source=tests/packages/modules.sh
. "$TOP/tests/packages/modules.sh"
# shellcheck source=tests/packages/contents.sh
. "$TOP/tests/packages/contents.sh"

OUT=${KBS_OUT:-$TOP/out}
BUILD_ARCH=$(dpkg --print-architecture)
W=

cleanup() {
	if [ -n "$W" ]; then
		rm -rf "$W"
	fi
	unmount_buildenv
}

# deb NAME [ARCH]: the .deb of package NAME (of ARCH) of SERIES' build in DEBS
deb() {
	manifest_get "$DEBS" file series="$SERIES" package="$1" ${2:+arch="$2"}
}

# contents DEB: its paths, "./" stripped, symlinks as "path -> target"
contents() {
	dpkg-deb -c "$1" | awk '{ $1 = $2 = $3 = $4 = $5 = ""; sub(/^ +/, ""); sub(/^\.\//, ""); print }'
}

# has_files DEB PATH...: each PATH is in DEB (a file, directory or link)
has_files() {
	contents "$1" | sed 's/ -> .*//' > "$W/list"
	_hf=$1
	shift
	for _f in "$@"; do
		grep -qxF -- "$_f" "$W/list" || { echo "${_hf##*/} lacks $_f"; return 1; }
	done
}

# check_stages: each run's kept tree has the costs of its stages
# (debian/bin/stage), a compile and a dpkg-deb at least, every line a name
# and two numbers
check_stages() {
	for _t in $(manifest_values "$DEBS" file "$(manifest_rows "$DEBS" series="$SERIES" kind=tree)"); do
		[ -s "$_t/stages" ] || { echo "no $_t/stages"; return 1; }
		awk -F '\t' 'NF != 3 || $2 !~ /^[0-9]+\.[0-9]+$/ || $3 !~ /^[0-9]+\.[0-9]+$/ { print "bad line " NR ": " $0; bad = 1 }
			{ seen[$1] = 1 }
			END { if (!seen["compile"] || !seen["dpkg-deb and compression"]) { print "no compile or dpkg-deb stage"; bad = 1 }; exit bad }' \
			"$_t/stages" || { echo "in $_t/stages"; return 1; }
		echo "# ${_t#"$OUT"/}/stages: $(cut -f1,2 "$_t/stages" | tr '\t\n' '=,')"
	done
}

# check_maint_scripts KIND REL: the scripts of linux-KIND-REL
check_maint_scripts() {
	rm -rf "$W/ctl"
	dpkg-deb -e "$(deb "linux-$1-$2")" "$W/ctl"
	for _s in preinst postinst prerm postrm; do
		[ -f "$W/ctl/$_s" ] || continue
		_p=$(maint_script_problems "$W/ctl/$_s" "$1.$_s")
		[ -z "$_p" ] || { printf '%s\n' "$_p" | sed "s/^/$_s: /"; return 1; }
	done
}

check_no_file_twice() {
	for _p in $PACKAGES; do
		contents "$(deb "$_p" "$(pkg_arch "$_p")")" | grep -v -e '/$' -e '^$' -e "^usr/share/doc/$_p/"
	done | sed 's/ -> .*//' | sort | uniq -d > "$W/twice"
	[ ! -s "$W/twice" ] || { echo "in two packages: $(head -n 3 "$W/twice" | tr '\n' ' ')"; return 1; }
}

# pkg_arch NAME: the architecture a machine like this one installs it
# for, when the build made it for more than one
pkg_arch() {
	case $1 in
	linux-kbuild-hostprogs-*) echo "$BUILD_ARCH" ;;
	esac
}

# as_built NAME: NAME's .deb is there, as the build made it (sha256)
as_built() {
	_a=$(pkg_arch "$1")
	_f=$(deb "$1" "$_a") || return 1
	_want=$(manifest_get "$DEBS" sha256 series="$SERIES" package="$1" ${_a:+arch="$_a"}) || return 1
	[ -f "$_f" ] || { echo "no $_f"; return 1; }
	[ "$(sha256sum < "$_f" | cut -d' ' -f1)" = "$_want" ] || { echo "${_f##*/} is not the one the build made"; return 1; }
}

# check_versions: the build's version follows the kernel, as every package
# of it, the metapackages included, and its source package is named for
# the series, so no two builds write one source tarball
check_versions() {
	_up=$(manifest_get "$DEBS" upstream series="$SERIES" kind=source) || return 1
	_abi=$(manifest_get "$DEBS" abi series="$SERIES" kind=source) || return 1
	_v=$(manifest_get "$DEBS" version series="$SERIES" kind=source) || return 1
	_dsc=$(manifest_get "$DEBS" file series="$SERIES" kind=dsc) || return 1
	# the linux-source the .dsc builds from, exactly
	_src=$(sed -n "s/.*linux-source-$SERIES (= \([^)]*\)).*/\1/p" "$_dsc")
	[ -n "$_src" ] || { echo "${_dsc##*/} does not build from one linux-source-$SERIES version"; return 1; }
	case $_v in
	"$_up+abi$_abi.src${_src##*-}".[0-9]*) ;;
	*) echo "version $_v does not follow linux-source-$SERIES $_src, ABI $_abi"; return 1 ;;
	esac
	_others=$(manifest_rows "$DEBS" series="$SERIES" | awk -F '\t' -v v="$_v" -v c="$(manifest_column version)" \
		'$c != v && $c != "-"' | head -n 3)
	[ -z "$_others" ] || { echo "not of version $_v: $_others"; return 1; }
	[ "${_dsc##*/}" = "kbuild-split-${SERIES}_$_v.dsc" ] || { echo "source package ${_dsc##*/}"; return 1; }
	echo "# $SERIES: linux-source-$SERIES $_src, source kbuild-split-$SERIES $_v, metapackages $(manifest_list "$DEBS" version series="$SERIES" kind=meta-image | tr '\n' ' ')"
}

unpack_all() {
	rm -rf "$W/root"
	for _p in $PACKAGES; do
		dpkg-deb -x "$(deb "$_p" "$(pkg_arch "$_p")")" "$W/root"
	done
}

# The packages were built under $OUT/pkg; nothing shipped may say so.
check_no_build_paths() {
	_hits=$(grep -rlF -e "$OUT/pkg" -e "/debian/build/" "$W/root" | head -n 5 || true) # none is the good case
	[ -z "$_hits" ] || { echo "build path in: $_hits"; return 1; }
}

check_no_private_key() {
	_keys=$(find "$W/root" \( -name '*.pem' -o -name '*.priv' -o -name '*.key' \) -print | head -n 3)
	[ -z "$_keys" ] || { echo "key files: $_keys"; return 1; }
	_keys=$(grep -rlF 'PRIVATE KEY-----' "$W/root" | head -n 3 || true) # none is the good case
	[ -z "$_keys" ] || { echo "private key in: $_keys"; return 1; }
}

# test_series SERIES: every check of SERIES' build
test_series() {
	SERIES=$1
	ABINAME=$(manifest_get "$DEBS" abiname series="$SERIES" kind=source) || exit 1
	FLAVOURS=$(manifest_list "$DEBS" flavour series="$SERIES" kind=image | tr '\n' ' ')
	PACKAGES="linux-kbuild-source-$ABINAME"
	echo "# ABI $ABINAME, flavours: $FLAVOURS"
	for _f in $FLAVOURS; do
		for _p in "linux-image-$ABINAME-$_f" "linux-kbuild-$ABINAME-$_f" "linux-kbuild-hostprogs-$ABINAME-$_f"; do
			PACKAGES="$PACKAGES $_p"
			ktap_check "$ABINAME: $_p built" as_built "$_p"
		done
		ktap_check "$ABINAME-$_f: image contents" check_image "$ABINAME-$_f"
		ktap_check "$ABINAME-$_f: kbuild contents" check_kbuild "$ABINAME-$_f"
		ktap_check "$ABINAME-$_f: package relations" check_relations "$ABINAME-$_f"
		ktap_check "$ABINAME-$_f: the metapackages' doc directories are links, the copyright once in each package they lead to" \
			check_doc_links "$_f"
		for _k in image kbuild; do
			ktap_check "$ABINAME-$_f: linux-$_k maintainer scripts" check_maint_scripts "$_k" "$ABINAME-$_f"
		done
		for _d in $(manifest_debs "$DEBS" series="$SERIES" flavour="$_f" | grep -v -e "/linux-image-$SERIES-" -e "/linux-kbuild-$SERIES-"); do
			ktap_check "$ABINAME-$_f: ELF files of ${_d##*/} are for its architecture" check_elf "$_d"
		done
	done
	ktap_check "$ABINAME: source tree contents" check_srctree
	ktap_check "$ABINAME: no ELF file in the source tree's package (dh_strip and dh_shlibdeps skip it)" \
		check_elf "$(deb "linux-kbuild-source-$ABINAME")"
	ktap_check "$ABINAME: versions follow the kernel" check_versions
	ktap_check "$ABINAME: the source package: packaging, patches, its autopkgtest, no key; ~testcert with a test certificate" \
		check_source_package
	ktap_check "$ABINAME: every run wrote down the costs of its stages" check_stages
	ktap_check "$ABINAME: no file in two packages" check_no_file_twice
	ktap_check "$ABINAME: nothing in the aliased /lib, /bin or /sbin of a merged-/usr suite" check_not_aliased
	unpack_all
	ktap_check "$ABINAME: no build path in shipped files" check_no_build_paths
	ktap_check "$ABINAME: no private key" check_no_private_key
	ktap_check "$ABINAME: the shipped copyright: the paragraph claiming each shipped file names its licence" \
		"$TOP/debian/bin/check-copyright" "$W/root/usr/share/doc/linux-kbuild-source-$ABINAME/copyright" "$W/root"
	for _f in $FLAVOURS; do
		ktap_check "$ABINAME-$_f: the object tree pins the kernel's compiler" check_pinned "$ABINAME-$_f"
		for _m in kbs_plain kbs_private; do
			ktap_check "$ABINAME-$_f: $_m builds against the unpacked packages" build_module "$_f" "$_m"
		done
		ktap_check "$ABINAME-$_f: the trees moved apart build both modules" check_relocated "$_f"
		ktap_check "$ABINAME-$_f: a module build runs no program of the trees but the host programs package's" \
			check_ran_hostprogs "$_f"
	done
	if [ "${KBS_LINTIAN:-1}" = 1 ]; then
		lint_changes
	else
		ktap_skip "$ABINAME: lintian" "KBS_LINTIAN=0"
	fi
}

# test_suite SUITE: every check of SUITE's builds, here
test_suite() {
	SUITE=$1
	DEBS=$(suite_out "$SUITE")/debs
	MODULES_DIR=$(suite_modules_dir "$SUITE")
	_series=$(manifest_series "$DEBS") || exit 1
	echo "# suite $SUITE: $DEBS, modules in $MODULES_DIR"
	for _s in $_series; do
		test_series "$_s"
	done
}

# test_in_buildenv SUITE: this script for SUITE in SUITE's build
# environment, its results as this run's
test_in_buildenv() {
	_rc=0
	in_buildenv "$1" tests/packages.sh --suite "$1" > "$W/$1.ktap" 2>&1 || _rc=$?
	ktap_adopt "$W/$1.ktap" ||
		ktap_fail "$1: tests/packages.sh in its build environment" "exit $_rc, its results incomplete: $(tail -n 1 "$W/$1.ktap")"
}

main() {
	_suites=$(list_data "$TOP/debian/config/suites")
	if [ "${1:-}" = --suite ]; then
		_suites=${2:?--suite needs a suite of debian/config/suites}
		suite_modules_dir "$_suites" > /dev/null
	fi
	need_cmd dpkg-deb dpkg
	trap cleanup EXIT
	W=$(mktemp -d)
	for _suite in $_suites; do
		if ! [ -f "$(suite_out "$_suite")/debs/manifest" ]; then
			ktap_skip "$_suite: the packages" "no build for $_suite in $(suite_out "$_suite")/debs: ./build-kernel.sh --suite $_suite"
		elif [ "$_suite" = "$(machine_suite)" ]; then
			install_host_packages packages
			test_suite "$_suite"
		else
			test_in_buildenv "$_suite"
		fi
	done
	ktap_summary
}

main "$@"
