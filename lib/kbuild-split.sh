# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Shared shell helpers for kbuild-split's scripts: messages, checks, the
# packages a script needs, flavours and their architectures, kernel
# builds; with lib/ktap.sh (KTAP output, the tests' shared checks), which
# it sources.
# Source it after setting TOP (the repository's top) and, if you like, PROG:
#   TOP=$(cd "$(dirname "$0")/.." && pwd); . "$TOP/lib/kbuild-split.sh"
#
# Environment knobs honoured by every script:
#   KBS_OUT         output directory (default: <repo>/out)
#   KBS_CCACHE_DIR  persistent ccache directory (default: /var/cache/kbuild-split/ccache)

: "${PROG:=${0##*/}}"

log() {
	printf '%s: %s\n' "$PROG" "$*" >&2
}

warn() {
	printf '%s: warning: %s\n' "$PROG" "$*" >&2
}

die() {
	printf '%s: error: %s\n' "$PROG" "$*" >&2
	exit 1
}

# need_cmd CMD PACKAGE: fail with the apt-get line that fixes a missing tool.
need_cmd() {
	command -v "$1" >/dev/null 2>&1 ||
		die "'$1' not found; install it with: apt-get install $2"
}

# is_installed PACKAGE: dpkg has PACKAGE (name[:arch]) installed.
is_installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q ' ok installed$'
}

# need_packages PACKAGE...: install the Debian packages that are missing, as
# root with apt-get, or fail naming the command that installs them.
need_packages() {
	_np_missing=
	for _np in "$@"; do
		is_installed "$_np" || _np_missing="$_np_missing $_np"
	done
	[ -n "$_np_missing" ] || return 0
	[ "$(id -u)" = 0 ] ||
		die "missing packages:$_np_missing; run as root, or first: apt-get install$_np_missing"
	log "installing:$_np_missing"
	apt_update
	# shellcheck disable=SC2086 # a list of package names
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $_np_missing \
		>/dev/null || die "apt-get install$_np_missing failed; run it by hand to see why"
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

# debian_sources: this machine's Debian suites (bookworm, -updates,
# -security, ...) as one-line apt sources, for a chroot that must see what
# this machine sees: "deb URI SUITE COMPONENT..."
debian_sources() {
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

# list_data FILE: the first word of each line, '#' comments and blank lines dropped.
list_data() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1" | awk '{ print $1 }'
}

# data_value FILE KEY: the second field of FILE's "KEY VALUE" line ('#' lines are
# comments); fails when there is none.  For data files such as qemu-test/timeouts.
data_value() {
	awk -v k="$2" '!/^#/ && $1 == k { print $2; found = 1; exit } END { exit !found }' "$1"
}

# Kernel versions and where Debian installs their source tarballs.
kernel_tarball() {
	printf '/usr/src/linux-source-%s.tar.xz\n' "$1"
}

# --- flavours and architectures ----------------------------------------------

# known_flavours: the flavours of debian/flavours, one a line.
known_flavours() {
	for _kf in "$TOP"/debian/flavours/*.config; do
		_kf=${_kf##*/}
		printf '%s\n' "${_kf%.config}"
	done
}

# flavour_file FLAVOUR: its config fragment; fails naming the known ones.
flavour_file() {
	[ -r "$TOP/debian/flavours/$1.config" ] ||
		die "no flavour '$1': add debian/flavours/$1.config, or pick one of: $(known_flavours | tr '\n' ' ')"
	printf '%s\n' "$TOP/debian/flavours/$1.config"
}

# flavour_field FLAVOUR FIELD: the value of its "# FIELD: value" header line.
flavour_field() {
	_ff=$(flavour_file "$1") || exit 1
	sed -n "s/^# $2: *//p" "$_ff" | head -n 1
}

