#!/usr/bin/env bash
# Fails when a built-in strategy's measured loops run generic code in the release binary.
# Reads the strategies from BenchKit's table (Sources/BenchKit/Loops/Strategies.swift), resolves
# the type aliases they use, and in the demangled disassembly of .build/release/hitbench:
#   1. finds a specialisation for the strategy of TimedFrames.frames (the run's frame loop) and
#      of ProfiledPhases.run (the profile loop);
#   2. reads every direct call those two bodies make to a query entry point (answer,
#      answerCounting, hitTest): each must reach a specialised or concrete body, never the
#      protocol's generic default or a witness thunk;
#   3. for a non-generic strategy, whose batch loop the frame loop reaches through its
#      conformance (one witness-table call per batch, not per query), reads the conformance's
#      witnesses for answer and answerCounting: they must call, jump to or inline only
#      specialised code.
# A loop left generic makes one dynamic call per query (docs/optimisation-log.md, entry 10).
#   bash scripts/check-specialisation.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/release/hitbench}
[ -x "$binary" ] || { echo "check-specialisation: no binary at $binary (swift build -c release first)" >&2; exit 66; }
listing=$(mktemp)
trap 'rm -f "$listing"' EXIT
objdump -d --no-show-raw-insn "$binary" | swift demangle >"$listing"

types=$(sed -n '/static let builtIn/,/^  \]/p' Sources/BenchKit/Loops/Strategies.swift \
  | grep -oE 'StrategyLoops\((frame|scene)Strategy: [A-Za-z<>]+\.self\)' \
  | sed -E 's/.*Strategy: ([A-Za-z<>]+)\.self\)/\1/')
[ -n "$types" ] || { echo "check-specialisation: no strategies found in Strategies.swift" >&2; exit 1; }

# The spelling the demangler prints: WindowedStrategy<WindowGridIndex> ->
# HitTesting.WindowedStrategy<HitTesting.WindowGridIndex>.
qualify() { sed -E 's/([A-Za-z]+)/HitTesting.\1/g' <<<"$1"; }

failures=0
checked=0
for t in $types; do
  alias=$(grep -rhoE "public typealias $t = [A-Za-z<>]+" Sources/HitTesting | sed -E 's/.* = //' || true)
  concrete=${alias:-$t}
  q=$(qualify "$concrete")
  for loop in 'static BenchKit.TimedFrames.frames' 'static BenchKit.ProfiledPhases.run'; do
    header="generic specialization <$q> of $loop"
    if ! grep -qF "$header" "$listing"; then
      echo "check-specialisation: $t: $loop has no specialisation for $concrete" >&2
      failures=$((failures + 1))
      continue
    fi
    # Calls from the specialised body (and its function-signature variants) to query entry points
    # that are not specialised: the protocol extension's generic default or a witness thunk.
    generic=$(awk -v h="$header" '
      /^[0-9a-f]+ </ && index($0, h) { inside = 1; next }
      /^$/ { inside = 0 }
      inside && /(call|jmp) +[0-9a-f]+ </ && /(answerCounting|answer\(|hitTest)/ {
        sub(/.*(call|jmp) +[0-9a-f]+ </, "")
        if ($0 !~ /^generic specialization/ && ($0 ~ /^\(extension in HitTesting\)/ || $0 ~ /^protocol witness/ || $0 ~ /<A/))
          print
      }' "$listing" | sort -u)
    if [ -n "$generic" ]; then
      echo "check-specialisation: $t: $loop calls generic query code: ${generic:0:160}" >&2
      failures=$((failures + 1))
    fi
  done
  if [[ "$concrete" != *"<"* ]]; then
    for entry in answer answerCounting; do
      header="<protocol witness for HitTesting.HitTestStrategy.$entry(_: Swift.UnsafeBufferPointer<LayerModel.Point>"
      conformance="in conformance $q : HitTesting.HitTestStrategy"
      generic=$(awk -v h="$header" -v c="$conformance" '
        /^[0-9a-f]+ </ { inside = index($0, h) && index($0, c); next }
        /^$/ { inside = 0 }
        inside && /(call|jmp) +[0-9a-f]+ </ {
          sub(/.*(call|jmp) +[0-9a-f]+ </, "")
          if ($0 ~ /^\(extension in HitTesting\)/ || $0 ~ /^protocol witness/) print
        }' "$listing" | sort -u)
      if [ -n "$generic" ]; then
        echo "check-specialisation: $t: the witness for $entry calls generic code: ${generic:0:160}" >&2
        failures=$((failures + 1))
      fi
    done
  fi
  checked=$((checked + 1))
done
# 4. Columns' buffers are generic and sit under every strategy's per-frame work: concrete code
#    must reach only their specialised bodies (inlined). A call into the generic body looks up
#    type metadata each time, a cost that follows the runtime's caches (window-grid's update,
#    1,210 instructions a frame of which 530 were ColumnBuffer.reserve, and 0.6% apart
#    between two counted runs). Only a generic body may call a generic body.
# A generic body is named by a generic type of Sources (its methods) or has A in its signature.
generic_types=$(grep -rhoE '(class|struct|enum) [A-Za-z_]+<' Sources | awk '{ sub(/<$/, "", $2); print $2 }' | sort -u | paste -sd '|')
generic=$(awk -v types="$generic_types" '
  /^[0-9a-f]+ </ { caller = $0; next }
  /(call|jmp) +[0-9a-f]+ <Columns\./ && !/\+0x[0-9a-f]+>$/ {
    callee = $0; sub(/.*(call|jmp) +[0-9a-f]+ </, "", callee)
    if (caller ~ ("^[0-9a-f]+ <[A-Za-z]+\\.(" types ")\\.") || caller ~ /<A>|[(: ]A[,)>]|<A,/) next
    print substr(caller, index(caller, "<"), 100) " -> " substr(callee, 1, 80)
  }' "$listing" | sort -u)
if [ -n "$generic" ]; then
  echo "check-specialisation: concrete code calls a generic Columns body (make it @inlinable): ${generic:0:400}" >&2
  failures=$((failures + 1))
fi
# 5. A motion index's query from a time-aware strategy's batch loop: the loop is compiled where
#    the index is concrete (BenchKit), and a call from there to the index's generic `visit`
#    reached its unspecialised body (a witness call per entry offered, metadata per query;
#    docs/optimisation-log.md entry 95). Only the generic body itself (its witness, its
#    signature variants) may reach an unspecialised `visit` of an index.
generic=$(awk '
  /^[0-9a-f]+ </ { caller = substr($0, index($0, "<") + 1); next }
  /(call|jmp) +[0-9a-f]+ <HitTesting\.[A-Za-z]+\.visit<A where A: HitTesting\.MotionIndexVisitor>/ {
    sub(/^function signature specialization <[^>]*> of /, "", caller)
    if (caller ~ /^(protocol witness for )?HitTesting\.[A-Za-z]+\.visit<A where A1?: HitTesting\.MotionIndexVisitor>/) next
    print substr(caller, 1, 120)
  }' "$listing" | sort -u)
if [ -n "$generic" ]; then
  echo "check-specialisation: a caller reaches a motion index's unspecialised visit: ${generic:0:400}" >&2
  failures=$((failures + 1))
fi
[ "$failures" = 0 ] || exit 1
echo "specialisation: $checked built-in strategies; frame and profile loops specialised, no generic query call (direct or through a witness); no concrete call into a generic Columns body; no unspecialised motion-index visit"
