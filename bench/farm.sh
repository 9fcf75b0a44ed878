# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# bench/farm.sh: bench/run's compile-farm rows.  The package build through
# an icecream farm of two nodes made on this machine (tests/farm/lib.sh),
# with a cold ccache in front, beside the local cold-ccache build: the
# overhead of the farm, since the nodes share this machine's cores.  And a
# projection, labelled so, of the wall time with N farm nodes of this
# machine's size:  T(N) = S + o * P / N, where S is the serial part no
# farm removes (the warm-ccache full rebuild: unpack, configure, the kbuild
# walk, links, kallsyms, modpost, packaging and xz, with every compile a
# cache hit), P = T(local, cold ccache) - S the compile time, and o the
# farm's overhead on it, (T(farm) - S) / P.
# Sourced by bench/run after tests/farm/lib.sh.

measure_farm() {
	farm_up "$W/farm"
	timed "$B_FARM" \
		ip netns exec kbs-farm-client env KBS_OUT="$W/farm-pkg" KBS_CCACHE_DIR="$W/farm-ccache" \
		ICECC_SCHEDULER="$FARM_NET.1:8765" "$TOP/build-kernel.sh" --series "$SERIES" --flavours qemu --icecc
	for _n in $(farm_nodes icecc | awk '{ print $1 }'); do
		printf '%s\t%s\n' "$_n" "$(icecc_jobs_on "$_n")" >> "$W/farm-jobs"
	done
	farm_down
}

# write_farm_table: the overhead, the serial fraction, the projection
write_farm_table() {
	_local=$(wall "$B_COLD")
	_farm=$(wall "$B_FARM")
	_serial=$(wall "$B_WARM")
	_p=$(echo "$_local - $_serial" | bc)
	_o=$(echo "scale=3; ($_farm - $_serial) / $_p" | bc)
	echo
	echo "Compile farm (icecream, 2 nodes in network namespaces on this machine, ccache in front):"
	echo "jobs per node: $(awk '{ printf "%s %s, ", $1, $2 }' "$W/farm-jobs")farm build $_farm s against"
	echo "$_local s local: overhead ratio $(ratio "$_farm" "$_local") (the nodes share these $(nproc) cores)."
	echo "Serial part no farm removes (the warm-ccache full rebuild): $_serial s, fraction"
	echo "$(ratio "$_serial" "$_local") of the local cold build; compile part P = $_p s; farm overhead on it o = $_o."
	echo
	echo "| nodes of this machine's size (PROJECTION, not measured) | expected wall s |"
	echo "|---:|---:|"
	for _n in 1 2 4 8 16; do
		echo "| $_n | $(echo "scale=0; ($_serial + $_o * $_p / $_n) / 1" | bc) |"
	done
}
