#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/fail-loud.sh - bad input and failing steps must fail loudly: a
# non-zero exit, one line naming the problem and the fix, nothing left
# half-built.  Each case is a file tests/fail-loud/<case>.sh defining
# check_case, run in a subshell with a fresh scratch directory $T; stubs
# (commands put first on PATH from $T/bin) stand for slow or dangerous
# tools (make, dpkg-buildpackage, apt-get, lintian).
#
# Usage: tests/fail-loud.sh [CASE...]     (default: every case)
#
# Environment: KBS_OUT (default out/).

set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/kbuild-split.sh
. "$TOP/lib/kbuild-split.sh"

OUT=${KBS_OUT:-$TOP/out}
CASES=$TOP/tests/fail-loud
W=

cleanup() {
	if [ -n "$W" ]; then
		rm -rf "$W"
	fi
}

# stub NAME [SCRIPT]: a command NAME on $T/bin that logs its call to
# $T/calls and runs SCRIPT (default: exit 0)
stub() {
	mkdir -p "$T/bin"
	printf '#!/bin/sh\necho "%s $*" >> "%s/calls"\n%s\n' "$1" "$T" "${2:-exit 0}" > "$T/bin/$1"
	chmod 755 "$T/bin/$1"
}

# one_error_line FILE PATTERN: FILE (a command's stderr) is one line, an
# error matching PATTERN
one_error_line() {
	[ "$(wc -l < "$1")" -eq 1 ] || { echo "stderr has $(wc -l < "$1") lines, not one:"; head -n 5 "$1"; return 1; }
	grep -q "$2" "$1" || { echo "stderr does not say '$2': $(cat "$1")"; return 1; }
}

# run_case FILE: its check_case in a subshell with a scratch directory
run_case() {
	(
		T=$W/${1##*/}
		T=${T%.sh}
		mkdir -p "$T"
		PATH=$T/bin:$PATH
		# shellcheck source=/dev/null
		. "$1"
		check_case
	)
}

main() {
	trap cleanup EXIT
	mkdir -p "$OUT"
	W=$(mktemp -d "$OUT/fail-loud.XXXXXX")
	[ $# -gt 0 ] || set -- "$CASES"/*.sh
	ktap_plan $#
	for _c in "$@"; do
		[ -f "$_c" ] || _c=$CASES/$_c.sh
		ktap_check "$(sed -n 's/^# Help: *//p' "$_c")" run_case "$_c"
	done
	ktap_summary
}

main "$@"
