# shellcheck shell=sh # (genmaintscripts drops this line)
# drop_link LINK TARGET: remove LINK only if it is ours
drop_link() {
	if [ -L "$1" ] && [ "$(readlink "$1")" = "$2" ]; then
		rm -f "$1"
	fi
}
