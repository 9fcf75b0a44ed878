# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# tests/farm/lib.sh: a compile farm on this one machine, for tests/farm.sh.
# Nodes are data, tests/farm/nodes: "icecc NAME ADDRESS" and "distcc ADDRESS".
#
# distcc: one distccd per node on its own loopback address (127.0.0.x:3632,
# --allow 127.0.0.0/8), in this namespace.  icecream: everything in network
# namespaces made here, since the scheduler and iceccd broadcast on every
# interface and the icecc client connects to the nodes itself: kbs-farm-hub
# holds a bridge (NET.1) and the scheduler, kbs-farm-client (NET.10) the
# build machine's iceccd, which takes no other machine's job (--no-remote;
# its -m 2 slots are for the jobs icecc runs here: preprocessing alone, as
# genksyms asks, assembler, a node's failed job; with -m 0 they wait
# forever), where the builds run, kbs-farm-<name> each node.  This
# namespace gets an "unreachable" route for NET.0/24, so nothing of it
# ever leaves by the default route.  No other address is contacted.

FARM_NET=10.201.0
FARM_DIR=
ICE_NETNAME=kbs-farm

farm_nodes() {
	data_lines "$TOP/tests/farm/nodes" | awk -v k="$1" '$1 == k { $1 = ""; sub(/^ /, ""); print }'
}

# owned FILE USER: an empty FILE that USER (a daemon dropping root) can write
owned() {
	: > "$1"
	chown "$2:" "$1"
}

# start_bg PIDFILE CMD...: CMD in the background, its pid (exec'd through
# ip netns exec) recorded
start_bg() {
	_pf=$1
	shift
	"$@" > "$_pf.out" 2>&1 &
	echo $! > "$_pf"
}

# wait_log FILE PATTERN SECONDS: PATTERN appears in FILE in time
wait_log() {
	_i=0
	while [ "$_i" -lt "$3" ]; do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 1
		_i=$((_i + 1))
	done
	return 1
}

no_daemon_here() {
	for _d in iceccd icecc-scheduler distccd; do
		! pgrep -x -r R,S,D "$_d" > /dev/null || # a zombie serves nothing
			die "a $_d runs already on this machine: stop it (service $_d stop) before the farm test"
	done
}

distcc_up() {
	for _a in $(farm_nodes distcc); do
		owned "$FARM_DIR/distccd-$_a.log" nobody
		start_bg "$FARM_DIR/distccd-$_a.pid" distccd --daemon --no-detach --user nobody --listen "$_a" \
			--allow 127.0.0.0/8 --jobs 2 --log-file "$FARM_DIR/distccd-$_a.log" --log-level info
		wait_log "$FARM_DIR/distccd-$_a.log" 'preforking daemon started' 20 ||
			die "distccd on $_a did not start; see $FARM_DIR/distccd-$_a.log"
	done
}

# distcc_hosts: DISTCC_HOSTS of the farm, without localhost, so that jobs
# that ran prove they left this machine
distcc_hosts() {
	for _a in $(farm_nodes distcc); do
		printf '%s/2 ' "$_a"
	done
}

# add_ns NS ADDRESS: a namespace on the hub's bridge
add_ns() {
	ip netns add "$1"
	ip -n "$1" link set lo up
	ip -n kbs-farm-hub link add "v${2##*.}" type veth peer name eth0 netns "$1"
	ip -n kbs-farm-hub link set "v${2##*.}" master br0 up
	ip -n "$1" addr add "$2/24" brd + dev eth0
	ip -n "$1" link set eth0 up
}

