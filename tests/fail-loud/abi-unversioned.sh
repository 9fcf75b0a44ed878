# Help: an exported symbol without a CRC fails the ABI check, naming the symbol and the fix
# shellcheck shell=sh
# debian/bin/abicheck REFERENCE SYMVERS where SYMVERS has the reference's
# symbols and one more with CRC 0x00000000 (genksyms never saw its
# prototype: no change of it would ever show): exit 2, an "unversioned:"
# line naming the symbol, asm-prototypes.h and debian/abi/ignore.  Listed
# in an ignore file with a reason, it passes.  (abicheck counted it as
# an added symbol and passed.)

check_case() {
	printf '0x12345678\tkept\tvmlinux\tEXPORT_SYMBOL\t\n' > "$T/reference"
	{ cat "$T/reference"; printf '0x00000000\tasm_helper\tvmlinux\tEXPORT_SYMBOL\t\n'; } > "$T/build"
	_rc=0
	"$TOP/debian/bin/abicheck" "$T/reference" "$T/build" > "$T/out" 2>&1 || _rc=$?
	[ "$_rc" -eq 2 ] || { cat "$T/out"; echo "abicheck exited $_rc, not 2"; return 1; }
	grep -q '^unversioned: asm_helper (vmlinux) has no CRC: .*asm-prototypes.h.*debian/abi/ignore' "$T/out" ||
		{ cat "$T/out"; echo "no 'unversioned: asm_helper' line naming the fix"; return 1; }
	printf 'asm_*\tassembly helpers, used by no module\n' > "$T/ignore"
	"$TOP/debian/bin/abicheck" --ignore "$T/ignore" "$T/reference" "$T/build" > "$T/out" 2>&1 ||
		{ cat "$T/out"; echo "an ignored unversioned symbol failed"; return 1; }
	grep -q '^ignored: asm_helper has no CRC (assembly helpers, used by no module)' "$T/out" ||
		{ cat "$T/out"; echo "the ignored symbol is not reported"; return 1; }
}
