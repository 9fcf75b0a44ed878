# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# What the scripts that run on this machine (build-kernel.sh, the tests,
# qemu-test, bench) need beside lib/kbuild-split.sh: the Debian packages a
# script needs, this machine's apt sources for a chroot, ccache.  Not for
# debian/rules: a package build installs nothing.  Source it after
# lib/kbuild-split.sh.
#
# Environment: KBS_CCACHE_DIR  persistent ccache directory (default:
# /var/cache/kbuild-split/ccache); KBS_MIRROR; KBS_SUITE, the target
# suite (debian/config/suites) whose linux-source packages are installed.

# is_installed PACKAGE: dpkg has PACKAGE (name[:arch]) installed.
is_installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q ' ok installed$'
}

# need_packages PACKAGE...: install the Debian packages that are missing, as
# root with apt-get, or fail naming the command that installs them.
need_packages() {
	_np_missing=
	_np_suites=
	for _np in "$@"; do
		is_installed "$_np" && continue
		_np_missing="$_np_missing $_np"
		_np_suite=$(source_suite "$_np") && ! has_apt_suite "$_np_suite" &&
			_np_suites="$_np_suites $_np_suite"
	done
	[ -n "$_np_missing" ] || return 0
	if [ "$(id -u)" != 0 ]; then
		# shellcheck disable=SC2086 # suite names: the first one
		set -- $_np_suites
		[ $# = 0 ] ||
			die "missing packages:$_np_missing, of $1, which apt does not know here; run as root, or first: echo 'deb $(find_mirror) $1 main' > /etc/apt/sources.list.d/kbuild-split-$1.list && apt-get update && apt-get install$_np_missing"
		die "missing packages:$_np_missing; run as root, or first: apt-get install$_np_missing"
	fi
	for _np_suite in $_np_suites; do
		add_apt_suite "$_np_suite"
	done
	log "installing:$_np_missing"
	apt_update
	# shellcheck disable=SC2086 # a list of package names
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $_np_missing \
		>/dev/null || die "apt-get install$_np_missing failed; run it by hand to see why"
}

# source_suite PACKAGE: for linux-source-<series>, the apt suite
# debian/config/source-suite names for it on the target suite KBS_SUITE
# (default: the default suite); fails when there is none
source_suite() {
	case $1 in
	linux-source-*) apt_suite "${KBS_SUITE:-$(default_suite)}" "${1#linux-source-}" 2> /dev/null ;;
	*) return 1 ;;
	esac
}

# has_apt_suite SUITE: one of this machine's apt sources is of SUITE
has_apt_suite() {
	cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
		grep -v '^[[:space:]]*#' | grep -qw -- "$1"
}

# add_apt_suite SUITE: SUITE, of this machine's Debian mirror, as an apt
# source of its own
add_apt_suite() {
	_as=/etc/apt/sources.list.d/kbuild-split-$1.list
	printf 'deb %s %s main\n' "$(find_mirror)" "$1" > "$_as"
	log "added the apt source $_as: deb $(find_mirror) $1 main (debian/config/source-suite)"
	KBS_APT_UPDATED=
}

# apt_update: apt-get update, once per run of a script.
apt_update() {
	[ -z "${KBS_APT_UPDATED:-}" ] || return 0
	apt-get update -qq >/dev/null || die "apt-get update failed; check /etc/apt/sources.list*"
	KBS_APT_UPDATED=1
}

