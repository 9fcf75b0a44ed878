# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Shared shell helpers for kbuild-split's scripts: messages, checks, KTAP output.
# Source it after setting PROG:  . "$TOP/lib/kbuild-split.sh"
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

# data_value FILE KEY: the second field of FILE's "KEY VALUE" line ('#' lines are
# comments); fails when there is none.  For data files such as qemu-test/timeouts.
data_value() {
	awk -v k="$2" '!/^#/ && $1 == k { print $2; found = 1; exit } END { exit !found }' "$1"
}

# Kernel versions and where Debian installs their source tarballs.
kernel_tarball() {
	printf '/usr/src/linux-source-%s.tar.xz\n' "$1"
}

# KTAP-style results: ktap_ok NAME, ktap_fail NAME WHY, ktap_skip NAME WHY,
# then ktap_summary prints "N passed, N failed" and returns non-zero on failure.
KTAP_N=0
KTAP_PASS=0
KTAP_FAIL=0
KTAP_SKIP=0

ktap_ok() {
	KTAP_N=$((KTAP_N + 1))
	KTAP_PASS=$((KTAP_PASS + 1))
	printf 'ok %d %s\n' "$KTAP_N" "$1"
}

ktap_fail() {
	KTAP_N=$((KTAP_N + 1))
	KTAP_FAIL=$((KTAP_FAIL + 1))
	printf 'not ok %d %s # %s\n' "$KTAP_N" "$1" "$2"
}

ktap_skip() {
	KTAP_N=$((KTAP_N + 1))
	KTAP_SKIP=$((KTAP_SKIP + 1))
	printf 'ok %d %s # SKIP %s\n' "$KTAP_N" "$1" "$2"
}

# ktap_check NAME CMD...: run CMD, report ok/not ok with the last output line
# as diagnostic; on success its "# " lines are shown.
ktap_check() {
	_name=$1
	shift
	if _out=$("$@" 2>&1); then
		ktap_ok "$_name"
		# measurements a check reports as "# " lines
		printf '%s\n' "$_out" | grep '^# ' || true # most checks report none
	else
		ktap_fail "$_name" "$(printf '%s\n' "$_out" | tail -n 1)"
		printf '%s\n' "$_out" | sed 's/^/# /' | tail -n 20
	fi
}

ktap_summary() {
	printf '# %d tests\n' "$KTAP_N"
	if [ "$KTAP_SKIP" -gt 0 ]; then
		printf '%d passed, %d failed, %d skipped\n' "$KTAP_PASS" "$KTAP_FAIL" "$KTAP_SKIP"
	else
		printf '%d passed, %d failed\n' "$KTAP_PASS" "$KTAP_FAIL"
	fi
	[ "$KTAP_FAIL" -eq 0 ]
}

# bump_deb DEB SUFFIX OUTDIR: DEB again with version V+SUFFIX, and its
# "(= V)" dependencies likewise, as a rebuild after a debian/changelog bump
# makes it; uncompressed, to unpack fast in a TCG guest.  Prints its path.
bump_deb() {
	_bd_tmp=$(mktemp -d)
	dpkg-deb -R "$1" "$_bd_tmp/p"
	_bd_v=$(dpkg-deb -f "$1" Version)
	sed -i -e "s/^Version: .*/Version: $_bd_v$2/" -e "s/(= $_bd_v)/(= $_bd_v$2)/" "$_bd_tmp/p/DEBIAN/control"
	_bd_out=$3/$(dpkg-deb -f "$1" Package)_$_bd_v$2_$(dpkg-deb -f "$1" Architecture).deb
	dpkg-deb -Znone -b "$_bd_tmp/p" "$_bd_out" >/dev/null
	rm -rf "$_bd_tmp"
	printf '%s\n' "$_bd_out"
}

# setup_ccache: use ccache, when installed, from a persistent directory
# outside the work tree.  No base_dir: ccache would rewrite absolute paths
# to relative ones on the compiler's command line, which defeats the
# kernel's -fmacro-prefix-map and changes every __FILE__ string, so its
# objects would differ from a build without ccache.  Hits therefore need
# the same build directory, which build-kernel.sh always uses.  Depend
# mode: on a miss ccache takes the headers from the dependency file gcc
# writes for kbuild (-Wp,-MMD) instead of running the preprocessor once more;
# without it, a build with an empty cache took 1.32 times as long as one
# without ccache (bench/run), and CI's caches are always empty.  Sets KBS_CC.
# shellcheck disable=SC2034 # KBS_CC is for the scripts that source this file
setup_ccache() {
	KBS_CC=gcc
	if [ "${KBS_CCACHE:-1}" = 1 ] && command -v ccache >/dev/null 2>&1; then
		CCACHE_DIR=${KBS_CCACHE_DIR:-/var/cache/kbuild-split/ccache}
		CCACHE_NOHASHDIR=1
		CCACHE_DEPEND=1
		export CCACHE_DIR CCACHE_NOHASHDIR CCACHE_DEPEND
		unset CCACHE_BASEDIR
		mkdir -p "$CCACHE_DIR"
		KBS_CC="ccache gcc"
	fi
}

# kbuild_nm: the nm command for kernel builds (make NM=...).  GNU nm loads
# every plugin in /usr/lib/bfd-plugins unless one is named; with clang
# installed that includes LLVMgold, and each call maps libLLVM (57 MB, 90 ms
# instead of 2), while 6.1's check-local-export runs nm on every object.
# Naming gcc's own LTO plugin keeps the output and drops the cost.
kbuild_nm() {
	_plugin=$(gcc -print-file-name=liblto_plugin.so)
	case $_plugin in
	/*) printf 'nm --plugin %s\n' "$_plugin" ;;
	*) printf 'nm\n' ;;
	esac
}

# merge_flavour_config SRCTREE OBJTREE FRAGMENT...: tinyconfig plus fragments.
merge_flavour_config() {
	_src=$1
	_obj=$2
	shift 2
	make -s -C "$_src" O="$_obj" tinyconfig >/dev/null
	"$_src/scripts/kconfig/merge_config.sh" -m -O "$_obj" "$_obj/.config" "$@" >/dev/null
	make -s -C "$_src" O="$_obj" olddefconfig
	for _frag in "$@"; do
		sed -n 's/^\(CONFIG_[A-Za-z0-9_]*=.*\)/\1/p; s/^# \(CONFIG_[A-Za-z0-9_]*\) is not set/\1=n/p' "$_frag" |
		while IFS= read -r _want; do
			_got=$(sed -n "s/^${_want%%=*}=//p; s/^# ${_want%%=*} is not set/n/p" "$_obj/.config")
			[ "${_got:-n}" = "${_want#*=}" ] ||
				die "${_frag##*/}: ${_want} did not take effect (.config has ${_want%%=*}=${_got:-n}); check its dependencies"
		done
	done
}
