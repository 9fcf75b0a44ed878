# shellcheck shell=sh disable=SC2154 # set by header.sh (genmaintscripts drops this line)
# drop_links: the removal of either the image or the kbuild package takes
# the build and source links away; links that are not ours stay.
drop_links() {
	drop_link "$moddir/build" "$objtree"
	drop_link "$moddir/source" "$srctree"
}
