# Help: an --incremental build that cannot reuse its kept trees says why, in one line
# shellcheck shell=sh
# build-kernel.sh --incremental (dpkg-buildpackage stubbed: it keeps a
# debian/build and makes the packages) after a kept build made without ccache
# must name the changed compiler command, kbuild recompiling every object;
# after one of other flavours, the changed input, starting clean.

# build NAME ARGS...: build-kernel.sh --incremental ARGS, its stderr in $T/NAME.err
build() {
	_name=$1
	shift
	KBS_OUT=$T/out "$TOP/build-kernel.sh" --incremental "$@" > /dev/null 2> "$T/$_name.err" ||
		{ tail -n 3 "$T/$_name.err"; echo "build-kernel.sh --incremental $* failed"; return 1; }
}

# one_line NAME PATTERN: $T/NAME.err has exactly one line matching PATTERN
one_line() {
	[ "$(grep -c "$2" "$T/$1.err")" -eq 1 ] ||
		{ grep incremental "$T/$1.err"; echo "no line '$2' after the $1 build"; return 1; }
}

check_case() {
	stub_build
	stub apt-get 'exit 1'
	KBS_CCACHE=0 build first --flavours tiny || return 1
	build ccache --flavours tiny || return 1
	one_line ccache "incremental: the kept trees of .* are of the same inputs" || return 1
	one_line ccache "incremental: the compiler command changed since the kept build ('x86_64-linux-gnu-gcc-[0-9]* [0-9.]*', now 'ccache x86_64-linux-gnu-gcc-[0-9]* [0-9.]*'): kbuild recompiles every object" || return 1
	build flavours --flavours tiny,qemu || return 1
	one_line flavours "incremental: the kept build's flavours changed (of its patches, series, flavours, abi and packaging): starting clean" || return 1
	! grep -q 'compiler command' "$T/flavours.err" || { echo "a clean start named the compiler"; return 1; }
	grep -h 'incremental: the' "$T/ccache.err" "$T/flavours.err" | grep -v 'same inputs' | sed 's/^/# /'
}
