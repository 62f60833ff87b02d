// SPDX-License-Identifier: MIT
/* counters/timer: pick the clock that times counter operations (serialized TSC or monotonic). */
#include <stdio.h>

#include "counters/counters.h"
#include "core/env.h"

void pcost_counter_timer_init(struct pcost_timer *t, bool force_monotonic)
{
	const struct pcost_env *e = pcost_env_self();

	t->kind = PCOST_TIMER_MONOTONIC;
	t->ns_per_tick = 1.0;
	t->tsc_hz = pcost_tsc_hz();
#if !defined(__x86_64__) && !defined(__i386__)
	snprintf(t->why, sizeof(t->why), "CLOCK_MONOTONIC (no TSC on this CPU)");
	return;
#endif
	if (force_monotonic)
		snprintf(t->why, sizeof(t->why), "CLOCK_MONOTONIC (asked for with --timer)");
	else if (!e->tsc_invariant)
		snprintf(
			t->why, sizeof(t->why),
			"CLOCK_MONOTONIC (the TSC is not invariant: constant_tsc/nonstop_tsc missing)");
	else if (t->tsc_hz <= 0)
		snprintf(t->why, sizeof(t->why), "CLOCK_MONOTONIC (TSC frequency unknown)");
	else {
		t->kind = PCOST_TIMER_TSC;
		t->ns_per_tick = 1e9 / t->tsc_hz;
		snprintf(t->why, sizeof(t->why),
			 "TSC at %.3f GHz (lfence;rdtsc ... rdtscp;lfence), invariant",
			 t->tsc_hz / 1e9);
	}
}

const char *pcost_counter_timer_name(const struct pcost_timer *t)
{
	return t->kind == PCOST_TIMER_TSC ? "tsc" : "monotonic";
}
