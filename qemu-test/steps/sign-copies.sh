# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: $1.ko signed with the object tree's scripts/sign-file, with the trusted and with another key
# sign-copies NAME: /tmp/sig/NAME-{unsigned,trusted,other}.ko from
# /tmp/modules/NAME (module-make) and the tests' keys (tests/keys)
check_step() {
	_rel=$(uname -r)
	grep -qx 'CONFIG_MODULE_SIG=y' "/boot/config-$_rel" ||
		{ echo "$_rel does not check module signatures (CONFIG_MODULE_SIG)"; return 77; }
	_sign=/lib/modules/$_rel/build/scripts/sign-file
	[ -x "$_sign" ] || { echo "no $_sign"; return 1; }
	_hash=$(sed -n 's/^CONFIG_MODULE_SIG_HASH="\(.*\)"$/\1/p' "/boot/config-$_rel")
	rm -rf /tmp/sig
	mkdir -p /tmp/sig
	for _key in unsigned trusted other; do
		cp "/tmp/modules/$1/$1.ko" "/tmp/sig/$1-$_key.ko" || return
		[ "$_key" = unsigned ] ||
			"$_sign" "$_hash" "$KBS/keys/$_key.key" "$KBS/keys/$_key.crt" "/tmp/sig/$1-$_key.ko" || return
	done
	modinfo -F signer "/tmp/sig/$1-trusted.ko"
	modinfo -F signer "/tmp/sig/$1-trusted.ko" | grep -q 'kbuild-split trusted test key' ||
		{ echo "/tmp/sig/$1-trusted.ko is not signed by the tests' trusted key"; return 1; }
	[ -z "$(modinfo -F signer "/tmp/sig/$1-unsigned.ko")" ] ||
		{ echo "/tmp/modules/$1/$1.ko came signed"; return 1; }
}
