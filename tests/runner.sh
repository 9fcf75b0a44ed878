#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/runner.sh - tests/run itself, on fake suites (tests/runner/*.sh):
# for each case of tests/runner/cases, a suites file of those suites, then
# tests/run's exit status and closing line against the expected ones.  A
# runner that adds up closing lines alone passed a suite that exited 3
# after "0 failed", one without a summary, and one whose summary hid a
# failed check.  Each run's time table has a line for each suite.
#
# Usage: tests/runner.sh
#
# Environment: KBS_OUT (default out/).

set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/kbuild-split.sh
. "$TOP/lib/kbuild-split.sh"
# shellcheck source=tests/lib/ktap.sh
. "$TOP/tests/lib/ktap.sh"

OUT=${KBS_OUT:-$TOP/out}
W=

cleanup() {
	if [ -n "$W" ]; then
		rm -rf "$W"
	fi
}

# run_case EXIT CLOSING SUITES: tests/run on those fake suites
run_case() {
	_dir=$(mktemp -d "$W/case.XXXXXX")
	for _s in $3; do
		printf '%s\tsh tests/runner/%s.sh\n' "${_s%&}$(case $_s in *\&) echo '&' ;; esac)" "${_s%&}"
	done > "$_dir/suites"
	_rc=0
	KBS_OUT=$_dir KBS_SUITES=$_dir/suites KBS_HOST_PACKAGES=/dev/null "$TOP/tests/run" > "$_dir/out" 2>&1 || _rc=$?
	_last=$(tail -n 1 "$_dir/out")
	[ "$_last" = "$2" ] || { sed 's/^/# /' "$_dir/out"; echo "closing line '$_last', expected '$2'"; return 1; }
	for _s in $3; do
		grep -qE "^# +[0-9]+ s  suite ${_s%&}\$" "$_dir/out" ||
			{ sed 's/^/# /' "$_dir/out"; echo "the time table has no line of suite ${_s%&}"; return 1; }
	done
	case $1 in
	0) [ "$_rc" -eq 0 ] || { echo "tests/run exited $_rc, expected 0"; return 1; } ;;
	*) [ "$_rc" -ne 0 ] || { echo "tests/run exited 0, expected a failure"; return 1; } ;;
	esac
}

main() {
	trap cleanup EXIT
	mkdir -p "$OUT"
	W=$(mktemp -d "$OUT/runner.XXXXXX")
	sed -e '/^#/d' -e '/^[[:space:]]*$/d' "$TOP/tests/runner/cases" > "$W/cases"
	ktap_plan "$(wc -l < "$W/cases")"
	while IFS='|' read -r _name _exit _closing _suites; do
		# shellcheck disable=SC2086 # trimmed by word splitting
		ktap_check "$(echo $_name)" run_case "$(echo $_exit)" "$(echo $_closing)" "$(echo $_suites)"
	done < "$W/cases"
	ktap_summary
}

main "$@"
