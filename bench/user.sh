# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# bench/user.sh: bench/run's rows of the user's side.  In one chroot of
# this machine's suite (lib/buildenv.sh's make_buildenv, with dkms and the
# compiler), USER_ROUNDS rounds of: apt-get install of our kbuild, host
# programs and source packages of the bench's build, then "dkms build" of
# tests/modules/kbs_dkms against them, then both removed; and the same with
# Debian's own linux-headers-<arch> of the same series from the archive
# (downloaded once beforehand: the rounds time unpacking and configuring,
# not the mirror).  A chroot, not a TCG guest: the guest would time the
# emulator; both sides run on the same machine, disk and dpkg.
# Sourced by bench/run after lib/host.sh and lib/buildenv.sh.

USER_ROUNDS=3

# in_root CMD...: CMD in the chroot, its output into the round log
in_root() {
	chroot "$ROOT" env DEBIAN_FRONTEND=noninteractive "$@" >> "$W/user.log" 2>&1 ||
		die "'$*' failed in the chroot $ROOT; see $W/user.log"
}

# user_timed NAME CMD...: CMD in the chroot, "NAME<TAB>wall" into $W/user
user_timed() {
	_un=$1
	shift
	_t0=$(date +%s.%N)
	in_root "$@"
	printf '%s\t%s\n' "$_un" "$(echo "$_t0 $(date +%s.%N)" | awk '{ printf "%.1f", $2 - $1 }')" >> "$W/user"
}

# package_names PACKAGE...: the names of the PACKAGEs (names, or .deb
# paths in the chroot)
package_names() {
	for _pn in "$@"; do
		case $_pn in
		*.deb) dpkg-deb -f "$ROOT$_pn" Package || return 1 ;;
		*) echo "$_pn" ;;
		esac
	done
}

# user_round ROUND SIDE REL PACKAGE...: install the PACKAGEs (names, or
# .deb paths in the chroot), build the dkms module for REL, remove both
user_round() {
	_ur_side=$2
	_ur_rel=$3
	echo "=== $_ur_side: round $1" >> "$W/user.log"
	shift 3
	_ur_names=$(package_names "$@") || die "cannot read the names of $*"
	user_timed "$_ur_side: apt-get install" apt-get install -y -q "$@"
	in_root dkms add -m kbs_dkms -v "$DKMS_VER"
	user_timed "$_ur_side: dkms build" dkms build -m kbs_dkms -v "$DKMS_VER" -k "$_ur_rel"
	in_root dkms remove -m kbs_dkms -v "$DKMS_VER" --all
	# shellcheck disable=SC2086 # package names
	in_root apt-get purge -y -q $_ur_names
	in_root apt-get autoremove -y -q
	! chroot "$ROOT" dpkg -l 'linux-kbuild-*' 'linux-headers-*' 2>/dev/null | grep -q '^ii' ||
		die "packages of the $_ur_side round are still installed after it; see $W/user.log"
}

measure_user() {
	: > "$W/user"
	: > "$W/user.log"
	_suite=$(machine_suite)
	_apt=$(apt_suite "$_suite" "$SERIES")
	if [ "$_apt" != "$_suite" ]; then
		echo "not measured: Debian's $SERIES headers are in $_apt, not in this machine's $_suite" > "$W/user.skip"
		return 0
	fi
	ROOT=$W/user-root
	# a new one: a stopped run leaves its packages and dkms tree
	unmount_stale "$ROOT"
	rm -rf --one-file-system "$ROOT"
	make_buildenv "$_suite" "$ROOT"
	for _m in proc sys dev dev/pts; do
		bind_mount "/$_m" "$ROOT/$_m"
	done
	DKMS_VER=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$TOP/tests/modules/kbs_dkms/dkms.conf")
	cp -r "$TOP/tests/modules/kbs_dkms" "$ROOT/usr/src/kbs_dkms-$DKMS_VER"
	mkdir -p "$ROOT/debs"
	cp "$(manifest_get "$W/pkg/debs" file series="$SERIES" kind=source)" \
		"$(manifest_get "$W/pkg/debs" file series="$SERIES" kind=kbuild flavour=qemu)" \
		"$(manifest_get "$W/pkg/debs" file series="$SERIES" kind=hostprogs flavour=qemu arch=amd64)" "$ROOT/debs/"
	# what both sides need before either: dkms and the compiler, the
	# Depends of ours but the three, Debian's headers downloaded
	in_root apt-get install -y -q --no-install-recommends dkms kmod make "$(data_value "$TOP/debian/config/compiler" "$_suite")"
	_theirs=$(chroot "$ROOT" apt-cache depends linux-headers-amd64 | sed -n 's/^ *Depends: \(linux-headers-[^ ]*-amd64\)$/\1/p')
	[ -n "$_theirs" ] || die "no linux-headers-amd64 in the $_suite chroot; see $W/user.log"
	in_root apt-get install -y -q --download-only "$_theirs"
	_ours=$(cd "$ROOT" && find debs -name '*.deb' | sed 's|^|/|')
	_rel=$(dpkg-deb -f "$(manifest_get "$W/pkg/debs" file series="$SERIES" kind=kbuild flavour=qemu)" Package)
	_i=0
	while [ "$_i" -lt "$USER_ROUNDS" ]; do
		# shellcheck disable=SC2086 # paths without spaces
		_i=$((_i + 1))
		user_round "$_i" ours "${_rel#linux-kbuild-}" $_ours
		user_round "$_i" "Debian's $_theirs" "${_theirs#linux-headers-}" "$_theirs"
	done
	unmount_buildenv
	# shellcheck disable=SC2034 # lib/buildenv.sh's: unmounted already
	BUILDENV_MOUNTS=
	rm -rf --one-file-system "$ROOT"
}

# write_user_table: median and spread of each measurement's rounds
write_user_table() {
	echo
	if [ -f "$W/user.skip" ]; then
		echo "User's side: $(cat "$W/user.skip")."
		return 0
	fi
	echo "User's side, in a $(machine_suite) chroot on this machine, $USER_ROUNDS rounds (packages downloaded beforehand):"
	echo
	echo "| measured | median s | min s | max s |"
	echo "|---|---:|---:|---:|"
	cut -f1 "$W/user" | awk '!seen[$0]++' | while IFS= read -r _name; do
		awk -F '\t' -v n="$_name" '$1 == n { print $2 }' "$W/user" | sort -n |
			awk -v n="$_name" '{ v[NR] = $1 } END { printf "| %s | %s | %s | %s |\n", n, v[int((NR + 1) / 2)], v[1], v[NR] }'
	done
}
