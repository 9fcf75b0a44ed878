# Help: a lintian that crashes fails the packages suite's lintian check
# shellcheck shell=sh
# tests/packages.sh on a made-up source-tree package, with a lintian that
# dies (exit 1, lintian's run-time error): its check must be "not ok", not
# passed for want of "E:" lines (it ran with "|| true" and a grep).

check_case() {
	stub lintian 'echo "Unknown error in lintian: this stub crashed" >&2; exit 1'
	mkdir -p "$T/pkg/DEBIAN" "$T/pkg/usr/src/linux-kbuild-source-9.9.9-1" "$T/out/debs" "$T/out/pkg/9.9/amd64"
	printf 'Package: linux-kbuild-source-9.9.9-1\nVersion: 0.1\nArchitecture: all\nMaintainer: x <x@x.invalid>\nDescription: made up\n' \
		> "$T/pkg/DEBIAN/control"
	dpkg-deb -b "$T/pkg" "$T/out/debs/linux-kbuild-source-9.9.9-1_0.1_all.deb" > /dev/null
	_c=$T/out/pkg/9.9/amd64/kbuild-split_0.1_amd64.changes
	echo made-up > "$_c"
	{
		printf '9.9\t9.9.9\t1\t9.9.9-1\t-\tall\tsource\tlinux-kbuild-source-9.9.9-1\t0.1\t%s\t-\n' \
			linux-kbuild-source-9.9.9-1_0.1_all.deb
		printf '9.9\t9.9.9\t1\t9.9.9-1\t-\tamd64\tchanges\t-\t0.1\t%s\t%s\n' "$_c" "$(sha256sum < "$_c" | cut -d' ' -f1)"
	} > "$T/out/debs/manifest"
	KBS_OUT=$T/out "$TOP/tests/packages.sh" > "$T/out.log" 2>&1 || true # judged by its lines
	grep -q '^not ok [0-9]* .*lintian.*# lintian failed to run (exit 1)' "$T/out.log" ||
		{ grep -i lintian "$T/out.log" | head -n 3; echo "the lintian check did not fail on a crashing lintian"; return 1; }
}
