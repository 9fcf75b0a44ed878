#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# build-kernel.sh - build the kbuild-split Debian packages.
#
# Usage: ./build-kernel.sh [--suite bookworm|trixie] [--series 6.1|6.12|7.3]
#                          [--flavours "qemu tiny"] [--jobs N] [--no-ccache]
#                          [--incremental] [--icecc | --distcc "HOST/N..."]
#                          [--abi N] [--debs DIR] [--trusted-cert PEM]
#        ./build-kernel.sh --for-tests [--full]   (the builds of tests/builds)
#
# --suite names the Debian release the packages are for (default:
# bookworm, debian/config/suites); debian/config/source-suite lists the
# series each one builds.  A suite that is not this machine's own builds
# in a chroot of it, made and cached by lib/buildenv.sh, into
# out/<suite>/ (pkg, logs, debs).
# Installs what it needs with apt-get when it is missing (as root): dpkg-dev,
# linux-source-<series> and, per architecture, the build dependencies
# (apt-get build-dep; for another architecture with dpkg
# --add-architecture and the cross toolchain).  Then one dpkg-buildpackage
# per architecture of the flavours, in out/pkg/<series>/<arch>/: this
# machine's own first (it also builds the source package, the arch:all
# source tree and the host programs of the other architectures'
# flavours), then "dpkg-buildpackage -a <arch> -Pcross" for each other
# one, which hard-links the first run's patched tree.  The .debs go to
# out/debs/ (--debs DIR) once every run has succeeded.  Progress goes to
# stderr (the stages, and objects compiled of those expected), the full
# log to out/logs/build-<series>-<arch>.log, and its tail on failure.
#
# --incremental keeps each run's patched tree and O= directories
# (out/pkg/<series>/<arch>/kbuild-split/debian/build/src, obj-<flavour>)
# and rebuilds only what changed there, reusing the source tree's .deb,
# as long as the inputs are those of the kept build (tarball, series,
# selection, packaging, by sha256); otherwise it starts clean.
# --abi N builds ABI N instead of debian/config/abiname's (for tests: a
# packager bumps abiname), version <upstream>+abiN.src<source revision>.<revision>.
# --icecc or --distcc HOSTS (or KBS_FARM=icecc|distcc) compile on a farm
# behind ccache, with make's jobs scaled to it (lib/farm.sh); this
# machine's own architecture only, cross builds stay here.
# --trusted-cert PEM puts the packager's X.509 certificate among the
# built-in trusted keys of the flavours that sign modules
# (debian/config/signing.config): it becomes debian/certs/trusted.pem of
# the source package.  A build for another suite reads it in its chroot,
# which sees the repository and KBS_OUT only.  The tests' certificates
# (tests/keys, whose private keys are public) are refused but for the
# builds of --for-tests, whose versions then end in "~testcert".
#
# Environment: KBS_OUT (default out/), KBS_CCACHE_DIR (default
# /var/cache/kbuild-split/ccache), KBS_XZ_LEVEL, SOURCE_DATE_EPOCH
# (dpkg-buildpackage: the date of the debian/changelog gencontrol writes),
# DEBFULLNAME and DEBEMAIL (the packages' Maintainer, as dch takes it).

set -eu

TOP=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/kbuild-split.sh
. "$TOP/lib/kbuild-split.sh"
# shellcheck source=lib/host.sh
. "$TOP/lib/host.sh"
# shellcheck source=lib/build.sh
. "$TOP/lib/build.sh"
# shellcheck source=lib/build-manifest.sh
. "$TOP/lib/build-manifest.sh"
# shellcheck source=lib/farm.sh
. "$TOP/lib/farm.sh"
# shellcheck source=lib/manifest.sh
. "$TOP/lib/manifest.sh"
# shellcheck source=lib/buildenv.sh
. "$TOP/lib/buildenv.sh"

OUT=
DEBS=
SUITE=$(default_suite)
SERIES=6.1
FLAVOURS=
ABI=
INCREMENTAL=
JOBS=$(($(nproc) + 1))
JOBS_SET=
FARM_HOSTS=
KBS_CCACHE=${KBS_CCACHE:-1}
BUILD_ARCH=
EXPECTED=
LOG=
W=
TRUSTED_CERT=

usage() {
	sed -n 's/^# \{0,1\}//; 4,10p' "$0" >&2
	exit 2
}

cleanup() {
	if [ -n "$LOG" ] && [ -f "$LOG.failed" ]; then
		log "failed; last lines of $LOG:"
		tail -n 40 "$LOG" >&2
		rm -f "$LOG.failed"
	fi
	if [ -n "$W" ]; then
		rm -rf "$W"
	fi
	unmount_buildenv
}