# start_iceccd NS NAME [ARGS]: a daemon; the build machine's keeps icecc's
# own socket, which the icecc client finds, the nodes one each.  A node
# reads a frozen /proc/stat (bound over it in the mount namespace ip netns
# exec gives it), so it reports itself idle, as a machine of its own would:
# iceccd computes its load from this machine's idle time, which the other
# suites (the guests) use up, and the scheduler gives no job to a node at
# load 1000.  The build machine's daemon sees the real one.
start_iceccd() {
	_d=$FARM_DIR/icecc-$2
	mkdir -p "$_d"
	chown icecc: "$_d"
	owned "$_d/iceccd.log" icecc
	_ns=$1
	_name=$2
	shift 2
	_sock=ICECC_TEST_SOCKET=$_d/iceccd.socket
	_stat=$FARM_DIR/proc-stat
	if [ "$_name" = client ]; then
		install -d -o icecc -g icecc /var/run/icecc
		_sock=
		_stat=/proc/stat
	fi
	# shellcheck disable=SC2016 # expanded by that sh
	start_bg "$_d/iceccd.pid" ip netns exec "$_ns" sh -c 'mount --bind "$0" /proc/stat && exec "$@"' \
		"$_stat" env ${_sock:+"$_sock"} iceccd -n "$ICE_NETNAME" \
		-s "$FARM_NET.1:8765" -N "$_name" -b "$_d/envs" -l "$_d/iceccd.log" -vvv "$@"
}

icecc_up() {
	ip netns add kbs-farm-hub
	ip -n kbs-farm-hub link set lo up
	ip -n kbs-farm-hub link add br0 type bridge
	ip -n kbs-farm-hub addr add "$FARM_NET.1/24" brd + dev br0
	ip -n kbs-farm-hub link set br0 up
	ip route replace unreachable "$FARM_NET.0/24"
	owned "$FARM_DIR/scheduler.log" icecc
	start_bg "$FARM_DIR/scheduler.pid" ip netns exec kbs-farm-hub icecc-scheduler -n "$ICE_NETNAME" \
		-p 8765 -l "$FARM_DIR/scheduler.log" -vvv
	add_ns kbs-farm-client "$FARM_NET.10"
	# what the nodes read for /proc/stat (start_iceccd)
	head -n 1 /proc/stat > "$FARM_DIR/proc-stat"
	start_iceccd kbs-farm-client client -m 2 --no-remote
	farm_nodes icecc > "$FARM_DIR/icecc-nodes"
	while read -r _name _a; do
		add_ns "kbs-farm-$_name" "$_a"
		start_iceccd "kbs-farm-$_name" "$_name" -m 2
	done < "$FARM_DIR/icecc-nodes"
	for _name in client $(awk '{ print $1 }' "$FARM_DIR/icecc-nodes"); do
		wait_log "$FARM_DIR/icecc-$_name/iceccd.log" 'Connected to scheduler' 60 ||
			die "iceccd $_name did not reach the scheduler; see $FARM_DIR/icecc-$_name/iceccd.log"
	done
}

# farm_up DIR: both farms, their logs and pids in DIR
farm_up() {
	FARM_DIR=$1
	no_daemon_here
	need_cmd distccd distcc
	need_cmd iceccd icecc
	need_cmd ip iproute2
	mkdir -p "$FARM_DIR"
	distcc_up
	icecc_up
}

# kill_ns NS: every process of a namespace, at once (a crash)
kill_ns() {
	# shellcheck disable=SC2046 # pids
	kill -9 $(ip netns pids "$1") 2> /dev/null || true # none left is fine
}

farm_down() {
	[ -n "$FARM_DIR" ] || return 0
	for _pf in "$FARM_DIR"/*.pid "$FARM_DIR"/*/*.pid; do
		[ -f "$_pf" ] || continue
		# distccd's preforked children first: they outlive their parent
		pkill -P "$(cat "$_pf")" 2> /dev/null || true # none
		kill "$(cat "$_pf")" 2> /dev/null || true # ended already
	done
	for _ns in $(ip netns list 2>/dev/null | awk '/^kbs-farm-/ { print $1 }'); do
		kill_ns "$_ns"
		ip netns delete "$_ns"
	done
	ip route del unreachable "$FARM_NET.0/24" 2> /dev/null || true # not made when it failed early
	rm -rf /var/run/icecc
	FARM_DIR=
}

# jobs_on NODE: icecc jobs the scheduler saw end on NODE
icecc_jobs_on() {
	grep -cE "END [0-9]+ status=0 .* server=$1\$" "$FARM_DIR/scheduler.log" || true # 0 is a count
}

distcc_jobs_on() {
	grep -c 'dcc_job_summary.*COMPILE_OK' "$FARM_DIR/distccd-$1.log" || true # 0 is a count
}
