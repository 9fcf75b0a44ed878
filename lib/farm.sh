# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# build-kernel.sh's compile farm: icecream or distcc behind ccache, the way
# Debian's kernel build takes one (CCACHE_PREFIX).  Sourced by
# build-kernel.sh after lib/kbuild-split.sh.
#
#   icecc   CCACHE_PREFIX=icecc.  The scheduler is ICECC_SCHEDULER
#           (host[:port], default: ICECC_SCHEDULER_HOST of
#           /etc/icecc/icecc.conf); its text port (its port + 1, 8766)
#           tells whether it is there and the farm's job slots.  The
#           compiler environment is ICECC_VERSION, or one icecc-create-env
#           makes once into out/farm/.
#   distcc  CCACHE_PREFIX=distcc, DISTCC_HOSTS; distcc -j tells the slots.
#
# make's jobs become the farm's slots plus this machine's.  A node or a
# scheduler that cannot be reached before the build is named in a warning
# (the compiles then run here), and so is, after the build, every node
# whose jobs failed and were compiled here instead, and every icecream
# node the scheduler listed before the build and no more after it.

FARM=
# icecream: the scheduler, and its nodes at the start ("ADDRESS NAME")
ICECC_SCHED=
ICECC_NODES=

# tcp_open HOST PORT: something listens there (2 s at most)
tcp_open() {
	timeout 2 bash -c 'exec 3<>"/dev/tcp/$1/$2"' sh "$1" "$2" 2>/dev/null
}

# icecc_scheduler: host:port of the scheduler
icecc_scheduler() {
	_is=${ICECC_SCHEDULER:-$(sed -n 's/^ICECC_SCHEDULER_HOST="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' \
		/etc/icecc/icecc.conf 2>/dev/null)}
	[ -n "$_is" ] || die "--icecc: say where the scheduler is: ICECC_SCHEDULER=host[:port], or ICECC_SCHEDULER_HOST in /etc/icecc/icecc.conf"
	case $_is in
	*:*) printf '%s\n' "$_is" ;;
	*) printf '%s:8765\n' "$_is" ;;
	esac
}

# icecc_listcs HOST:PORT: the scheduler's list of daemons, from its text
# port, one a line after its greeting ("200-ICECC ..."):
# "node1 (10.201.0.11:10245) [x86_64] speed=47.57 jobs=0/2 load=522".
# Nothing when no scheduler answers.  (Not its daemon port: a connection
# that says nothing there stalls icecc-scheduler 1.4 for seconds.)
icecc_listcs() {
	timeout 10 bash -c 'exec 3<>"/dev/tcp/$1/$2" && printf "listcs\nquit\n" >&3 && cat <&3' \
		sh "${1%:*}" "$((${1#*:} + 1))" 2>/dev/null || true # none: no scheduler there
}

# icecc_slots LISTCS: the job slots of the farm's daemons
icecc_slots() {
	printf '%s\n' "$1" | sed -n 's/.* jobs=[0-9]*\/\([0-9]*\) .*/\1/p' | awk '{ n += $1 } END { print n + 0 }'
}

# icecc_nodes LISTCS: "ADDRESS NAME" of each daemon that takes jobs of
# other machines (a port other than 0)
icecc_nodes() {
	printf '%s\n' "$1" | sed -n 's/^ *\([^ ]*\) (\([0-9.]*\):\([0-9]*\)) .*/\2 \1 \3/p' | awk '$3 != 0 { print $1, $2 }' | sort
}