# resolve_selection: the selection as debian/bin/gencontrol resolves it
# (every input checked, nothing written or installed yet): sets FLAVOURS
# (default: all) and ARCHES, this machine's first when it has flavours
resolve_selection() {
	# shellcheck disable=SC2046,SC2086 # names, with spaces or commas between them
	_sel=$("$TOP/debian/bin/gencontrol" --check --suite "$SUITE" ${ABI:+--abi "$ABI"} "$SERIES" $(echo $FLAVOURS | tr , ' ')) ||
		exit 1
	FLAVOURS=$(printf '%s\n' "$_sel" | sed -n 's/^flavours //p')
	_arches=$(printf '%s\n' "$_sel" | sed -n 's/^arches //p')
	ARCHES=
	case " $_arches " in
	*" $BUILD_ARCH "*) ARCHES=" $BUILD_ARCH" ;;
	esac
	for _a in $_arches; do
		[ "$_a" = "$BUILD_ARCH" ] || ARCHES="$ARCHES $_a"
	done
}

# build_arch ARCH DPKG-OPTION: one dpkg-buildpackage for the ARCH flavours
build_arch() {
	_dir=$OUT/pkg/$SERIES/$1/kbuild-split
	_opt=$2
	LOG=$OUT/logs/build-$SERIES-$1.log
	_key=$SERIES-$1-$(echo "$FLAVOURS" | tr ' ' +)
	_record=$OUT/logs/objects-$_key
	# this machine's last count, or the shipped one, or none
	EXPECTED=$(cat "$_record" 2>/dev/null || data_value "$TOP/lib/objects" "$_key" || true)
	: > "$LOG"
	touch "$LOG.failed"
	log "building linux-source-$SERIES for $1 (log: $LOG)"
	prepare_packaging "$_dir"
	install_build_deps "$_dir" "$1"
	check_compiler "$_dir" "$1"
	if [ -n "$KEPT" ]; then
		# no clean; the kept build's source packages (arch:all, .dsc) stay
		_opt="-B -nc"
		EXPECTED=
	elif [ -n "$SOURCE_KEPT" ]; then
		_opt=-B
	fi
	# the farm compiles for this machine's architecture only
	if [ -n "$FARM" ] && [ "$1" = "$BUILD_ARCH" ]; then
		CCACHE_PREFIX=$FARM
		export CCACHE_PREFIX
	else
		unset CCACHE_PREFIX
	fi
	# the last build's patched tree, if copy_packaging kept it (the first
	# run's, for the next architectures)
	_patched=${KBS_PATCHED_TREE:-}
	[ ! -d "$_dir.src" ] || [ -n "$KEPT" ] || _patched=$_dir.src
	_start=$(date +%s)
	rm -f "$W/status"
	# dpkg-buildpackage's status passes the pipe in a file (and past set
	# -e, which would end the pipe's left side before the echo)
	# shellcheck disable=SC2046,SC2086 # options
	{
		_rc=0
		(cd "$_dir" && KBS_CC_LAUNCHER="$KBS_CC_LAUNCHER" KBS_PATCHED_TREE="$_patched" \
			DEB_BUILD_OPTIONS="$(build_options "$1")" \
			dpkg-buildpackage $_opt $(dpkg_cross_args "$1") -uc -us 2>&1) || _rc=$?
		echo "$_rc" > "$W/status"
	} | show_progress "$_start"
	_status=$(cat "$W/status" 2>/dev/null || true) # no file: told below
	farm_report "$LOG"
	discard "$_dir.src"
	[ "$_status" = 0 ] || die "dpkg-buildpackage for $1 failed (exit ${_status:-unknown})"
	mv "$_dir.inputs.new" "$_dir.inputs"
	mv "$_dir.compiler.new" "$_dir.compiler"
	_n=$(count_objects "$LOG")
	[ -n "$KEPT" ] || [ "$_n" -eq 0 ] || echo "$_n" > "$_record"
	collect_abi "$_dir"
	rm -f "$LOG.failed"
	log "built the $1 packages in $(($(date +%s) - _start)) s"
}

# collect_debs: every run's .debs into DEBS, once all succeeded and every
# flavour has its packages, and what they are in DEBS/manifest; the
# .changes, .dsc and .buildinfo stay beside the .debs in
# out/pkg/<series>/<arch>, named in the manifest
collect_debs() {
	manifest_of_runs "$W/new"
	check_complete "$W/new"
	mkdir -p "$DEBS"
	for _a in $ARCHES; do
		_name=$(build_name "$OUT/pkg/$SERIES/$_a/kbuild-split")
		for _deb in "$OUT/pkg/$SERIES/$_a"/*_"${_name#*_}"_*.deb; do
			# a copy: an incremental build rewrites the .debs in out/pkg
			cp "$_deb" "$DEBS/"
			log "${_deb##*/} ($(du -k "$_deb" | cut -f1) KiB)"
		done
	done
	merge_manifest "$W/new/manifest"
	log "$DEBS/manifest: $(($(wc -l < "$W/new/manifest") - 1)) files of $ABINAME"
}

