#!/usr/bin/env bash
# One wuzi-tournament split over a Slurm job array, then merged.
#
#   tournaments/cluster/slurm.sh submit CONFIG.toml RESULTS_DIR SHARDS
#
# submits SHARDS array tasks (indices 0..SHARDS-1), each playing its slice of the schedule
# into RESULTS_DIR/shard-K, and a merge job that runs once every task has succeeded and
# writes RESULTS_DIR/merged (results.jsonl, summary.md, games/). The same script is the body
# of both jobs ("shard" and "merge" modes below); the shard index comes from Slurm's
# SLURM_ARRAY_TASK_ID. Tasks run with --resume, so a requeued or resubmitted task continues
# its own journal instead of replaying it.
#
# Env: WUZI_TOURNAMENT  the runner binary (default: wuzi-tournament on PATH, else
#                       target/release/wuzi-tournament of this checkout)
#      SBATCH_EXTRA     extra sbatch options for both jobs (partition, account, time, ...)
# Give each task as many CPUs as the config's `concurrency` (one engine thinks at a time
# per game): --cpus-per-task below, or SBATCH_EXTRA.
#SBATCH --job-name=wuzi-shard
#SBATCH --cpus-per-task=2
#SBATCH --output=wuzi-%x-%A_%a.out
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
runner=${WUZI_TOURNAMENT:-}
if [[ -z $runner ]]; then
    runner=$(command -v wuzi-tournament || echo "$here/../../target/release/wuzi-tournament")
fi

usage() {
    echo "usage: $0 submit CONFIG.toml RESULTS_DIR SHARDS" >&2
    exit 2
}

mode=${1:-}
case $mode in
submit)
    [[ $# -eq 4 ]] || usage
    config=$(realpath "$2")
    out=$(realpath -m "$3")
    shards=$4
    [[ $shards =~ ^[1-9][0-9]*$ ]] || usage
    mkdir -p "$out"
    # sbatch copies the script, so the jobs get this script's path and the runner's as
    # arguments and environment rather than relying on their own location.
    export WUZI_TOURNAMENT=$(realpath "$runner")
    # shellcheck disable=SC2086
    array=$(sbatch --parsable ${SBATCH_EXTRA:-} --array="0-$((shards - 1))" \
        --export=ALL "$here/slurm.sh" shard "$config" "$out" "$shards")
    array=${array%%;*}
    # shellcheck disable=SC2086
    merge=$(sbatch --parsable ${SBATCH_EXTRA:-} --job-name=wuzi-merge --cpus-per-task=1 \
        --dependency="afterok:$array" --export=ALL "$here/slurm.sh" merge "$out" "$shards")
    echo "shards: job $array (array 0-$((shards - 1))), merge: job ${merge%%;*}, results in $out/merged"
    ;;
shard)
    [[ $# -eq 4 ]] || usage
    config=$2 out=$3 shards=$4
    # Indices relative to the array's first one, so --array=1-4 works as well as 0-3.
    k=$((${SLURM_ARRAY_TASK_ID:?not a Slurm array task} - ${SLURM_ARRAY_TASK_MIN:-0}))
    exec "$runner" run "$config" --out "$out/shard-$k" --shard "$k/$shards" --resume
    ;;
merge)
    [[ $# -eq 3 ]] || usage
    out=$2 shards=$3
    dirs=()
    for ((k = 0; k < shards; k++)); do dirs+=("$out/shard-$k"); done
    exec "$runner" merge "${dirs[@]}" --out "$out/merged"
    ;;
*)
    usage
    ;;
esac
