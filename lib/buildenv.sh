# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# The build environment of a target suite that is not this machine's own
# (build-kernel.sh --suite): a minbase chroot of the suite, made once with
# debootstrap from this machine's Debian mirror and cached in
# /var/cache/kbuild-split/buildenv/<suite>-<arch> (KBS_BUILDENV_DIR), in
# which build-kernel.sh runs itself again.  There it installs what the
# build needs (dpkg-dev, linux-source-<series>, the build dependencies,
# cross toolchains, ccache) with the suite's own apt, so the kernel, its
# host programs and the packages' dependencies are the suite's.  The
# repository is bind-mounted at its own path: out/, the logs and the .debs
# are this machine's; so is the suite's ccache, <KBS_CCACHE_DIR>-<suite>
# (/var/cache/kbuild-split/ccache-trixie), which outlives a chroot made
# again (the suite's ccache is another version than this machine's, and
# its compiler another).  Each use brings
# the chroot up to date first (apt-get upgrade), so that its compiler is
# the one the suite's users install.  Sourced by build-kernel.sh and by
# the tests that check a suite's builds with its own tools
# (tests/packages.sh), after lib/kbuild-split.sh and lib/host.sh; uses
# their OUT.

# Bump when the recipe below changes: a cached chroot of another recipe is made again.
BUILDENV_RECIPE=1
BUILDENV_MOUNTS=

# buildenv_key SUITE: what a cached chroot is made from
buildenv_key() {
	printf 'recipe %s suite %s arch %s mirror %s\n' "$BUILDENV_RECIPE" "$1" \
		"$(dpkg --print-architecture)" "$(find_mirror)"
}

# make_buildenv SUITE DIR: DIR, the cached chroot of SUITE, made when
# there is none of this recipe; brought up to date
make_buildenv() {
	_key=$(buildenv_key "$1")
	_log=$OUT/logs/buildenv-$1.log
	mkdir -p "$OUT/logs"
	if [ "$(cat "$2/.kbs-buildenv" 2>/dev/null)" = "$_key" ]; then
		log "reusing the $1 build environment $2 (made $(date -u -r "$2/.kbs-buildenv" '+%F %H:%M') UTC)"
	else
		[ "$(id -u)" = 0 ] || die "the $1 build environment $2 is to be made with debootstrap: run as root"
		need_packages debootstrap
		_t0=$(date +%s)
		# never through a mount into this machine's trees
		rm -rf --one-file-system "$2" "$2.tmp"
		log "making the $1 build environment: debootstrap --variant=minbase $1 $2 (log: $_log)"
		debootstrap --variant=minbase "$1" "$2.tmp" "$(find_mirror)" > "$_log" 2>&1 ||
			die "debootstrap of $1 failed ($(tail -n 1 "$_log")); see $_log, or set KBS_MIRROR"
		debian_sources "$1" > "$2.tmp/etc/apt/sources.list"
		printf '%s\n' "$_key" > "$2.tmp/.kbs-buildenv"
		mv "$2.tmp" "$2"
		log "made the $1 build environment in $(($(date +%s) - _t0)) s"
	fi
	cp /etc/resolv.conf "$2/etc/resolv.conf" 2>/dev/null || true # a local mirror needs none
	_t0=$(date +%s)
	chroot "$2" sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get upgrade -y -qq' \
		>> "$_log" 2>&1 || die "apt-get upgrade in the $1 build environment failed; see $_log"
	log "the $1 build environment is up to date ($(($(date +%s) - _t0)) s)"
}

# bind_mount DIR TARGET: DIR at TARGET, unmounted by unmount_buildenv
bind_mount() {
	mkdir -p "$2"
	mount --bind "$1" "$2"
	BUILDENV_MOUNTS="$2 $BUILDENV_MOUNTS"
}

