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
# the kernel (source kbuild-split-<series> <upstream>+abi<ABI>.<revision>),
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

check_image() {
	_d=$(deb "linux-image-$1")
	_m=${MODULES_DIR#/}/$1
	has_files "$_d" "boot/vmlinuz-$1" "boot/System.map-$1" "boot/config-$1" \
		"$_m/modules.order" "$_m/modules.builtin" || return 1
	grep -q "^$_m/kernel/.*\.ko$" "$W/list" || { echo "no module in linux-image-$1 under $MODULES_DIR"; return 1; }
	! grep -q "^$_m/\(build\|source\)\b" "$W/list" ||
		{ echo "linux-image-$1 ships a build or source link"; return 1; }
}

# usr_src_link NAME: the target of a link in MODULES_DIR/<rel> to
# /usr/src/NAME: relative within /usr, absolute from elsewhere (Policy 10.5)
usr_src_link() {
	case $MODULES_DIR in
	/usr/*) printf '%s/../src/%s\n' "$(printf '%s\n' "${MODULES_DIR#/usr/}" | sed 's|[^/][^/]*|..|g')" "$1" ;;
	*) printf '/usr/src/%s\n' "$1" ;;
	esac
}

# check_not_aliased: on a merged-/usr suite, no package of the build has a
# path in /lib, /bin or /sbin, which are links to /usr there (dpkg's
# handling of such files is undefined; lintian: aliased-location)
check_not_aliased() {
	case $MODULES_DIR in
	/usr/*) ;;
	*) echo "# $SUITE installs into $MODULES_DIR: not merged-/usr"; return 0 ;;
	esac
	for _p in $PACKAGES; do
		_a=$(contents "$(deb "$_p" "$(pkg_arch "$_p")")" | grep -E '^(lib|lib32|lib64|bin|sbin)(/|$)' | head -n 1)
		[ -z "$_a" ] || { echo "$_p ships $_a in an aliased directory"; return 1; }
	done
	echo "# $SUITE: no path in /lib, /bin or /sbin in $(echo "$PACKAGES" | wc -w) packages"
}

# check_kbuild REL: the object tree, its links (these and no others), and
# its host programs in the same directory, from the hostprogs package
check_kbuild() {
	_d=usr/src/linux-kbuild-$1
	has_files "$(deb "linux-kbuild-$1")" "$_d/Makefile" "$_d/.config" "$_d/Module.symvers" \
		"$_d/include/config/auto.conf" "$_d/include/generated/autoconf.h" "$_d/source" "$_d/System.map" ||
		return 1
	has_files "$(deb "linux-kbuild-hostprogs-$1" "$BUILD_ARCH")" "$_d/scripts/mod/modpost" \
		"$_d/scripts/basic/fixdep" || return 1
	contents "$(deb "linux-kbuild-$1")" | grep ' -> ' | sort > "$W/links"
	printf '%s\n' "$_d/source -> ../linux-kbuild-source-$ABINAME" "$_d/System.map -> /boot/System.map-$1" \
		"${MODULES_DIR#/}/$1/build -> $(usr_src_link "linux-kbuild-$1")" \
		"${MODULES_DIR#/}/$1/source -> $(usr_src_link "linux-kbuild-source-$ABINAME")" | sort > "$W/links.want"
	cmp -s "$W/links" "$W/links.want" || { echo "links: $(diff "$W/links.want" "$W/links" | grep '^[<>]' | head -n 3 | tr '\n' ' ')"; return 1; }
}

# check_relations REL: what dpkg and apt need to know of REL's packages
check_relations() {
	_k=$(dpkg-deb -f "$(deb "linux-kbuild-$1")" Provides Depends Breaks)
	_i=$(dpkg-deb -f "$(deb "linux-image-$1")" Breaks)
	_v=$(dpkg-deb -f "$(deb "linux-kbuild-$1")" Version)
	for _want in "linux-headers-$1" "linux-kbuild-source-$ABINAME (= $_v)" \
		"linux-kbuild-hostprogs-$1 (>= $_v)" "linux-image-$1 (<< $_v)" "linux-image-$1 (>> $_v)"; do
		printf '%s\n' "$_k" | grep -qF -- "$_want" || { echo "linux-kbuild-$1 lacks '$_want'"; return 1; }
	done
	printf '%s\n' "$_i" | grep -qF "linux-kbuild-$1 (<< $_v)" || { echo "linux-image-$1 does not break other kbuilds"; return 1; }
	_bu=$(dpkg-query -W -f='${source:Package} (= ${source:Version})' "linux-source-$SERIES" 2>/dev/null) ||
		{ echo "linux-source-$SERIES is not installed: the Built-Using check needs it"; return 1; }
	for _kind in image kbuild kbuild-hostprogs; do
		[ "$(dpkg-deb -f "$(deb "linux-$_kind-$1" "$(pkg_arch "linux-$_kind-$1")")" Built-Using)" = "$_bu" ] ||
			{ echo "linux-$_kind-$1 has no Built-Using: $_bu"; return 1; }
	done
	[ "$(dpkg-deb -f "$(deb "linux-kbuild-hostprogs-$1" "$BUILD_ARCH")" Multi-Arch)" = foreign ] ||
		{ echo "linux-kbuild-hostprogs-$1 is not Multi-Arch: foreign"; return 1; }
}

check_srctree() {
	_d=usr/src/linux-kbuild-source-$ABINAME
	has_files "$(deb "linux-kbuild-source-$ABINAME")" "$_d/Makefile" "$_d/Kconfig" "$_d/include/linux/module.h" \
		"$_d/scripts/Makefile.build" "$_d/arch/x86/Makefile" "$_d/arch/arm64/Makefile" \
		"$_d/arch/arm64/include/asm/module.h" "$_d/drivers/base/base.h" "$_d/mm/slab.h" || return 1
	[ "$(dpkg-deb -f "$(deb "linux-kbuild-source-$ABINAME")" Architecture)" = all ] || { echo "not Architecture: all"; return 1; }
	# lean: nothing that only builds the documentation, samples or tools, no patch leftovers
	_extra=$(grep -e "^$_d/\(Documentation\|samples\|tools\)/" -e '\.\(orig\|rej\)$' "$W/list" | head -n 3)
	[ -z "$_extra" ] || { echo "the source tree ships $(echo "$_extra" | tr '\n' ' ')"; return 1; }
	# of arch/, the kernel architectures of debian/arches/ alone
	_want=$(for _p in "$TOP"/debian/arches/*; do arch_value "${_p##*/}" kernel-arch; done | sort | tr '\n' ' ')
	_have=$(sed -n "s|^$_d/arch/\([^/]*\)/.*|\1|p" "$W/list" | sort -u | tr '\n' ' ')
	[ "$_have" = "$_want" ] || { echo "the source tree's arch/ has: $_have; debian/arches/: $_want"; return 1; }
	echo "# linux-kbuild-source-$ABINAME: $(grep -cv '/$' "$W/list") paths, Installed-Size $(dpkg-deb -f "$(deb "linux-kbuild-source-$ABINAME")" Installed-Size) KiB"
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
	case $_v in
	"$_up+abi$_abi".[0-9]*) ;;
	*) echo "version $_v does not follow linux-source-$SERIES $_up, ABI $_abi"; return 1 ;;
	esac
	_others=$(manifest_rows "$DEBS" series="$SERIES" | awk -F '\t' -v v="$_v" -v c="$(manifest_column version)" \
		'$c != v && $c != "-"' | head -n 3)
	[ -z "$_others" ] || { echo "not of version $_v: $_others"; return 1; }
	_dsc=$(manifest_get "$DEBS" file series="$SERIES" kind=dsc) || return 1
	[ "${_dsc##*/}" = "kbuild-split-${SERIES}_$_v.dsc" ] || { echo "source package ${_dsc##*/}"; return 1; }
	echo "# $SERIES: source kbuild-split-$SERIES $_v, metapackages $(manifest_list "$DEBS" version series="$SERIES" kind=meta-image | tr '\n' ' ')"
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

