#!/usr/bin/env bash
# Coverage-guided fuzzing of the scene reader and the hit test (libFuzzer + AddressSanitizer):
# each input is read as a scene; scenes that read are hit-tested by every strategy and judged
# against tree-walk by the exact oracle (Sources/hitbench-fuzz). A crash, a sanitizer report or
# a disagreement stops the run and leaves the input in .build-fuzz/findings/.
#   scripts/fuzz.sh [SECONDS]        (default 60)
# The corpus starts from data/fuzz/corpus (never modified); what the fuzzer learns goes to
# .build-fuzz/corpus. Replay a finding: swift build --product hitbench-fuzz && .build/debug/hitbench-fuzz FILE
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
bash scripts/setup.sh
swift build -c release --product hitbench-fuzz --scratch-path .build-fuzz \
  -Xswiftc -DHITBENCH_FUZZER -Xswiftc -sanitize=fuzzer,address >&2
mkdir -p .build-fuzz/corpus .build-fuzz/findings
# Findings of earlier runs are kept aside, so this run reports only its own.
if [ -n "$(ls -A .build-fuzz/findings 2>/dev/null)" ]; then
  mkdir -p .build-fuzz/findings-earlier
  mv .build-fuzz/findings/* .build-fuzz/findings-earlier/
fi
bin=.build-fuzz/release/hitbench-fuzz
set +e
"$bin" .build-fuzz/corpus data/fuzz/corpus -max_total_time="$seconds" -max_len=65536 -timeout=20 -rss_limit_mb=4096 \
  -artifact_prefix=.build-fuzz/findings/ -print_final_stats=1 2>.build-fuzz/fuzz.log
status=$?
set -e
grep -E "^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss_mb)" .build-fuzz/fuzz.log >&2 || true
findings=$(ls .build-fuzz/findings 2>/dev/null | wc -l)
if [ "$status" -ne 0 ] || [ "$findings" -gt 0 ]; then
  tail -40 .build-fuzz/fuzz.log >&2
  echo "fuzz: FINDING (exit $status): see .build-fuzz/findings/ and .build-fuzz/fuzz.log" >&2
  exit 1
fi
echo "fuzz: ${seconds}s, no finding" >&2
