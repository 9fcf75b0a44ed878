# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# build-kernel.sh's steps: the packaging's copy and its state between
# runs, the build dependencies of an architecture, the progress of a
# build, the ABI it exported (the manifest it writes: lib/build-manifest.sh).
# Sourced by build-kernel.sh after lib/kbuild-split.sh; uses its OUT,
# SUITE, SERIES, FLAVOURS, ABI, INCREMENTAL, TRUSTED_CERT, BUILD_ARCH,
# LOG, EXPECTED and W, and sets KEPT and SOURCE_KEPT.

# discard DIR: DIR out of the way at once, deleted in the background
# (unlinking a build's 100k files took minutes here)
discard() {
	[ -e "$1" ] || return 0
	mkdir -p "$OUT/.trash"
	_trash=$(mktemp -d "$OUT/.trash/XXXXXX")
	mv "$1" "$_trash/"
	(rm -rf "$_trash" &) > /dev/null 2>&1
}

# keep_patched_tree DIR: the patched tree of DIR's last build, as DIR.src,
# when it is of this tarball and series and its fingerprint holds: a clean
# build hard-links it instead of unpacking and patching again
keep_patched_tree() {
	_src=$1/debian/build/src
	[ -d "$_src" ] || return 0
	discard "$1.src"
	[ -f "$_src.fingerprint" ] && [ -f "$_src/.kbuild-split-series" ] || return 0
	"$TOP/patches/apply.sh" --describe "$SERIES" | cmp -s - "$_src/.kbuild-split-series" || return 0
	[ "$(tree_fingerprint "$_src")" = "$(cat "$_src.fingerprint")" ] || return 0
	mv "$_src" "$1.src"
}

# copy_packaging DIR [KEEP]: the source package's files into DIR: the
# packaging, the patches and the shell library debian/rules and its tools
# use (what build_inputs hashes), nothing of the tests (tests/keys holds
# private keys); with KEEP, the kernel trees of an earlier build there (debian/build)
# are kept, for an incremental build; without, its patched tree when
# keep_patched_tree can
copy_packaging() {
	if [ -n "${2:-}" ] && [ -d "$1/debian/build" ]; then
		rm -rf "$1.kept"
		mv "$1/debian/build" "$1.kept"
	else
		keep_patched_tree "$1"
	fi
	discard "$1"
	mkdir -p "$1"
	mkdir -p "$1/lib"
	cp -a "$TOP/debian" "$TOP/patches" "$1/"
	cp -a "$TOP/lib/kbuild-split.sh" "$1/lib/"
	# dpkg-buildpackage in the repository itself leaves these
	rm -rf "$1/debian/build"
	[ ! -d "$1.kept" ] || mv "$1.kept" "$1/debian/build"
}

# build_inputs DIR: what a build of DIR is made from, one "name value"
# line an input: the tarball and the patches (patches: the sha256 of
# apply.sh --describe), the selection (series, flavours, abi), and the
# packaging (the sha256 of debian/ but its build trees, the shell library
# debian/rules uses, patches/).  A kept build whose inputs differ starts
# clean.  DIR.inputs keeps those of DIR's last successful build.
build_inputs() {
	"$TOP/patches/apply.sh" --describe "$SERIES" > "$W/series" ||
		die "patches/apply.sh --describe $SERIES failed: see above"
	(cd "$1" && find debian patches lib/kbuild-split.sh -path debian/build -prune -o -type f -print) |
		LC_ALL=C sort > "$W/packaging"
	[ -s "$W/packaging" ] || die "no packaging files found in $1"
	(cd "$1" && xargs sha256sum) < "$W/packaging" > "$W/packaging.sha256" ||
		die "cannot read the packaging files of $1"
	printf 'patches %s\n' "$(sha256sum < "$W/series" | cut -d' ' -f1)"
	printf 'series %s\nflavours %s\nabi %s\n' "$SERIES" "$FLAVOURS" "${ABI:--}"
	printf 'packaging %s\n' "$(sha256sum < "$W/packaging.sha256" | cut -d' ' -f1)"
}

# changed_inputs OLD NEW: the names of the inputs whose lines differ
# ("series, packaging"); "unknown" when there is no OLD
changed_inputs() {
	[ -f "$1" ] || { echo unknown; return 0; }
	awk 'FNR == NR { was[$1] = $0; next }
	was[$1] != $0 { printf "%s%s", sep, $1; sep = ", " }
	END { if (sep != "") print "" }' "$1" "$2"
}

# selection_in DIR KEY: KEY's value in the selection gencontrol wrote for
# the packaging in DIR (its debian/selection.mk)
selection_in() {
	sed -n "s/^$2 := //p" "$1/debian/selection.mk"
}

# selection_value KEY: KEY's value in the selection gencontrol wrote for
# this build (the first run's)
selection_value() {
	# shellcheck disable=SC2086 # the architectures
	set -- "$1" $ARCHES
	selection_in "$OUT/pkg/$SERIES/$2/kbuild-split" "$1"
}

