#!/bin/bash
# parallel-safe
# t001: probecost env: JSON parses, kernel release matches uname, fixtures, bad options.
. "$(dirname "$0")/lib.bash"
plan 11

run_pc env --format json
is "$rc" 0 "env --format json exits 0"
is "$(printf '%s' "$out" | jq -r '.fields["kernel.release"]')" "$(uname -r)" "kernel release equals uname -r"
is "$(printf '%s' "$out" | jq -r '.fields["cpu.online"] | split(" ")[0]')" "$(nproc --all)" "online CPU count equals nproc --all"
hz=$(printf '%s' "$out" | jq -r '.tsc_hz')
if grep -qw tsc /proc/cpuinfo; then
	is "$(awk -v h="$hz" 'BEGIN { print (h > 1e8 && h < 1e10) ? "sane" : "insane" }')" sane "calibrated TSC frequency is between 0.1 and 10 GHz"
else
	skip "no TSC on this machine"
fi
# Known answer: the kernel's own TSC frequency (its refined calibration, else the one it
# detected), from the kernel log; the calibrated figure within 0.1% of it, the tolerance
# under which compare calls two readings one machine, and a second reading within it too.
khz=$(dmesg 2>/dev/null | sed -n 's/.*Refined TSC clocksource calibration: \([0-9.]*\) MHz.*/\1/p' | tail -1)
[ -n "$khz" ] || khz=$(dmesg 2>/dev/null | sed -n 's/.*tsc: Detected \([0-9.]*\) MHz processor.*/\1/p' | tail -1)
if [ -n "$khz" ]; then
	assert "calibrated TSC $hz Hz within 0.1% of the kernel's $khz MHz" \
		'awk -v h="$hz" -v k="$khz" "BEGIN { d = h / (k * 1e6) - 1; exit !(d < 1e-3 && d > -1e-3) }"'
	hz2=$("$PROBECOST" env --format json | jq -r .tsc_hz)
	assert "a second calibration ($hz2 Hz) within 0.1% of the first" \
		'awk -v a="$hz" -v b="$hz2" "BEGIN { d = a / b - 1; exit !(d < 1e-3 && d > -1e-3) }"'
else
	skip "the kernel log names no TSC frequency (dmesg: none, or rotated away)"
	skip "the kernel log names no TSC frequency (dmesg: none, or rotated away)"
fi
if [ -d /sys/bus/event_source/devices/cpu ] || [ -d /sys/bus/event_source/devices/cpu_core ]; then
	like "$(printf '%s' "$out" | jq -r '.fields.pmu')" '^present' "a PMU is reported present"
else
	like "$(printf '%s' "$out" | jq -r '.warnings[]')" 'no hardware PMU' "no PMU: env warns about it"
fi
run_pc env
like "$out" 'kernel.release +[^ ]+' "text output has kernel.release"
run_pc env --root tests/fixtures/env/kvm-nopmu
like "$out" 'warning: KVM guest|warning: virtual machine guest|warning: unnamed' "fixture root: the guest warning (from the hypervisor flag)"
run_pc env --format yaml
is "$rc" 2 "env --format yaml exits 2"
run_pc env --root /nonexistent/dir
is "$rc" 2 "env --root of a missing dir exits 2"
done_testing
