# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# qemu-test/steps.sh: what the host and the guest both read of the test
# data, so that they agree on every check's number and name.
#
#   qemu-test/phases/<phase>   the guest checks of one boot, in order: one
#       step a line, "STEP ARG...", where ARGs may name $KBS_* variables
#       of the guest's environment; a leading "!" makes a failure end the
#       phase (the later steps are reported as skipped); "@PHASE" takes in
#       another phase's lines.
#   qemu-test/steps/<step>.sh  one guest check: a "# Check: " line naming
#       it ($1... are the arguments, $KBS_* the environment) and a
#       function check_step, run with the arguments; its exit status is
#       the verdict, its last output line the reason of a failure.
#
# Source it after setting QT to the qemu-test directory.

# phase_steps PHASE: the phase's step lines, includes expanded
phase_steps() {
	[ -r "$QT/phases/$1" ] || {
		echo "no phase '$1' in $QT/phases" >&2
		return 1
	}
	_ps_text=$(sed -e 's/[[:space:]]*#.*//' -e '/^[[:space:]]*$/d' "$QT/phases/$1")
	while read -r _ps_line; do
		case $_ps_line in
		'') ;;
		@*) phase_steps "${_ps_line#@}" || return 1 ;;
		*) printf '%s\n' "$_ps_line" ;;
		esac
	done <<-EOF
	$_ps_text
	EOF
}

# expand_vars TEXT: TEXT with each $KBS_NAME replaced by its value
expand_vars() {
	_ev=$1
	for _ev_var in $(printf '%s\n' "$_ev" | grep -o '[$]KBS_[A-Z0-9_]*' | sort -ru); do
		_ev_val=
		eval "_ev_val=\${${_ev_var#\$}:-}"
		_ev=$(printf '%s\n' "$_ev" | sed "s|[$]${_ev_var#\$}|$_ev_val|g")
	done
	printf '%s\n' "$_ev"
}

# step_name STEP ARG...: the check's name, from its "# Check: " line
step_name() {
	_sn_file=$QT/steps/${1#!}.sh
	[ -r "$_sn_file" ] || {
		printf 'unknown step %s\n' "$1"
		return 0
	}
	shift
	_sn=$(sed -n 's/^# Check: //p' "$_sn_file")
	_sn_i=1
	for _sn_arg in "$@"; do
		_sn=$(printf '%s\n' "$_sn" | sed "s|[$]$_sn_i|$_sn_arg|g")
		_sn_i=$((_sn_i + 1))
	done
	# the arguments the line did not give
	expand_vars "$(printf '%s\n' "$_sn" | sed 's/ *[$][1-9]//g')"
}

# expand_args LINE: a phase line's words, $KBS_* variables expanded
expand_args() {
	expand_vars "$1"
}
