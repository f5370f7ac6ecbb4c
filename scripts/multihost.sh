#!/usr/bin/env bash
# Several MPI "hosts" on one Linux machine: network namespaces joined by veth pairs and a
# bridge, and an rsh agent through which Open MPI's launcher starts each rank inside its
# namespace (recipe: ../shared/toolchain-notes.md). Needs root, iproute2 and Open MPI.
#
#   scripts/multihost.sh setup N            make hosts 1..N (N ≤ 8)
#   scripts/multihost.sh mpirun N ARGS…     mpirun -n N over hosts 1..N (after setup)
#   scripts/multihost.sh run N ARGS…        setup, mpirun, teardown (also on failure or ^C)
#   scripts/multihost.sh teardown           remove exactly what setup made
#   scripts/multihost.sh check              exit 0 if namespaces can be made here, else say why
#
# ARGS are mpirun's program and its arguments, e.g.
#   scripts/multihost.sh run 3 target/release/treesplit run nqueens 12 --machine mpi
# Names: bridge ${PREFIX}br, namespaces ${PREFIX}1.., host-side veths ${PREFIX}v1..;
# addresses 10.77.0.i/24, the bridge 10.77.0.254 (PREFIX defaults to tsmh; override with
# TS_MULTIHOST_PREFIX, the subnet's third byte with TS_MULTIHOST_NET). Setup refuses to
# start when any of its names exists, and teardown removes only names listed in its state
# folder, so it never touches links or namespaces it did not create.
set -euo pipefail

PREFIX=${TS_MULTIHOST_PREFIX:-tsmh}
NET=10.77.${TS_MULTIHOST_NET:-0}
STATE=${TS_MULTIHOST_STATE:-${TMPDIR:-/tmp}/treesplit-multihost-$PREFIX}
BRIDGE=${PREFIX}br

die() { echo "multihost: $*" >&2; exit 1; }

check() {
    [ "$(id -u)" = 0 ] || { echo "multihost: needs root (network namespaces)"; return 1; }
    command -v ip >/dev/null || { echo "multihost: no 'ip' (install iproute2)"; return 1; }
    command -v mpirun >/dev/null || { echo "multihost: no mpirun (install openmpi-bin)"; return 1; }
    command -v unshare >/dev/null || { echo "multihost: no unshare (util-linux)"; return 1; }
    unshare --net --uts true 2>/dev/null || { echo "multihost: unshare --net fails here (namespaces not permitted)"; return 1; }
    local probe=${PREFIX}probe
    if ! ip link add "$probe" type bridge 2>/dev/null; then
        echo "multihost: cannot create a bridge (no CAP_NET_ADMIN or no bridge support)"
        return 1
    fi
    ip link del "$probe"
}

setup() {
    local n=$1
    [[ "$n" =~ ^[1-8]$ ]] || die "the number of hosts must be 1..8, got '$n'"
    check >&2 || exit 1
    [ ! -e "$STATE" ] || die "$STATE exists: a setup is in place (run teardown first)"
    ip link show "$BRIDGE" >/dev/null 2>&1 && die "a link $BRIDGE exists already; not mine, leaving it"
    for i in $(seq 1 "$n"); do
        ip netns list | grep -qw "^$PREFIX$i" && die "a namespace $PREFIX$i exists already; not mine"
        ip link show "${PREFIX}v$i" >/dev/null 2>&1 && die "a link ${PREFIX}v$i exists already; not mine"
    done
    mkdir -p "$STATE"
    : >"$STATE/made"
    ip link add "$BRIDGE" type bridge && echo "link $BRIDGE" >>"$STATE/made"
    ip addr add "$NET.254/24" dev "$BRIDGE"
    ip link set "$BRIDGE" up
    : >"$STATE/hostfile"
    for i in $(seq 1 "$n"); do
        ip netns add "$PREFIX$i" && echo "netns $PREFIX$i" >>"$STATE/made"
        ip link add "${PREFIX}v$i" type veth peer name eth0 netns "$PREFIX$i"
        echo "link ${PREFIX}v$i" >>"$STATE/made"
        ip link set "${PREFIX}v$i" master "$BRIDGE"
        ip link set "${PREFIX}v$i" up
        ip netns exec "$PREFIX$i" ip addr add "$NET.$i/24" dev eth0
        ip netns exec "$PREFIX$i" ip link set eth0 up
        ip netns exec "$PREFIX$i" ip link set lo up
        echo "$PREFIX$i slots=1" >>"$STATE/hostfile"
    done
    # The rsh agent: Open MPI calls it as `agent HOST COMMAND…`; it starts the command in the
    # host's network namespace with that hostname (its own UTS namespace).
    cat >"$STATE/agent" <<'AGENT'
#!/bin/sh
host=$1
shift
exec ip netns exec "$host" unshare --uts sh -c "hostname $host; $*"
AGENT
    chmod +x "$STATE/agent"
    echo "$n" >"$STATE/hosts"
}

teardown() {
    [ -f "$STATE/made" ] || return 0
    # Reverse order: veths and namespaces before the bridge.
    tac "$STATE/made" | while read -r kind name; do
        case $kind in
            netns) ip netns del "$name" 2>/dev/null || true ;;
            link) ip link del "$name" 2>/dev/null || true ;;
        esac
    done
    rm -rf "$STATE"
}

run_mpi() {
    local n=$1
    shift
    [ -f "$STATE/hostfile" ] || die "no hosts set up (run setup first)"
    [ "$n" -le "$(cat "$STATE/hosts")" ] || die "only $(cat "$STATE/hosts") hosts set up"
    # --bind-to none: each "host" believes it owns core 0, and by default every rank is bound
    # to core 0, where a spinning rank starves the others. The TCP transport and Open MPI's
    # own out-of-band channel go over the namespaces' subnet only.
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        mpirun --hostfile "$STATE/hostfile" -n "$n" --bind-to none \
        --mca plm_rsh_agent "$STATE/agent" --mca btl tcp,self \
        --mca btl_tcp_if_include "$NET.0/24" --mca oob_tcp_if_include "$NET.0/24" "$@"
}

cmd=${1:-}
shift || true
case $cmd in
    check) check ;;
    setup) setup "${1:?setup N}" ;;
    teardown) teardown ;;
    mpirun) run_mpi "${1:?mpirun N ARGS…}" "${@:2}" ;;
    run)
        n=${1:?run N ARGS…}
        shift
        trap teardown EXIT
        trap 'exit 130' INT TERM
        setup "$n"
        run_mpi "$n" "$@"
        ;;
    *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
esac
