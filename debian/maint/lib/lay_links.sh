# shellcheck shell=sh disable=SC2154 # set by header.sh (genmaintscripts drops this line)
# lay_links: the build and source links of /lib/modules/<rel>, shared by the
# image and kbuild packages: whichever is configured second lays them.
lay_links() {
	[ -d "$moddir" ] && [ -e "$objtree/Makefile" ] || return 0
	lay_link "$moddir/build" "$objtree"
	lay_link "$moddir/source" "$srctree"
}
