# shellcheck shell=sh # (genmaintscripts drops this line)
# lay_link LINK TARGET: make LINK point to TARGET, unless a link or directory
# that is not ours is there (left alone with a warning); a dangling link is
# replaced.
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