# check_source_package: the build's source package (native: its .tar.xz
# beside the .dsc) holds the packaging, the patches and the shell library
# alone, no private key; its version ends in "~testcert" exactly when the
# certificate its kernels trust (debian/certs/trusted.pem) is one of
# tests/keys (fingerprint)
check_source_package() {
	_dsc=$(manifest_get "$DEBS" file series="$SERIES" kind=dsc) || return 1
	_v=$(manifest_get "$DEBS" version series="$SERIES" kind=source) || return 1
	_tar=${_dsc%.dsc}.tar.xz
	[ -f "$_tar" ] || { echo "no ${_tar##*/} beside ${_dsc##*/}"; return 1; }
	rm -rf "$W/srcpkg"
	mkdir -p "$W/srcpkg"
	tar -xJf "$_tar" -C "$W/srcpkg" || { echo "cannot unpack ${_tar##*/}"; return 1; }
	_top=$(cd "$W/srcpkg"/* && ls -A | tr '\n' ' ')
	[ "$_top" = "debian lib patches " ] || { echo "${_tar##*/} holds $_top(not debian lib patches)"; return 1; }
	_keys=$(grep -rlF 'PRIVATE KEY-----' "$W/srcpkg" | head -n 3 || true) # none is the good case
	[ -z "$_keys" ] || { echo "private key in the source package: $_keys"; return 1; }
	_cert=$(echo "$W/srcpkg"/*/debian/certs/trusted.pem)
	_test=
	_trust="no packager certificate"
	if [ -f "$_cert" ]; then
		_trust="the packager certificate $(openssl x509 -in "$_cert" -noout -subject)"
		! is_test_certificate "$_cert" || _test="a certificate of tests/keys"
	fi
	case $_v:$_test in
	*~testcert:?*) echo "# $_v: trusts $_test" ;;
	*~testcert:) echo "version $_v says testcert, but the packages trust no certificate of tests/keys"; return 1 ;;
	*:?*) echo "version $_v does not say that the packages trust $_test (~testcert)"; return 1 ;;
	*) echo "# $_v: trusts $_trust" ;;
	esac
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
	ktap_check "$ABINAME: the source package: packaging, patches, no key; ~testcert with a test certificate" \
		check_source_package
	ktap_check "$ABINAME: every run wrote down the costs of its stages" check_stages
	ktap_check "$ABINAME: no file in two packages" check_no_file_twice
	ktap_check "$ABINAME: nothing in the aliased /lib, /bin or /sbin of a merged-/usr suite" check_not_aliased
	unpack_all
	ktap_check "$ABINAME: no build path in shipped files" check_no_build_paths
	ktap_check "$ABINAME: no private key" check_no_private_key
	ktap_check "$ABINAME: the shipped copyright has the licence of every SPDX tag shipped" \
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
