#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/trixie-lifecycle.sh - the package lifecycle in a Debian 13 guest
# (qemu-test/run --lifecycle with KBS_SUITE=trixie): trixie's 7.3 qemu
# flavour with its tiny twin, trixie's own series, 6.12, beside it, and
# the upgrade of 6.12's metapackages to ABI 2, on trixie's dkms,
# initramfs-tools and linux-base.  It makes the builds it needs first, in
# the trixie build environment, into out/trixie/lifecycle/ (its .debs
# apart from those of --for-tests): 7.3 qemu and tiny, 6.12 tiny and
# qemu-arm64 (trixie's 6.12 for both architectures), 6.12 tiny with ABI 2.
# In "tests/run --full" (tests/suites-full): it takes about an hour here.
#
# Usage: tests/trixie-lifecycle.sh
# Environment: KBS_OUT (default out/).

set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/kbuild-split.sh
. "$TOP/lib/kbuild-split.sh"

# build ARG...: one trixie build, its progress in the log only
build() {
	log "./build-kernel.sh --suite trixie $*"
	"$TOP/build-kernel.sh" --suite trixie "$@" > "$L/build.log" 2>&1 ||
		{ tail -n 20 "$L/build.log" >&2; die "./build-kernel.sh --suite trixie $* failed; see $L/build.log"; }
	grep 'built the\|trixie build environment' "$L/build.log" | sed 's/^/# /'
}

main() {
	L=$(suite_out trixie)/lifecycle
	mkdir -p "$L"
	build --series 7.3 --flavours qemu,tiny --trusted-cert tests/keys/trusted.crt --debs "$L/debs"
	build --series 6.12 --flavours tiny,qemu-arm64 --debs "$L/debs"
	build --series 6.12 --flavours tiny --abi 2 --debs "$L/abi2/debs"
	KBS_SUITE=trixie KBS_SERIES=7.3 KBS_OTHER_SERIES=6.12 KBS_OTHER_FLAVOUR=tiny \
		KBS_ABI2_DEBS=$L/abi2/debs exec "$TOP/qemu-test/run" --lifecycle --debs "$L/debs"
}

main "$@"