# build_name DIR: the name of the source package DIR builds, and its
# version, as its .dsc and .changes begin: kbuild-split-6.1_6.1.192+abi1.src3.1
build_name() {
	printf 'kbuild-split-%s_%s\n' "$(selection_in "$1" KBS_SERIES)" "$(selection_in "$1" KBS_VERSION)"
}

# prepare_packaging DIR: the packaging for this build in DIR, its kernel
# trees kept when --incremental and the inputs are those of the kept
# build; sets KEPT.  A clean build of the inputs of the last one keeps its
# arch:all source tree package, which nothing but those inputs makes
# (the tarball, the patches, the packaging; sets SOURCE_KEPT).
prepare_packaging() {
	KEPT=
	SOURCE_KEPT=
	copy_packaging "$1" "$INCREMENTAL"
	if [ -n "$TRUSTED_CERT" ]; then
		install -D -m 644 "$TRUSTED_CERT" "$1/debian/certs/trusted.pem"
		! is_test_certificate "$TRUSTED_CERT" ||
			echo "tests/keys: a certificate of the tests, whose private key is public; these packages are for the tests only" \
				> "$1/debian/certs/test-certificate"
	fi
	# the packaging as the repository has it: what follows is of the selection
	build_inputs "$1" > "$1.inputs.new"
	# shellcheck disable=SC2086 # flavour names
	(cd "$1" && debian/bin/gencontrol --suite "$SUITE" ${ABI:+--abi "$ABI"} "$SERIES" $FLAVOURS) >> "$LOG" 2>&1 ||
		die "debian/bin/gencontrol failed: $(tail -n 1 "$LOG")"
	_changed=$(changed_inputs "$1.inputs" "$1.inputs.new")
	if [ -n "$INCREMENTAL" ] && [ -d "$1/debian/build" ] && [ -z "$_changed" ]; then
		KEPT=1
		log "incremental: the kept trees of $1 are of the same inputs"
	else
		[ -z "$INCREMENTAL" ] || ! [ -d "$1/debian/build" ] || case $_changed in
		unknown) log "incremental: the kept build in $1 has no record of its inputs (it failed, or is older): starting clean" ;;
		*) log "incremental: the kept build's $_changed changed (of its patches, series, flavours, abi and packaging): starting clean" ;;
		esac
		keep_patched_tree "$1"
		discard "$1/debian/build"
		rm -f "$1.inputs" "$1.compiler"
		# what a build of this version made: another version's (another
		# ABI's) .debs, source and .changes stay, for its tests
		_name=$(build_name "$1")
		_all=$1/../linux-kbuild-source-$(selection_in "$1" KBS_ABINAME)_${_name#*_}_all.deb
		if [ -z "$_changed" ] && [ -f "$_all" ]; then
			# shellcheck disable=SC2034 # build-kernel.sh's build_arch reads it
			SOURCE_KEPT=1
			log "the inputs are the last build's: its ${_all##*/} and source package are kept (dpkg-buildpackage -B)"
			for _deb in "$1/.."/*_"${_name#*_}"_*.deb; do
				[ "$_deb" = "$_all" ] || rm -f "$_deb"
			done
			rm -f "$1/../$_name"_*.changes "$1/../$_name"_*.buildinfo
		else
			rm -f "$1/.."/*_"${_name#*_}"_*.deb "$1/../$_name"[._]*
		fi
	fi
}

# compiler_of DIR ARCH: the compiler command of ARCH's objects in DIR's
# build, the pinned one of its selection, and gcc's version, "ccache
# aarch64-linux-gnu-gcc-12 12.2.0"; when it changes, kbuild recompiles
# every object (the command lines in its .cmd files differ)
compiler_of() {
	_gcc=$(selection_in "$1" "KBS_GNU_TYPE_$2")-$(selection_in "$1" KBS_COMPILER)
	printf '%s%s %s\n' "${KBS_CC_LAUNCHER:+$KBS_CC_LAUNCHER }" "$_gcc" \
		"$("$_gcc" -dumpfullversion 2>/dev/null || echo '(not installed)')"
}

# check_compiler DIR ARCH: in a kept build, say when the compiler command
# differs from the one it was built with (ccache installed or dropped, a
# new gcc): kbuild then recompiles everything, which is no incremental build
check_compiler() {
	compiler_of "$1" "$2" > "$1.compiler.new"
	[ -n "$KEPT" ] || return 0
	_was=$(cat "$1.compiler" 2>/dev/null || echo unknown)
	_now=$(cat "$1.compiler.new")
	[ "$_was" = "$_now" ] ||
		log "incremental: the compiler command changed since the kept build ('$_was', now '$_now'): kbuild recompiles every object"
}

# check_certificate FILE: FILE's absolute name, when it is a PEM X.509
# certificate (build-kernel.sh --trusted-cert); else fails naming the fix
check_certificate() {
	need_packages openssl
	_cert=$(realpath -e "$1" 2>/dev/null) || _cert=$1
	openssl x509 -in "$_cert" -noout 2>/dev/null ||
		die "--trusted-cert $1: no PEM X.509 certificate can be read there (in a chroot build, only the repository and KBS_OUT are seen): give one that 'openssl x509 -in FILE -noout' reads"
	! is_test_certificate "$_cert" || [ "${KBS_FOR_TESTS:-}" = 1 ] ||
		die "--trusted-cert $1: a certificate of tests/keys, whose private key is public: anyone could sign modules for these kernels; give your own (tests/keys/README shows the openssl command), tests/builds alone (--for-tests) uses these"
	printf '%s\n' "$_cert"
}

# cross_args ARCH: apt-get's and dpkg-checkbuilddeps' options for a build
# of ARCH packages on this machine; dpkg_cross_args ARCH: dpkg-buildpackage's
cross_args() {
	[ "$1" = "$BUILD_ARCH" ] || printf '%s\n' "-a $1 -P cross"
}

# build_options ARCH: DEB_BUILD_OPTIONS, the caller's with parallel=JOBS,
# and nocheck for a cross build (dh would warn that it cannot run tests)
build_options() {
	_bo="${DEB_BUILD_OPTIONS:+$DEB_BUILD_OPTIONS }parallel=$JOBS"
	[ "$1" = "$BUILD_ARCH" ] || _bo="$_bo nocheck"
	printf '%s\n' "$_bo"
}

dpkg_cross_args() {
	[ "$1" = "$BUILD_ARCH" ] || printf '%s\n' "--host-arch=$1 --build-profiles=cross"
}

# install_build_deps DIR ARCH: what dpkg-checkbuilddeps says is missing for
# an ARCH build, with apt-get build-dep
install_build_deps() {
	_xa=$(cross_args "$2")
	# shellcheck disable=SC2086 # options
	! (cd "$1" && dpkg-checkbuilddeps $_xa) > "$W/unmet" 2>&1 || return 0
	_unmet=$(sed -n 's/.*Unmet build dependencies: //p' "$W/unmet")
	[ "$(id -u)" = 0 ] ||
		die "build dependencies for $2 are missing ($_unmet); run as root, or first: apt-get build-dep $_xa $1"
	if [ "$2" != "$BUILD_ARCH" ] && ! dpkg --print-foreign-architectures | grep -qx "$2"; then
		log "dpkg --add-architecture $2, for the $2 libraries of the cross build"
		dpkg --add-architecture "$2"
		# shellcheck disable=SC2034 # apt_update, of lib/kbuild-split.sh, reads it
		KBS_APT_UPDATED=
	fi
	log "installing the build dependencies of the $2 packages"
	apt_update
	# shellcheck disable=SC2086 # options
	DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -qq $_xa "$1" > "$W/build-dep.log" 2>&1 ||
		die "cannot install the build dependencies of the $2 packages ($_unmet: $(grep -m 1 '^E:' "$W/build-dep.log")); see apt-get build-dep $_xa $1"
}

# count_objects LOG: objects compiled so far
count_objects() {
	grep -cE '^  (CC|AS)( \[M\])? +[^ ]+\.o$' "$1" || true # 0 before the compile
}

# show_progress START: the build's output into LOG; the stages as they
# start, and every 30 s the objects compiled (of those the last build of
# this selection compiled) and the time
show_progress() {
	_t0=$1
	_next=$((_t0 + 30))
	while IFS= read -r _line; do
		printf '%s\n' "$_line" >> "$LOG"
		_now=$(date +%s)
		case $_line in
		"apply.sh: unpacking"* | "debian/rules: the patched tree"* | "   dh_auto_"* | "   dh_builddeb"* | \
		"   debian/rules override_dh_auto_"* | "dpkg-deb: building"*)
			log "[$((_now - _t0)) s] ${_line#"${_line%%[! ]*}"}"
			;;
		"  CC"* | "  AS"*)
			[ "$_now" -ge "$_next" ] || continue
			_next=$((_now + 30))
			_n=$(count_objects "$LOG")
			if [ "${EXPECTED:-0}" -gt 0 ]; then
				log "[$((_now - _t0)) s] compiled $_n of $EXPECTED objects ($((_n * 100 / EXPECTED))%)"
			else
				log "[$((_now - _t0)) s] compiled $_n objects (no count from an earlier build to compare)"
			fi
			;;
		esac
	done
}

# collect_abi DIR: the build's exported symbols into OUT/abi/, and where
# the packaging has no reference for them yet, how to record them
collect_abi() {
	[ -d "$1/debian/build/abi" ] || return 0
	mkdir -p "$OUT/abi"
	cp -r "$1/debian/build/abi/." "$OUT/abi/"
	for _f in "$1"/debian/build/abi/*/*; do
		_ref=debian/abi/${_f#"$1/debian/build/abi/"}
		[ -f "$TOP/$_ref" ] || warn "no ABI reference $_ref yet: cp ${OUT#"$TOP/"}/abi/${_ref#debian/abi/} $_ref"
	done
}
