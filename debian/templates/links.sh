# shellcheck shell=sh
# The build and source links of /lib/modules/@REL@, shared by the image and
# kbuild packages: whichever is configured second lays them, either one's
# removal takes them away, and a link or directory that is not ours is
# left alone with a warning.
moddir=/lib/modules/@REL@
objtree=/usr/src/linux-kbuild-@REL@
srctree=/usr/src/linux-kbuild-source-@KVER@

# lay_link LINK TARGET
lay_link() {
	if [ -L "$1" ]; then
		[ "$(readlink "$1")" != "$2" ] || return 0
		if [ -e "$1" ]; then
			echo "$DPKG_MAINTSCRIPT_PACKAGE: warning: $1 points to $(readlink "$1"), not $2; leaving it" >&2
			return 0
		fi
		rm -f "$1"
	elif [ -e "$1" ]; then
		echo "$DPKG_MAINTSCRIPT_PACKAGE: warning: $1 is not a symlink; leaving it, so modules build against it, not $2" >&2
		return 0
	fi
	ln -s "$2" "$1"
}

lay_links() {
	[ -d "$moddir" ] && [ -e "$objtree/Makefile" ] || return 0
	lay_link "$moddir/build" "$objtree"
	lay_link "$moddir/source" "$srctree"
}

# drop_link LINK TARGET: remove LINK only if it is ours
drop_link() {
	if [ -L "$1" ] && [ "$(readlink "$1")" = "$2" ]; then
		rm -f "$1"
	fi
}

drop_links() {
	drop_link "$moddir/build" "$objtree"
	drop_link "$moddir/source" "$srctree"
}

# run_hooks DIR ARG...: Debian's kernel hook directories, as its own
# kernel packages run them; a failing hook fails the package.
run_hooks() {
	_dir=${KDEB_HOOKDIR:-/etc/kernel}/$1
	shift
	[ -d "$_dir" ] || return 0
	for _arg in "$@"; do
		set -- "$@" "--arg=$_arg"
		shift
	done
	DEB_MAINT_PARAMS="$MAINT_PARAMS" run-parts --report --exit-on-error "$@" "$_dir" ||
		{ echo "$DPKG_MAINTSCRIPT_PACKAGE: a hook in $_dir failed; fix it, then run dpkg --configure -a" >&2; exit 1; }
}
