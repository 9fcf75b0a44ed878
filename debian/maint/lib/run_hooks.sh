# shellcheck shell=sh disable=SC2154 # set by header.sh (genmaintscripts drops this line)
# run_hooks DIR ARG...: Debian's kernel hook directories, as its own kernel
# packages run them; a failing hook fails the package.  The directory is
# fixed when the package is built (KDEB_HOOKDIR there), as in the kernel's
# own builddeb: a variable set in the shell that runs dpkg must not turn
# the hooks off.
run_hooks() {
	_dir=$hookdir/$1
	shift
	[ -d "$_dir" ] || return 0
	for _arg in "$@"; do
		set -- "$@" "--arg=$_arg"
		shift
	done
	DEB_MAINT_PARAMS="$MAINT_PARAMS" run-parts --report --exit-on-error "$@" "$_dir" ||
		{ echo "$DPKG_MAINTSCRIPT_PACKAGE: a hook in $_dir failed; fix it, then run dpkg --configure -a" >&2; exit 1; }
}
