# Help: a flavour without an ABI reference fails the check unless its ABI is new
# shellcheck shell=sh
# debian/bin/abicheck abi/6.1.192-1/qemu-arm64 SYMVERS where abi/6.1.192-1
# holds the references of other flavours: exit 2, one error line naming
# the missing reference and the flavours that have one.  In a directory
# without any reference (a new upstream version or ABI) it warns and
# passes.  (Without a reference debian/rules only warned: 6.1's
# qemu-arm64 and 6.12's qemu were never checked.)

check_case() {
	mkdir -p "$T/abi/6.1.192-1" "$T/abi/6.1.192-2"
	printf '0x12345678\tsym\tvmlinux\tEXPORT_SYMBOL\t\n' > "$T/build"
	cp "$T/build" "$T/abi/6.1.192-1/tiny"
	_rc=0
	"$TOP/debian/bin/abicheck" "$T/abi/6.1.192-1/qemu-arm64" "$T/build" > "$T/out" 2> "$T/err" || _rc=$?
	[ "$_rc" -eq 2 ] || { cat "$T/err"; echo "abicheck exited $_rc, not 2"; return 1; }
	one_error_line "$T/err" "no ABI reference .*/6.1.192-1/qemu-arm64, though .*/6.1.192-1 has those of tiny" || return 1
	"$TOP/debian/bin/abicheck" "$T/abi/6.1.192-2/qemu-arm64" "$T/build" > "$T/out" 2> "$T/err" ||
		{ cat "$T/err"; echo "a new ABI's first build failed"; return 1; }
	grep -q 'warning: no ABI reference .*6.1.192-2 is a new ABI' "$T/err" || { cat "$T/err"; echo "no warning"; return 1; }
}
