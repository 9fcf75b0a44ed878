# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# The shell library of the packaging, which debian/rules and debian/bin
# source, and every other script too: messages, data files, flavours and
# their architectures, the flavour configuration, the kernel's nm.  What
# only this machine's scripts need (packages, apt sources, ccache) is in
# lib/host.sh; KTAP and the tests' checks in tests/lib/ktap.sh.
# Source it after setting TOP (the repository's top) and, if you like, PROG:
#   TOP=$(cd "$(dirname "$0")/.." && pwd); . "$TOP/lib/kbuild-split.sh"
#
# Environment knobs honoured by every script:
#   KBS_OUT         output directory (default: <repo>/out)

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

# data_lines FILE...: the lines of data files, '#' comments and blank lines dropped.
data_lines() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$@"
}

# list_data FILE: the first word of each line, '#' comments and blank lines dropped.
list_data() {
	data_lines "$1" | awk '{ print $1 }'
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

# --- target suites ------------------------------------------------------------

# default_suite: the suite of a build that names none, the first of
# debian/config/suites
default_suite() {
	list_data "$TOP/debian/config/suites" | head -n 1
}

# suite_combinations: the suites and series debian/config/source-suite
# supports, "bookworm 6.1, ..., trixie 7.3"
suite_combinations() {
	data_lines "$TOP/debian/config/source-suite" |
		awk '{ printf "%s%s %s", sep, $1, $2; sep = ", " } END { print "" }'
}

# apt_suite SUITE SERIES: the apt suite that provides linux-source-SERIES
# on SUITE; fails, naming the supported combinations, for any other
apt_suite() {
	if ! data_value "$TOP/debian/config/suites" "$1" > /dev/null ||
		! awk -v s="$1" -v r="$2" '!/^#/ && $1 == s && $2 == r { print $3; f = 1; exit } END { exit !f }' \
			"$TOP/debian/config/source-suite"; then
		die "suite '$1' with series '$2' is not supported; pick one of: $(suite_combinations) (debian/config/source-suite)"
	fi
}

# suite_modules_dir SUITE: where SUITE's packages install modules (the
# third field of debian/config/suites: /lib/modules, /usr/lib/modules)
suite_modules_dir() {
	awk -v s="$1" '!/^#/ && $1 == s && $3 ~ /^\// { print $3; f = 1; exit } END { exit !f }' \
		"$TOP/debian/config/suites" ||
		die "debian/config/suites gives suite '$1' no modules directory: add it as the line's third field"
}

# suite_policy SUITE: the Debian Policy version of SUITE (the fourth field
# of debian/config/suites), its packages' Standards-Version
suite_policy() {
	awk -v s="$1" '!/^#/ && $1 == s && $4 ~ /^[0-9.]+$/ { print $4; f = 1; exit } END { exit !f }' \
		"$TOP/debian/config/suites" ||
		die "debian/config/suites gives suite '$1' no Policy version: add its debian-policy version as the line's fourth field"
}

# suite_run_hooks SUITE: the linux-base version whose linux-run-hooks
# SUITE's maintainer scripts call, or "-" (the fifth field of
# debian/config/suites)
suite_run_hooks() {
	awk -v s="$1" '!/^#/ && $1 == s && $5 ~ /^(-|[0-9][0-9.~]*)$/ { print $5; f = 1; exit } END { exit !f }' \
		"$TOP/debian/config/suites" ||
		die "debian/config/suites gives suite '$1' no linux-run-hooks field: add the linux-base version that has it, or '-', as the line's fifth field"
}

# suite_out SUITE: where SUITE's builds go: KBS_OUT (default out/), and
# its <suite>/ for any but the default suite
suite_out() {
	_so=${KBS_OUT:-$TOP/out}
	[ "$1" = "$(default_suite)" ] || _so=$_so/$1
	printf '%s\n' "$_so"
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
		die "no flavour '$1': add debian/flavours/$1.config, or pick one of: $(known_flavours | tr '\n' ' ' | sed 's/ $//')"
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

# flavour_fragments FLAVOUR SERIES: the config fragments of FLAVOUR in
# merge order: debian/config/common.config, SERIES' own
# debian/config/series-SERIES.config if there is one, those its
# "# Include:" line names (from debian/config/) whose "# Series:" line, if
# they have one, lists SERIES, its own.
flavour_fragments() {
	_fr=$(flavour_file "$1") || exit 1
	printf '%s\n' "$TOP/debian/config/common.config"
	[ ! -r "$TOP/debian/config/series-$2.config" ] || printf '%s\n' "$TOP/debian/config/series-$2.config"
	for _inc in $(flavour_field "$1" Include); do
		_incf=$TOP/debian/config/$_inc.config
		[ -r "$_incf" ] ||
			die "debian/flavours/$1.config includes '$_inc', but there is no debian/config/$_inc.config"
		_only=$(sed -n 's/^# Series: *//p' "$_incf")
		case " ${_only:-$2} " in
		*" $2 "*) printf '%s\n' "$_incf" ;;
		esac
	done
	printf '%s\n' "$_fr"
}

# arch_value ARCH KEY: a "KEY VALUE" of debian/arches/ARCH (kernel-arch, ...).
arch_value() {
	data_value "$TOP/debian/arches/$1" "$2" ||
		die "debian/arches/$1 has no '$2' line"
}

# --- kernel builds ------------------------------------------------------------

# tree_fingerprint DIR: the sha256 of every path of DIR with its size and
# modification time.  debian/rules writes it beside the patched tree it
# made; build-kernel.sh reuses that tree for a clean build only while the
# fingerprint still holds (nothing edited, touched, added or removed).
tree_fingerprint() {
	(cd "$1" && find . -printf '%P\t%s\t%T@\n') | LC_ALL=C sort | sha256sum | cut -d' ' -f1
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

# unmet_config CONFIG FRAGMENT...: for each option of the fragments whose
# value CONFIG does not have, "fragment: CONFIG_X=y did not take effect
# (.config has CONFIG_X=n)"; nothing when all took effect.
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
		}
	}' "$@"
}