# find_mirror: the Debian mirror apt on this machine uses (deb822 or
# one-line sources), or KBS_MIRROR
find_mirror() {
	if [ -n "${KBS_MIRROR:-}" ]; then
		printf '%s\n' "$KBS_MIRROR"
		return
	fi
	# (no status of the pipe: a missing sources file fails cat, and
	# scripts with pipefail would see that)
	_fm=$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list \
		/etc/apt/sources.list.d/*.list 2>/dev/null |
		awk '$1 == "URIs:" { print $2 } $1 == "deb" { print ($2 ~ /^\[/) ? $3 : $2 }' |
		grep '/debian/\{0,1\}$' | head -n 1)
	printf '%s\n' "${_fm:-http://deb.debian.org/debian}"
}

# machine_suite: this machine's Debian release, by its code name
machine_suite() {
	(. /etc/os-release && printf '%s\n' "${VERSION_CODENAME:-unknown}")
}

# debian_sources [SUITE]: this machine's Debian suites (bookworm,
# -updates, -security, ...) as one-line apt sources, for a chroot that
# must see what this machine sees: "deb URI SUITE COMPONENT..."; with
# SUITE, of that release instead of this machine's (trixie, -updates,
# -security)
debian_sources() {
	if [ -n "${1:-}" ]; then
		debian_sources | sed -E "s/ $(machine_suite)([ -])/ $1\\1/"
		return
	fi
	set --
	for _f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list /etc/apt/sources.list; do
		[ ! -f "$_f" ] || set -- "$@" "$_f"
	done
	# a stanza ends at a blank line, a Types: line or the end of its file
	_ds=$([ $# = 0 ] || awk '
	FNR == 1 || $1 == "Types:" { flush() }
	/^deb / && $0 ~ /\/debian(-security)?\/? / { sub(/ \[[^]]*\]/, ""); print; next }
	$1 == "URIs:" { uri = $2 } $1 == "Suites:" { $1 = ""; suites = $0 }
	$1 == "Components:" { $1 = ""; comps = $0 }
	/^[[:space:]]*$/ { flush() }
	END { flush() }
	function flush(  n, s, i) {
		if (uri ~ /\/debian(-security)?\/?$/) {
			n = split(suites, s, " ")
			for (i = 1; i <= n; i++) print "deb " uri " " s[i] comps
		}
		uri = suites = comps = ""
	}' "$@")
	printf '%s\n' "${_ds:-deb $(find_mirror) bookworm main}"
}

# setup_ccache: use ccache (unless KBS_CCACHE=0, --no-ccache), installing
# it when it is missing, from a persistent directory outside the work
# tree.  Installed here, not left to whoever installs it later: a ccache
# that arrived between two builds would change the compiler command of
# every object, and an incremental build would recompile them all.  No
# base_dir: ccache would rewrite absolute paths to relative ones on the
# compiler's command line, which defeats the kernel's -fmacro-prefix-map
# and changes every __FILE__ string, so its objects would differ from a
# build without ccache.  Hits therefore need the same build directory,
# which build-kernel.sh always uses.  Depend mode: on a miss ccache takes
# the headers from the dependency file gcc writes for kbuild (-Wp,-MMD)
# instead of running the preprocessor once more; without it, a build with
# an empty cache took 1.32 times as long as one without ccache
# (bench/run), and CI's caches are always empty.  Sets KBS_CC_LAUNCHER
# (ccache, or nothing) and KBS_CC (the compiler command).
# shellcheck disable=SC2034 # both are for the scripts that source this file
setup_ccache() {
	KBS_CC_LAUNCHER=
	KBS_CC=gcc
	if [ "${KBS_CCACHE:-1}" = 1 ]; then
		is_installed ccache || [ "$(id -u)" = 0 ] ||
			die "missing packages: ccache; run as root, or first: apt-get install ccache (or build with --no-ccache)"
		need_packages ccache
		CCACHE_DIR=${KBS_CCACHE_DIR:-/var/cache/kbuild-split/ccache}
		CCACHE_NOHASHDIR=1
		CCACHE_DEPEND=1
		export CCACHE_DIR CCACHE_NOHASHDIR CCACHE_DEPEND
		unset CCACHE_BASEDIR
		mkdir -p "$CCACHE_DIR"
		KBS_CC_LAUNCHER=ccache
		KBS_CC="ccache gcc"
	fi
}