# unmount_stale DIR: what a build that was killed left mounted under DIR
# (under the lock, no other build uses them)
unmount_stale() {
	_stale=$(awk -v d="$1/" 'index($2, d) == 1 { print $2 }' /proc/mounts | sort -r)
	for _m in $_stale; do
		umount "$_m" || die "cannot unmount $_m, left by an earlier build: umount it by hand"
	done
}

# unmount_buildenv: what build_in_buildenv mounted, the last first
unmount_buildenv() {
	for _m in $BUILDENV_MOUNTS; do
		umount "$_m" || warn "cannot unmount $_m: umount it by hand"
	done
	BUILDENV_MOUNTS=
}

# in_buildenv SUITE COMMAND...: COMMAND (a path from the repository's
# top, and its arguments) in SUITE's build environment, with this
# machine's repository and output directory; its status.  For the builds
# (build_in_buildenv) and for the checks that need the suite's own tools
# (its lintian, its compiler: tests/packages.sh).  The caller's EXIT trap
# runs unmount_buildenv.
in_buildenv() {
	_suite=$1
	shift
	[ "$(id -u)" = 0 ] || die "$_suite's build environment is a chroot: run as root"
	# a stopped build unmounts too (the caller's EXIT trap)
	trap 'exit 143' TERM
	trap 'exit 130' INT
	_dir=${KBS_BUILDENV_DIR:-/var/cache/kbuild-split/buildenv}/$_suite-$(dpkg --print-architecture)
	mkdir -p "${_dir%/*}"
	exec 8> "$_dir.lock"
	flock 8
	unmount_stale "$_dir"
	make_buildenv "$_suite" "$_dir"
	mount -t proc proc "$_dir/proc"
	BUILDENV_MOUNTS="$_dir/proc"
	bind_mount /dev/pts "$_dir/dev/pts"
	bind_mount "$TOP" "$_dir$TOP"
	_ccache=${KBS_CCACHE_DIR:-/var/cache/kbuild-split/ccache}-$_suite
	mkdir -p "$_ccache"
	bind_mount "$_ccache" "$_dir/var/cache/kbuild-split/ccache"
	_base=${KBS_OUT:-$TOP/out}
	case $_base/ in
	"$TOP"/*) ;;
	*) mkdir -p "$_base" && bind_mount "$_base" "$_dir$_base" ;;
	esac
	log "running ${1#./} in the $_suite build environment $_dir"
	_rc=0
	# shellcheck disable=SC2016 # the chroot's shell expands them
	chroot "$_dir" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
		KBS_OUT="$_base" KBS_APT_UPDATED=1 ${KBS_XZ_LEVEL:+KBS_XZ_LEVEL="$KBS_XZ_LEVEL"} \
		${KBS_MIRROR:+KBS_MIRROR="$KBS_MIRROR"} ${KBS_CCACHE:+KBS_CCACHE="$KBS_CCACHE"} \
		${KBS_LINTIAN:+KBS_LINTIAN="$KBS_LINTIAN"} ${KBS_FOR_TESTS:+KBS_FOR_TESTS="$KBS_FOR_TESTS"} \
		${SOURCE_DATE_EPOCH:+SOURCE_DATE_EPOCH="$SOURCE_DATE_EPOCH"} \
		${DEB_BUILD_OPTIONS:+DEB_BUILD_OPTIONS="$DEB_BUILD_OPTIONS"} \
		${DEBFULLNAME:+DEBFULLNAME="$DEBFULLNAME"} ${DEBEMAIL:+DEBEMAIL="$DEBEMAIL"} \
		sh -c 'cd "$1" && shift && exec "$@"' sh "$TOP" "$@" || _rc=$?
	unmount_buildenv
	exec 8>&-
	return "$_rc"
}

# build_in_buildenv SUITE ARG...: build-kernel.sh ARG... in SUITE's build
# environment (in_buildenv); its status
build_in_buildenv() {
	[ -z "${KBS_FARM:-}" ] || die "a compile farm serves this machine's suite only: build $1 without --icecc/--distcc"
	_suite=$1
	shift
	in_buildenv "$_suite" ./build-kernel.sh "$@"
}