# build_for_tests [--full]: the builds of tests/builds for tests/run (its
# "default" and "both" lines) or, with --full, for "tests/run --full"
# ("full" and "both"), one after the other
build_for_tests() {
	case ${1:-} in
	'') _run=default ;;
	--full) _run=full ;;
	*) die "--for-tests takes no option but --full: ./build-kernel.sh --for-tests [--full]" ;;
	esac
	[ $# -le 1 ] || die "--for-tests takes no option but --full: ./build-kernel.sh --for-tests [--full]"
	_builds=$(data_lines "$TOP/tests/builds" | awk -v run="$_run" '
	$1 != "default" && $1 != "full" && $1 != "both" { bad = $0; exit }
	$1 == run || $1 == "both" { sub(/^[^ \t]+[ \t]+/, ""); print }
	END { if (bad != "") { print "bad " bad; exit 1 } }') ||
		die "tests/builds: a line's first word must be default, full or both (${_builds#*bad })"
	# the tests' certificates (tests/keys) are taken for these builds alone
	KBS_FOR_TESTS=1
	export KBS_FOR_TESTS
	# each build's wall seconds, for tests/run's time table
	_times=${KBS_OUT:-$TOP/out}/logs/build-times
	mkdir -p "${_times%/*}"
	: > "$_times"
	while read -r _args; do
		log "tests/builds: ./build-kernel.sh $_args"
		_t0=$(date +%s)
		# shellcheck disable=SC2086 # the arguments of the line
		"$0" $_args < /dev/null || exit 1
		printf '%s\t%s\n' "$(($(date +%s) - _t0))" "$_args" >> "$_times"
	done <<-EOF
	$_builds
	EOF
	exit 0
}

# parse_options ARG...: the options into the settings above
parse_options() {
	while [ $# -gt 0 ]; do
		case $1 in
		--suite) SUITE=${2:?}; shift ;;
		--series | --kernel) SERIES=${2:?}; shift ;;
		--flavours) FLAVOURS=${2:?}; shift ;;
		--jobs) JOBS=${2:?}; JOBS_SET=1; shift ;;
		--icecc) KBS_FARM=icecc ;;
		--distcc) KBS_FARM=distcc; FARM_HOSTS=${2:?--distcc needs its hosts}; shift ;;
		--no-ccache) KBS_CCACHE=0 ;;
		--incremental) INCREMENTAL=1 ;;
		--abi) ABI=${2:?}; shift ;;
		--debs) DEBS=${2:?}; shift ;;
		--trusted-cert) TRUSTED_CERT=$(check_certificate "${2:?}") || exit 1; shift ;;
		--for-tests) shift; build_for_tests "$@" ;;
		-h | --help) usage ;;
		*) die "unknown option $1 (see --help)" ;;
		esac
		shift
	done
}

main() {
	parse_options "$@"
	OUT=$(suite_out "$SUITE")
	: "${DEBS:=$OUT/debs}"
	KBS_SUITE=$SUITE
	export KBS_SUITE
	need_packages dpkg-dev
	BUILD_ARCH=$(dpkg --print-architecture)
	resolve_selection
	if [ "$SUITE" != "$(machine_suite)" ]; then
		trap cleanup EXIT
		build_in_buildenv "$SUITE" "$@" ${TRUSTED_CERT:+--trusted-cert "$TRUSTED_CERT"}
		exit
	fi
	need_packages "linux-source-$SERIES"
	setup_ccache
	case ${KBS_FARM:-} in
	'') ;;
	icecc | distcc) setup_farm "$KBS_FARM" "$FARM_HOSTS" ;;
	*) die "KBS_FARM=$KBS_FARM: use icecc or distcc" ;;
	esac
	mkdir -p "$OUT/logs"
	trap cleanup EXIT
	W=$(mktemp -d)
	# the first run builds the source package and the arch:all one too
	_first=-F
	for _a in $ARCHES; do
		build_arch "$_a" "$_first"
		_first=-B
		# the next architectures' runs hard-link this run's patched tree
		: "${KBS_PATCHED_TREE:=$OUT/pkg/$SERIES/$_a/kbuild-split/debian/build/src}"
		export KBS_PATCHED_TREE
	done
	collect_debs
}

main "$@"
