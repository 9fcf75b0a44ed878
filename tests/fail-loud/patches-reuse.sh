# Help: tests/patches.sh reports the checks it does not run, when it reuses the package build's trees, as SKIP with the reason
# shellcheck shell=sh
# A made-up series and tarball, and a made-up package build of them (the
# patched tree's .kbuild-split-series as apply.sh --describe prints it, an
# object tree with Module.symvers): "series applies" and "O= build" were
# reported "ok" although this suite ran neither.

check_case() {
	mkdir -p "$T/top/patches/9.9" "$T/top/lib" "$T/top/tests/lib" "$T/linux-9.9"
	cp "$TOP/patches/apply.sh" "$T/top/patches/"
	cp "$TOP"/lib/*.sh "$T/top/lib/"
	cp "$TOP/tests/lib/ktap.sh" "$T/top/tests/lib/"
	cp "$TOP/tests/patches.sh" "$T/top/tests/"
	seq 1 3 > "$T/linux-9.9/numbers"
	tar -C "$T" -cJf "$T/linux-source-9.9.tar.xz" linux-9.9
	printf -- '--- a/numbers\n+++ b/numbers\n@@ -1,3 +1,3 @@\n 1\n-2\n+two\n 3\n' > "$T/top/patches/9.9/0001-two.patch"
	echo 0001-two.patch > "$T/top/patches/9.9/series"
	# the package build's trees, and the manifest line that names them
	_a=$(dpkg --print-architecture)
	_b=$T/top/out/pkg/9.9/$_a/kbuild-split/debian/build
	mkdir -p "$_b/src" "$_b/obj-tiny/include/config" "$T/top/out/debs"
	KBS_TARBALL=$T/linux-source-9.9.tar.xz "$T/top/patches/apply.sh" --describe 9.9 > "$_b/src/.kbuild-split-series"
	touch "$_b/obj-tiny/Module.symvers"
	echo 9.9.0-1-tiny > "$_b/obj-tiny/include/config/kernel.release"
	printf '9.9\t9.9.0\t1\t9.9.0-1\t-\t%s\ttree\t-\t-\t%s\t-\n' "$_a" "$_b" > "$T/top/out/debs/manifest"
	KBS_OUT=$T/top/out KBS_TARBALL=$T/linux-source-9.9.tar.xz "$T/top/tests/patches.sh" 9.9 > "$T/out.log" 2>&1 ||
		true # judged by its lines
	for _c in 'series applies' 'O= build'; do
		grep -q "^ok [0-9]* 9.9: $_c # SKIP .*build-kernel.sh" "$T/out.log" ||
			{ grep "9.9: $_c" "$T/out.log"; echo "'$_c' is not reported as a SKIP with its reason"; return 1; }
	done
}
