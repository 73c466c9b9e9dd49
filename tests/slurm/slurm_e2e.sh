#!/usr/bin/env bash
# Sharded verification on a real single-node Slurm (slurmctld + slurmd from Debian, munge for auth),
# started and stopped here with a generated slurm.conf (no cgroups, no accounting, state in a temp
# folder): the demo corpus is verified by the script that `sieve-cli slurm-script --cpu` writes, the
# shards are merged (twice: the second adds nothing), and the verdicts must equal a direct
# `sieve-cli verify --cpu` of the same corpus.
# Usage: slurm_e2e.sh SIEVE_CLI DEMO_DIR      Exit 77 (ctest: skipped) when Slurm is missing or will not start.
set -euo pipefail
cli=$(readlink -f "$1")
demo=$(readlink -f "$2")
shards=${SIEVE_SLURM_SHARDS:-2}

skip() { echo "SKIP: $*"; exit 77; }
for b in slurmctld slurmd sbatch squeue scontrol sinfo munged sqlite3; do
  command -v "$b" >/dev/null 2>&1 || skip "$b is not installed (apt-get install slurmctld slurmd slurm-client munge sqlite3)"
done
[ "$(id -u)" -eq 0 ] || skip "needs root (SlurmUser=root and a private munge daemon)"

work=$(mktemp -d /tmp/sieve-slurm-XXXXXX)
chmod 755 "$work"
export SLURM_CONF=$work/slurm.conf
node=$(hostname -s)
stop_all() {
  for pidfile in "$work/slurmd.pid" "$work/slurmctld.pid" "$work/munge/munged.pid"; do
    if [ -s "$pidfile" ]; then
      pid=$(cat "$pidfile")
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
    fi
  done
}
dump_logs() {
  for f in "$work"/slurmctld.log "$work"/slurmd.log "$work"/munge/munged.log "$work"/job/logs/*; do
    [ -f "$f" ] && { echo "----- $f"; tail -n 40 "$f"; }
  done
}
cleanup() { stop_all; [ "${SIEVE_SLURM_KEEP:-0}" = 1 ] && echo "kept $work" || rm -rf "$work"; }
trap cleanup EXIT

# munge: a private key and socket, so the machine's own munge (if any) is left alone.
mkdir -p "$work/munge"
chmod 755 "$work/munge"  # munged wants its socket folder searchable by all
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
munged --force --key-file="$work/munge/munge.key" --socket="$work/munge/munge.sock" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" --seed-file="$work/munge/munged.seed" \
  || { dump_logs; skip "munged did not start"; }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
mkdir -p "$work/state" "$work/spool"
cat > "$SLURM_CONF" <<CONF
ClusterName=sievetest
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
AuthType=auth/munge
AuthInfo=socket=$work/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
MinJobAge=3600
NodeName=$node CPUs=$(nproc) State=UNKNOWN
PartitionName=sieve Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF

slurmctld -i || { dump_logs; skip "slurmctld did not start"; }
slurmd || { dump_logs; skip "slurmd did not start"; }
up=0
for _ in $(seq 60); do
  state=$(sinfo -h -n "$node" -o %T 2>/dev/null | head -1 || true)
  case "$state" in idle*|mixed*|allocated*) up=1; break;; esac
  sleep 1
done
[ "$up" = 1 ] || { sinfo 2>&1 || true; dump_logs; skip "the node did not come up (state '${state:-none}')"; }
echo "slurm is up: $(sinfo -h -o '%P %D %T %C')"

# The corpus, and a copy of it verified directly as the reference.
db=$work/demo.sieve
"$cli" init "$db" >/dev/null
"$cli" import "$db" --format sieve "$demo/tasks.jsonl" "$demo/samples.jsonl" >/dev/null
cp "$db" "$work/direct.sieve"
"$cli" slurm-script "$db" --shards "$shards" --out "$work/job" --cpu --cpus-per-task 1 --time 00:30:00

t0=$(date +%s)
job=$(sbatch --parsable "$work/job/sieve-verify.sbatch")
echo "submitted array job $job"
# The direct run goes meanwhile; the shards and it share the CPUs.
"$cli" verify "$work/direct.sieve" --cpu --quiet > "$work/direct.out" 2>&1 &
direct_pid=$!
deadline=$((t0 + ${SIEVE_SLURM_TIMEOUT:-1500}))
while [ -n "$(squeue -h -j "$job" 2>/dev/null)" ]; do
  if [ "$(date +%s)" -gt "$deadline" ]; then
    echo "FAIL: array job $job still running after ${SIEVE_SLURM_TIMEOUT:-1500} s"; squeue; dump_logs; exit 1
  fi
  sleep 3
done
echo "array job finished in $(( $(date +%s) - t0 )) s"
wait "$direct_pid" || { cat "$work/direct.out"; echo "FAIL: direct verify failed"; exit 1; }
states=$(scontrol -o show job "$job" | grep -o 'JobState=[A-Z_]*' | sort | uniq -c)
echo "array task states: $states"
if echo "$states" | grep -qv 'JobState=COMPLETED'; then dump_logs; echo "FAIL: not every array task completed"; exit 1; fi

"$cli" merge "$db" "$work/job" || { dump_logs; echo "FAIL: merge"; exit 1; }
before=$(sqlite3 "$db" 'SELECT count(*) FROM verdicts')
"$cli" merge "$db" "$work/job" | tail -1
after=$(sqlite3 "$db" 'SELECT count(*) FROM verdicts')
[ "$before" = "$after" ] || { echo "FAIL: the second merge added $((after - before)) verdicts"; exit 1; }

# FAIL_MISMATCH's reasons name the kind of the first failing check, and the checks run in a secret order each run
# (rmsnorm-layernorm: MISMATCH in one run, MISMATCH,NONFINITE_MISMATCH in the next): its status is compared, as
# tests/campaigns/campaign.py differences() does
q="SELECT s.name, s.status, CASE WHEN s.status = 'FAIL_MISMATCH' THEN '' ELSE coalesce(v.reasons,'') END
   FROM samples s JOIN verdicts v ON v.sample_id = s.id ORDER BY s.name"
sqlite3 "$db" "$q" > "$work/merged.txt"
sqlite3 "$work/direct.sieve" "$q" > "$work/direct.txt"
n=$(wc -l < "$work/direct.txt")
if ! diff -u "$work/direct.txt" "$work/merged.txt"; then
  # what each side said about the samples that differ (a flaky harness shows here, not only its code)
  m="SELECT s.name, v.status, v.message FROM samples s JOIN verdicts v ON v.sample_id = s.id WHERE s.name IN (%s)"
  names=$(diff "$work/direct.txt" "$work/merged.txt" | sed -n 's/^[<>] \([^|]*\)|.*/\1/p' | sort -u | sed "s/.*/'&'/" | paste -sd,)
  echo "--- direct:"; sqlite3 "$work/direct.sieve" "$(printf "$m" "$names")"
  echo "--- merged:"; sqlite3 "$db" "$(printf "$m" "$names")"
  echo "FAIL: merged verdicts differ from the direct run"; exit 1
fi
[ "$n" -gt 0 ] || { echo "FAIL: no verdicts"; exit 1; }
runs=$(sqlite3 "$db" "SELECT count(*) FROM verify_runs WHERE json_extract(env_json,'$.slurm.SLURM_ARRAY_JOB_ID')='$job'")
[ "$runs" = "$shards" ] || { echo "FAIL: $runs runs name array job $job, expected $shards"; exit 1; }
echo "ok: $n verdicts from $shards Slurm shards equal the direct run's"