# flavour_arch FLAVOUR: its Debian architecture ("# Arch:" line), which
# debian/arches/ must know.
flavour_arch() {
	_fa=$(flavour_field "$1" Arch) || exit 1
	[ -n "$_fa" ] || die "debian/flavours/$1.config has no '# Arch:' line: add one, e.g. '# Arch: amd64'"
	[ -r "$TOP/debian/arches/$_fa" ] ||
		die "flavour $1 is for architecture '$_fa', which debian/arches/ does not know: add debian/arches/$_fa, or fix its '# Arch:' line"
	printf '%s\n' "$_fa"
}

# flavour_fragments FLAVOUR: the config fragments of FLAVOUR in merge order:
# debian/config/common.config, those its "# Include:" line names (from
# debian/config/), its own.
flavour_fragments() {
	_fr=$(flavour_file "$1") || exit 1
	printf '%s\n' "$TOP/debian/config/common.config"
	for _inc in $(flavour_field "$1" Include); do
		[ -r "$TOP/debian/config/$_inc.config" ] ||
			die "debian/flavours/$1.config includes '$_inc', but there is no debian/config/$_inc.config"
		printf '%s\n' "$TOP/debian/config/$_inc.config"
	done
	printf '%s\n' "$_fr"
}

# arch_value ARCH KEY: a "KEY VALUE" of debian/arches/ARCH (kernel-arch, ...).
arch_value() {
	data_value "$TOP/debian/arches/$1" "$2" ||
		die "debian/arches/$1 has no '$2' line"
}

# --- kernel builds ------------------------------------------------------------

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

# kbuild_nm [CROSS_COMPILE]: the nm command for kernel builds (make NM=...).  GNU nm loads
# every plugin in /usr/lib/bfd-plugins unless one is named; with clang
# installed that includes LLVMgold, and each call maps libLLVM (57 MB, 90 ms
# instead of 2), while 6.1's check-local-export runs nm on every object.
# Naming gcc's own LTO plugin keeps the output and drops the cost.
kbuild_nm() {
	_plugin=$("${1:-}gcc" -print-file-name=liblto_plugin.so)
	case $_plugin in
	/*) printf '%snm --plugin %s\n' "${1:-}" "$_plugin" ;;
	*) printf '%snm\n' "${1:-}" ;;
	esac
}

# unmet_config CONFIG FRAGMENT...: for the first option of the fragments
# whose value CONFIG does not have, "fragment: CONFIG_X=y did not take
# effect (.config has CONFIG_X=n)"; nothing when all took effect.
unmet_config() {
	awk '
	function parse(line) {
		if (match(line, /^CONFIG_[A-Za-z0-9_]+=/)) {
			key = substr(line, 1, RLENGTH - 1)
			val = substr(line, RLENGTH + 1)
			return 1
		}
		if (match(line, /^# CONFIG_[A-Za-z0-9_]+ is not set$/)) {
			key = substr(line, 3, RLENGTH - 14)
			val = "n"
			return 1
		}
		return 0
	}
	FNR == NR { if (parse($0)) have[key] = val; next }
	parse($0) {
		got = (key in have) ? have[key] : "n"
		if (got != val) {
			n = split(FILENAME, p, "/")
			printf "%s: %s=%s did not take effect (.config has %s=%s)\n", p[n], key, val, key, got
			exit
		}
	}' "$@"
}

# merge_flavour_config SRCTREE OBJTREE FRAGMENT...: tinyconfig plus fragments;
# fails when an option of a fragment did not take effect.  ARCH and
# CROSS_COMPILE come from the environment, as kbuild reads them.
merge_flavour_config() {
	_src=$1
	_obj=$2
	shift 2
	make -s -C "$_src" O="$_obj" tinyconfig >/dev/null
	"$_src/scripts/kconfig/merge_config.sh" -m -O "$_obj" "$_obj/.config" "$@" >/dev/null
	make -s -C "$_src" O="$_obj" olddefconfig
	_unmet=$(unmet_config "$_obj/.config" "$@")
	[ -z "$_unmet" ] || die "$_unmet; check its dependencies"
}

# KTAP output and the checks the test suites share
# shellcheck source=lib/ktap.sh
. "$TOP/lib/ktap.sh"
