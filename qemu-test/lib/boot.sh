# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# qemu-test/lib/boot.sh: booting a guest of an architecture of
# qemu-test/arches/ under QEMU, the kernel each boot runs, and turning
# what the guest wrote on its results disk into KTAP.  Sourced by
# qemu-test/run.

# Printed by the guest init once it runs; the kernel command line never contains it.
GUEST_MARKER=KBS-GUEST-UP
GUEST_INIT=/kbs/qemu-test/guest/init

# guest_value KEY: a value of the guest architecture's qemu-test/arches file
guest_value() {
	data_value "$HERE/arches/$GUEST_ARCH" "$1" || die "qemu-test/arches/$GUEST_ARCH has no '$1' line"
}

# new_results_disk NAME SIZE: the empty results disk of a boot, marked so
# that the guest finds it whatever order its disks come up in
new_results_disk() {
	printf 'KBS-RESULTS\n' >"$OUTQ/results-$1.raw"
	truncate -s "$2" "$OUTQ/results-$1.raw"
}

# qemu_cmd NAME PHASE KERNEL [CMDLINE...]: the QEMU command of one boot, one
# console log and one results disk per boot.  norandmaps: TCG keys the code
# it translates on the virtual address, so with ASLR every process has
# ld.so and libc translated afresh; without it an exec took 5.5 ms instead
# of 31 (300 runs of /bin/true), and make, gcc, dkms and dpkg's scripts are
# exec after exec.  The x86 guest's tsc=reliable (arches/amd64): the
# clocksource watchdog, checking the TSC against jiffies that a busy TCG
# host delays, swapped it for jiffies after 10-40 s, and the guest's clock
# (its timeouts and the step timings it reports) then ran slow.
qemu_cmd() {
	local name=$1 phase=$2 kernel=$3 disk extra
	shift 3
	disk=$(guest_value disk)
	extra=$(guest_value cmdline)
	[ "$extra" != - ] || extra=
	QEMU=("$(guest_value qemu)" -nodefaults -no-user-config -display none -no-reboot
		-M "$(guest_value machine)" "${QEMU_ACCEL[@]}" -m "$MEM"
		-kernel "$kernel"
		-append "console=$(guest_value console) root=/dev/$(guest_value root) rootfstype=ext4 init=$GUEST_INIT panic=-1 norandmaps $extra kbs_phase=$phase $*"
		-drive "file=$IMAGE,format=raw,if=none,id=root,cache=unsafe" -device "$disk,drive=root"
		-drive "file=$OUTQ/results-$name.raw,format=raw,if=none,id=results" -device "$disk,drive=results"
		-device "$(guest_value rng)"
		-serial "file:$OUTQ/console-$name.log")
	rm -f "$OUTQ/console-$name.log"
}

# probe_kvm KERNEL: does a KVM guest get as far as our init within the probe limit?
probe_kvm() {
	local limit start console=$OUTQ/console-kvm-probe.log
	if [ "$GUEST_ARCH" != "$(dpkg --print-architecture)" ]; then
		ACCEL_NOTE="a $GUEST_ARCH guest on an $(dpkg --print-architecture) machine"
		return 1
	fi
	if ! [ -r /dev/kvm ] || ! [ -w /dev/kvm ]; then
		ACCEL_NOTE="no usable /dev/kvm"
		return 1
	fi
	limit=$(read_timeout kvm-probe)
	QEMU_ACCEL=(-accel kvm -cpu "$(guest_value kvm-cpu)" -smp "$SMP")
	new_results_disk kvm-probe 1M
	qemu_cmd kvm-probe probe "$1" ro
	start=$(now)
	timeout "$limit" "${QEMU[@]}" 2>"$OUTQ/qemu-kvm-probe.err" &
	QEMU_PID=$!
	while kill -0 "$QEMU_PID" 2>/dev/null; do
		if grep -qs "$GUEST_MARKER" "$console"; then
			kill "$QEMU_PID" 2>/dev/null || true	# it may have just ended by itself
			wait "$QEMU_PID" || true	# its status is that of the kill
			QEMU_PID=
			record_time "kvm probe" "$start"
			return 0
		fi
		sleep 1
	done
	wait "$QEMU_PID" || true	# timed out or failed: told by the console log below
	QEMU_PID=
	record_time "kvm probe" "$start"
	grep -qs "$GUEST_MARKER" "$console" && return 0
	if [ -s "$console" ]; then
		ACCEL_NOTE="kvm guest did not reach init in ${limit} s: $(tr -d '\r' <"$console" | tail -n 1)"
	else
		ACCEL_NOTE="kvm guest printed nothing in ${limit} s"
	fi
	return 1
}

# choose_accel KERNEL: KVM when it works here, TCG otherwise.
choose_accel() {
	local tcg=(-accel 'tcg,thread=multi' -cpu "$(guest_value cpu)" -smp "$SMP")
	[ "${#QEMU_ACCEL[@]}" -eq 0 ] || return 0	# chosen for an earlier boot
	case $ACCEL in
	kvm)
		QEMU_ACCEL=(-accel kvm -cpu "$(guest_value kvm-cpu)" -smp "$SMP")
		ACCEL_NOTE="forced by KBS_ACCEL"
		;;
	tcg)
		QEMU_ACCEL=("${tcg[@]}")
		ACCEL_NOTE="forced by KBS_ACCEL"
		;;
	auto)
		if probe_kvm "$1"; then
			ACCEL=kvm
			ACCEL_NOTE="guest init reached under kvm"
		else
			ACCEL=tcg
			QEMU_ACCEL=("${tcg[@]}")
		fi
		;;
	*)
		die "KBS_ACCEL=$ACCEL: use auto, kvm or tcg"
		;;
	esac
	log "accelerator: $ACCEL ($ACCEL_NOTE)"
}

