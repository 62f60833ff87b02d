#!/bin/bash
# parallel-safe
# t239: lists that name nothing, or a thing twice, are bad input: exit 2 and one line,
# before anything runs or warns (before: --placement '', -w 'null:' and --via
# dormant,dormant were accepted, and probes --layouts weird printed the unavailable probe
# methods' warnings first).
. "$(dirname "$0")/lib.bash"
plan 5
one_line_exit2 "--placement ''" "$P" run --placement '' -w null --runs 1 --no-store
one_line_exit2 "-w 'null:'" "$P" run -w 'null:' -m none --runs 1 --no-store
one_line_exit2 "-w 'pipe:loops=10,'" "$P" run -w 'pipe:loops=10,' -m none --runs 1 --no-store
one_line_exit2 "--via dormant,dormant" "$P" probes --via dormant,dormant --no-store
one_line_exit2 "--layouts weird (every method left to choose)" "$P" probes --layouts weird --no-store
done_testing