# icecc_env: the compiler environment the nodes get (ICECC_VERSION)
icecc_env() {
	if [ -n "${ICECC_VERSION:-}" ]; then
		printf '%s\n' "$ICECC_VERSION"
		return
	fi
	mkdir -p "$OUT/farm/icecc-env"
	_gcc=$(readlink -f "$(command -v gcc)")
	_stamp=$OUT/farm/icecc-env/$(sha256sum "$_gcc" | cut -c 1-16)
	if ! [ -s "$_stamp" ]; then
		(cd "$OUT/farm/icecc-env" && icecc-create-env "$_gcc") > "$OUT/farm/icecc-env/create.log" 2>&1 ||
			die "icecc-create-env $_gcc failed; see $OUT/farm/icecc-env/create.log"
		sed -n 's/^creating \(.*\)$/\1/p' "$OUT/farm/icecc-env/create.log" | tail -n 1 > "$_stamp"
	fi
	printf '%s/%s\n' "$OUT/farm/icecc-env" "$(cat "$_stamp")"
}

# setup_farm ENGINE [HOSTS]: the farm behind ccache, and JOBS for it
setup_farm() {
	FARM=$1
	[ -n "$KBS_CC_LAUNCHER" ] || die "--$FARM needs ccache in front of it: drop --no-ccache"
	_local=$(($(nproc) + 1))
	case $FARM in
	icecc)
		need_packages icecc
		_sched=$(icecc_scheduler)
		ICECC_VERSION=$(icecc_env)
		export ICECC_VERSION
		_listcs=$(icecc_listcs "$_sched")
		if [ -n "$_listcs" ]; then
			_slots=$(icecc_slots "$_listcs")
			ICECC_NODES=$(icecc_nodes "$_listcs")
			ICECC_SCHED=$_sched
		else
			warn "icecc scheduler $_sched cannot be reached: the compiles run on this machine"
			_slots=0
		fi
		;;
	distcc)
		need_packages distcc
		DISTCC_HOSTS=${2:-${DISTCC_HOSTS:-}}
		[ -n "$DISTCC_HOSTS" ] || die "--distcc needs its hosts: --distcc \"host/N host/N\" or DISTCC_HOSTS"
		DISTCC_DIR=${DISTCC_DIR:-$OUT/farm/distcc}
		mkdir -p "$DISTCC_DIR"
		export DISTCC_HOSTS DISTCC_DIR
		for _h in $DISTCC_HOSTS; do
			_host=${_h%%/*}
			_port=${_host#*:}
			[ "$_port" != "$_host" ] || _port=3632
			_host=${_host%%:*}
			[ "$_host" = localhost ] && continue
			tcp_open "$_host" "$_port" ||
				warn "distcc node $_host:$_port cannot be reached: its jobs run on this machine"
		done
		_slots=$(distcc -j)
		;;
	esac
	CCACHE_PREFIX=$FARM
	export CCACHE_PREFIX
	[ -n "$JOBS_SET" ] || JOBS=$((_slots + _local))
	log "$FARM farm behind ccache: $_slots job slots there, $_local here; make -j$JOBS"
}

# farm_report LOG: each node whose jobs failed and were compiled here
farm_report() {
	[ -n "$FARM" ] || return 0
	case $FARM in
	icecc)
		# a node the scheduler had at the start and has no more left
		# the farm during the build, whether a job of it failed or not
		if [ -n "$ICECC_NODES" ]; then
			printf '%s\n' "$ICECC_NODES" > "$W/farm-nodes.start"
			icecc_nodes "$(icecc_listcs "$ICECC_SCHED")" > "$W/farm-nodes.end"
			comm -23 "$W/farm-nodes.start" "$W/farm-nodes.end" | while read -r _addr _name; do
				warn "farm node $_addr ($_name) left the farm during the build; its jobs went to the other nodes or ran here"
			done
		fi
		sed -n 's/.*got exception Error [0-9]* - .* (\([0-9.]*\))$/\1/p' "$1"
		;;
	distcc)
		sed -n 's/.*ERROR: nonblocking connect to \([^ ]*\) failed.*/\1/p
			s/.*Warning: failed to distribute .* to \([^ ]*\), running locally instead/\1/p' "$1"
		;;
	esac | sort | uniq -c | while read -r _n _node; do
		warn "farm node $_node failed $_n compile(s), which ran on this machine instead"
	done
}