# kconfig_depends KCONFIG SYMBOL CONFIG: ": " and the "depends on" lines of
# SYMBOL in the file KCONFIG, joined with &&, and what CONFIG has of the
# symbols they name (PAHOLE_VERSION=0: no pahole); nothing without any
kconfig_depends() {
	awk -v sym="$2" -v cfg="$3" '
	BEGIN { while ((getline l < cfg) > 0) if (l ~ /^CONFIG_/) { split(l, kv, "="); val[substr(kv[1], 8)] = kv[2] } }
	/^[^ \t#]/ { inblock = ($1 ~ /^(menu)?config$/ && $2 == sym); next }
	inblock && $1 == "depends" && $2 == "on" {
		sub(/^[ \t]*depends on[ \t]*/, "")
		sub(/[ \t]*#.*/, "")
		deps = deps (deps == "" ? "" : " && ") "(" $0 ")"
		n = split($0, w, /[^A-Za-z0-9_]+/)
		for (i = 1; i <= n; i++)
			if (w[i] ~ /^[A-Z][A-Z0-9_]*$/ && !(w[i] in seen)) {
				seen[w[i]] = 1
				have = have " " w[i] "=" (w[i] in val ? val[w[i]] : "n")
			}
	}
	END { if (deps != "") printf ": %s (.config:%s)", deps, have }' "$1"
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
	unmet_config "$_obj/.config" "$@" > "$_obj/.config.unmet"
	while read -r _line; do
		_sym=$(printf '%s\n' "$_line" | sed 's/^[^:]*: CONFIG_\([A-Za-z0-9_]*\)=.*/\1/')
		# a fragment of several series may name what one of them has not
		_kc=$(grep -rlsx --include='Kconfig*' "[[:space:]]*\(menu\)\{0,1\}config $_sym" "$_src" | head -n 1)
		[ -z "$_kc" ] || die "$_line; check its dependencies$(kconfig_depends "$_kc" "$_sym" "$_obj/.config")"

		warn "${_line%%:*}: CONFIG_$_sym is no option of this kernel: ignored"
	done < "$_obj/.config.unmet"
	rm -f "$_obj/.config.unmet"
}

# trust_certificate SRCTREE OBJTREE CERT: when OBJTREE's configuration signs
# modules, the PEM certificate CERT among its built-in trusted keys, as
# OBJTREE's certs/kbuild-split-trusted.pem (no path of the build host in
# the configuration).  ARCH and CROSS_COMPILE come from the environment.
trust_certificate() {
	grep -qx 'CONFIG_MODULE_SIG=y' "$2/.config" || return 0
	install -D -m 644 "$3" "$2/certs/kbuild-split-trusted.pem"
	"$1/scripts/config" --file "$2/.config" --set-str SYSTEM_TRUSTED_KEYS certs/kbuild-split-trusted.pem
	make -s -C "$1" O="$2" olddefconfig
	grep -qx 'CONFIG_SYSTEM_TRUSTED_KEYS="certs/kbuild-split-trusted.pem"' "$2/.config" ||
		die "CONFIG_SYSTEM_TRUSTED_KEYS did not take effect in $2/.config: check the dependencies of CONFIG_SYSTEM_TRUSTED_KEYRING"
}

# --- certificates -------------------------------------------------------------

# is_test_certificate PEM: PEM is one of the tests' certificates
# (tests/keys/*.crt, by SHA-256 fingerprint)
is_test_certificate() {
	_fp=$(openssl x509 -in "$1" -noout -fingerprint -sha256) || return 1
	for _t in "$TOP"/tests/keys/*.crt; do
		[ "$(openssl x509 -in "$_t" -noout -fingerprint -sha256)" != "$_fp" ] || return 0
	done
	return 1
}
