#!/usr/bin/env bash
# ropelab's rigid bodies beside the peers on their own ground, in one run: W6 pyramid20,
# W7 large_pyramid (Box2D v3's benchmark scene) and W4 (a chain of 100 bodies), each engine in
# a fresh process, rounds interleaved (the workloads' order turning each round), the 1-minute
# load average after every line, then the median line of each (engine, workload) (median
# us_per_step; the quality figures are deterministic) and ropelab's time over each peer's on
# the same workload, per round: median (min..max).
#   PEERS_DIR=/path/to/peers tools/race.sh                # 3 rounds of W6 W7 W4
#   REPEATS=5 WORKLOADS="W6 W7" PEERS_DIR=... tools/race.sh
# ropelab runs in two builds where the host has AVX2: the default (x86-64's SSE2 baseline) and
# one with -C target-feature=+avx2 (target/avx2), as Box2D runs SSE2 and AVX2 builds.
# PEERS_DIR holds the peer engines: box2d/build/{sse2,avx2}/box2d-peer (Box2D v3, its Release
# flags) and rust/target/release/rope-peers (Rapier); the ones not built are left out, with a
# note. ropelab runs as `ropelab bench` (release build).
set -euo pipefail
cd "$(dirname "$0")/.."
REPEATS="${REPEATS:-3}"
WORKLOADS="${WORKLOADS:-W6 W7 W4}"
: "${PEERS_DIR:?set PEERS_DIR to the peers directory (box2d/build/sse2/box2d-peer, rust/target/release/rope-peers)}"
cargo build --release --bin ropelab >&2
RL=target/release/ropelab
# ropelab built for AVX2 too where the host has it (the way Box2D's AVX2 build is made: the
# target flag, no FMA contraction, so the same bits), in its own target directory; it names
# itself ropelab-avx2 in its lines.
RL_AVX2=target/avx2/release/ropelab
if grep -qsw avx2 /proc/cpuinfo; then
  CARGO_TARGET_DIR=target/avx2 RUSTFLAGS="-C target-feature=+avx2" cargo build --release --bin ropelab >&2
else
  echo "# left out: ropelab's AVX2 build (the host has no AVX2)" >&2
  RL_AVX2=
fi
B2="$PEERS_DIR/box2d/build"
RS="$PEERS_DIR/rust/target/release/rope-peers"
for bin in "$B2/sse2/box2d-peer" "$B2/avx2/box2d-peer" "$RS"; do
  [[ -x $bin ]] || echo "# left out (not built): $bin" >&2
done

# One command per line for workload $1: ropelab's, then the peers' that are built.
commands() {
  local b2=() v
  for v in sse2 avx2; do [[ -x $B2/$v/box2d-peer ]] && b2+=("$B2/$v/box2d-peer"); done
  case $1 in
    W6)
      echo "$RL bench W6 --runs 1"
      [[ -n $RL_AVX2 ]] && echo "$RL_AVX2 bench W6 --runs 1"
      for v in "${b2[@]}"; do echo "$v pyramid20"; done
      [[ -x $RS ]] && echo "$RS rapier-pyramid pyramid20"
      ;;
    W7)
      echo "$RL bench W7 --runs 1"
      [[ -n $RL_AVX2 ]] && echo "$RL_AVX2 bench W7 --runs 1"
      for v in "${b2[@]}"; do echo "$v large_pyramid"; done
      ;;
    W4)
      echo "$RL bench W4 --solver impulse --runs 1"
      echo "$RL bench W4 --solver exact --runs 1"
      [[ ${#b2[@]} -gt 0 ]] && echo "${b2[0]} chain-bodies"
      [[ -x $RS ]] && echo "$RS rapier-revolute rope100"
      ;;
    *) echo "unknown workload $1 (W4, W6, W7)" >&2; return 2 ;;
  esac
  return 0
}

echo "# ropelab race  date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')  commit: $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "# host: $(nproc) cpus, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); loadavg at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $(rustc --version); repeats: $REPEATS (rounds interleaved)"
RAW=$(mktemp)
trap 'rm -f "$RAW"' EXIT
echo "## raw runs"
read -r -a LIST <<< "$WORKLOADS"
for ((rep = 1; rep <= REPEATS; rep++)); do
  # The workloads' order turns by one each round, so no workload always runs right after the
  # same one (W4 right after W7's 5,050 boxes ran slower than on its own).
  k=$(((rep - 1) % ${#LIST[@]}))
  for w in "${LIST[@]:k}" "${LIST[@]:0:k}"; do
    while read -r cmd; do
      if line=$($cmd); then
        echo "$rep $line" >> "$RAW"
        echo "$line  # load=$(cut -d' ' -f1 /proc/loadavg)"
      else
        echo "# FAILED: $cmd"
      fi
    done < <(commands "$w")
  done
done
echo "## medians over $REPEATS runs"
awk '{
  $1 = ""; sub(/^ /, "")
  key = $1 " " $2; split($3, f, "="); us = f[2] + 0
  n[key]++; v[key, n[key]] = us; l[key, n[key]] = $0
  if (!(key in order)) { order[key] = ++k; keys[k] = key }
}
END {
  for (i = 1; i <= k; i++) {
    key = keys[i]; m = n[key]
    for (p = 1; p <= m; p++) idx[p] = p
    for (p = 1; p <= m; p++) for (q = p + 1; q <= m; q++)
      if (v[key, idx[q]] < v[key, idx[p]]) { t = idx[p]; idx[p] = idx[q]; idx[q] = t }
    mid = idx[int((m + 1) / 2)]
    printf "%s runs=%d us_range=%.2f..%.2f\n", l[key, mid], m, v[key, idx[1]], v[key, idx[m]]
  }
}' "$RAW"
# ropelab's time over each peer's in the same round, per round: the machine's speed drifts
# from round to round, so these ratios are the figures to quote.
echo "## ropelab / peer, per round: median (min..max)"
awk '{
  round = $1; key = $2 " " $3; split($4, f, "="); us[round, key] = f[2] + 0
  if (!(key in seen)) { seen[key] = 1; keys[++k] = key; wl[key] = $3 }
  if (round > rounds) rounds = round
}
END {
  for (i = 1; i <= k; i++) {
    a = keys[i]; if (a !~ /^ropelab/) continue
    for (j = 1; j <= k; j++) {
      b = keys[j]; if (b ~ /^ropelab/) continue
      # (Each peer line names the workload in its own words: W4 is chain-bodies or rope100.)
      if (!((wl[a] == wl[b]) || (wl[a] == "W4" && wl[b] ~ /^(chain-bodies|rope100)$/))) continue
      m = 0
      for (r = 1; r <= rounds; r++)
        if ((r, a) in us && (r, b) in us && us[r, b] > 0) q[++m] = us[r, a] / us[r, b]
      if (m == 0) continue
      for (p = 1; p <= m; p++) for (s = p + 1; s <= m; s++) if (q[s] < q[p]) { t = q[p]; q[p] = q[s]; q[s] = t }
      printf "%s / %s: %.2f (%.2f..%.2f) rounds=%d\n", a, b, q[int((m + 1) / 2)], q[1], q[m], m
    }
  }
}' "$RAW"
echo "# loadavg at end: $(cut -d' ' -f1-3 /proc/loadavg)"
