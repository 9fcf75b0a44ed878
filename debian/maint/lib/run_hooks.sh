# shellcheck shell=sh disable=SC2154 # set by header.sh (genmaintscripts drops this line)
# run_hooks DIR ARG...: Debian's kernel hook directories, as its own kernel
# packages run them; a failing hook fails the package.  Where the suite's
# kernels call linux-base's linux-run-hooks (Debian 13), so does this, for
# /etc/kernel/DIR and /usr/share/kernel/DIR; else run-parts runs
# hookdir/DIR.  Both are fixed when the package is built (KDEB_HOOKDIR
# there), as in the kernel's own builddeb: a variable set in the shell
# that runs dpkg must not turn the hooks off.
run_hooks() {
	_dir=$1
	shift
	if [ "$hook_runner" = linux-run-hooks ]; then
		case $_dir in
		header_*) _kind=headers ;;
		*) _kind=image ;;
		esac
		_script=${_dir#header_}
		# shellcheck disable=SC2086 # the script's own arguments: words
		linux-run-hooks "$_kind" "${_script%.d}" "$@" -- $MAINT_PARAMS ||
			hook_failed "/etc/kernel/$_dir or /usr/share/kernel/$_dir"
		return 0
	fi
	_dir=$hookdir/$_dir
	[ -d "$_dir" ] || return 0
	for _arg in "$@"; do
		set -- "$@" "--arg=$_arg"
		shift
	done
	DEB_MAINT_PARAMS="$MAINT_PARAMS" run-parts --report --exit-on-error "$@" "$_dir" ||
		hook_failed "$_dir"
}