# run_qemu NAME PHASE KERNEL [CMDLINE...]: one boot with its hard time
# limit; sets BOOT_STATUS to QEMU's exit status
run_qemu() {
	local name=$1 limit start
	limit=$(read_timeout "boot-$name")
	qemu_cmd "$@"
	log "boot $name: $ACCEL, limit $limit s, console $OUTQ/console-$name.log"
	start=$(now)
	BOOT_STATUS=0
	timeout --kill-after=10 "$limit" "${QEMU[@]}" </dev/null 2>"$OUTQ/qemu-$name.err" || BOOT_STATUS=$?
	record_time "boot $name" "$start"
}

# results_of NAME: a boot's result lines, without the disk's marker
results_of() {
	tr -d '\000' <"$OUTQ/results-$1.raw" | tail -n +2
}

# report_results NAME PHASE: the phase's checks, in its order, as KTAP: what
# the guest reported, "skip" for what it did not get to; then whether the
# guest ran all its steps
report_results() {
	local name=$1 phase=$2 kind rname why i=0 line step args ended='' failed=''
	local console=$OUTQ/console-$name.log
	results_of "$name" >"$WORK/results"
	while IFS=$'\t' read -r kind rname why; do
		[ "$kind" = time ] && [ "${why:-0}" -ge 3 ] && TIMINGS+=("  $rname: $why s")
		[ "$kind" != "done" ] || ended=1
	done <"$WORK/results"
	while read -r step args; do
		i=$((i + 1))
		# shellcheck disable=SC2046 # the words of the line, expanded
		line=$(step_name "$step" $(expand_args "$args"))
		if IFS=$'\t' read -r kind _ rname why < <(awk -F '\t' -v i="$i" '$1 != "time" && $2 == i' "$WORK/results"); then
			case $kind in
			ok) ktap_ok "$line" ;;
			skip) ktap_skip "$line" "$why" ;;
			*)
				ktap_fail "$line" "${why:-failed}"
				failed=1
				;;
			esac
		else
			ktap_skip "$line" "not run: the guest stopped before it"
		fi
	done < <(phase_steps "$phase")
	[ -z "$failed" ] || printf '# the output of every guest step is in %s\n' "$console"
	if [ -n "$ended" ]; then
		ktap_ok "boot $name: guest ran all its steps"
		return 0
	fi
	case $BOOT_STATUS in
	124 | 137) why="timed out after $(read_timeout "boot-$name") s" ;;
	0) why="guest ended without its end line" ;;
	*) why="qemu exited with status $BOOT_STATUS: $(tail -n 1 "$OUTQ/qemu-$name.err")" ;;
	esac
	ktap_fail "boot $name: guest ran all its steps" "$why; console log $console"
	tr -d '\r' <"$console" 2>/dev/null | tail -n 15 | sed 's/^/# /'
	return 1
}

# boot_guest NAME KERNEL: boot KERNEL into phase NAME, report its checks
boot_guest() {
	new_results_disk "$1" 1M
	run_qemu "$1" "$1" "$2" rw
	report_results "$1" "$1"
}

# phase_checks PHASE: how many checks a boot of PHASE reports
phase_checks() {
	echo $(($(phase_steps "$1" | wc -l) + 1))
}

# extract_deb_kernel DIR: the kernel image shipped in the linux-image .deb.
extract_deb_kernel() {
	dpkg-deb -x "$DEB_IMAGE" "$1" || return
	[ -s "$1/boot/vmlinuz-$KBS_REL" ] || {
		echo "${DEB_IMAGE##*/} has no /boot/vmlinuz-$KBS_REL"
		return 1
	}
}

# dump_installed_kernel FILE: the /boot/vmlinuz that apt installed in the guest,
# read from the image with debugfs (no loop mount).
dump_installed_kernel() {
	local status=0
	# Replay the journal should the guest not have unmounted cleanly; 1 = fixed.
	e2fsck -p "$IMAGE" >"$OUTQ/e2fsck.log" 2>&1 || status=$?
	if [ "$status" -gt 1 ]; then
		echo "e2fsck -p on $IMAGE exited $status, see $OUTQ/e2fsck.log"
		return 1
	fi
	rm -f "$1"
	debugfs -R "dump /boot/vmlinuz-$KBS_REL $1" "$IMAGE" 2>"$OUTQ/debugfs.log"
	if ! [ -s "$1" ]; then
		echo "no /boot/vmlinuz-$KBS_REL in the guest image: $(tail -n 1 "$OUTQ/debugfs.log")"
		return 1
	fi
}

# kernel_for KIND: KERNEL, the kernel of a boot: the one of the .deb
# ("deb") or the one apt installed ("installed", with its two host checks);
# empty when there is none
kernel_for() {
	local installed=$OUTQ/vmlinuz-installed start
	KERNEL=$WORK/deb/boot/vmlinuz-$KBS_REL
	[ "$1" = installed ] || return 0
	start=$(now)
	ktap_check "installed /boot/vmlinuz-$KBS_REL read back from the guest disk" \
		dump_installed_kernel "$installed"
	record_time "kernel dump" "$start"
	ktap_check "installed /boot/vmlinuz-$KBS_REL is the one in ${DEB_IMAGE##*/}" \
		cmp "$KERNEL" "$installed"
	KERNEL=$installed
}
