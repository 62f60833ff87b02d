/* SPDX-License-Identifier: MIT */
/* synth_rich: realistic-looking synthetic sessions (deterministic noise) for plots and compare. */
#ifndef PCOST_TEST_SYNTH_RICH_H
#define PCOST_TEST_SYNTH_RICH_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/result.h"

/* Deterministic noise in [-1, 1). */
static inline double synth_noise(uint64_t *st)
{
	uint64_t z = (*st += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (double)((z ^ (z >> 31)) >> 11) / 4503599627370496.0 - 1.0;
}

static inline void synth_add_runs(struct pcost_config *c, unsigned blocks, unsigned order,
				  double mean_ns, double noise, uint64_t events, uint64_t *st)
{
	for (unsigned b = 0; b < blocks; b++) {
		struct pcost_run_sample r = { 0 };

		r.block = b;
		r.order = order;
		r.warmup = b == 0;
		r.scale = 1;
		r.wall_ns = (pcost_ns)(mean_ns * (1 + noise * synth_noise(st)));
		r.user_ns = r.wall_ns / 3;
		r.sys_ns = r.wall_ns / 2;
		r.maxrss_kb = 3000;
		r.has_report = events > 0;
		r.events = events;
		r.timed_ns = r.wall_ns;
		r.monitor_events = -1;
		pcost_config_add_sample(c, &r);
	}
}

/* run: five monitors whose overheads span decades, scaled by `worse` (1 = as measured). */
static inline void synth_rich_run(struct pcost_session *s, double worse, const char *kernel)
{
	static const struct {
		const char *mon;
		double ovh;
	} m[] = {
		{ "none", 0 },	   { "perf-stat", 0.02 }, { "ltrace", 0.35 },
		{ "strace", 5.0 }, { "valgrind", 48.0 },
	};
	uint64_t st = 42;

	pcost_session_init(s, PCOST_SESSION_RUN);
	s->started = 1764400000;
	s->version = xstrdup("0.1.0");
	s->env_json = xasprintf(
		"{\"fields\":{\"kernel.release\":\"%s\",\"cpu.model\":\"Synthetic CPU\"}}", kernel);
	s->seed = 7;
	for (size_t i = 0; i < ARRAY_SIZE(m); i++) {
		struct pcost_config *c = pcost_session_add_config(s, "syscall", "loops=20000",
								  m[i].mon, NULL, "syscall");

		synth_add_runs(c, 12, (unsigned)i, 2e6 * (1 + m[i].ovh * (i ? worse : 1)), 0.01,
			       20000, &st);
	}
}

/* probes: three methods x two variants, per-hit costs of 0.3 to 3 us. */
static inline void synth_rich_probes(struct pcost_session *s)
{
	static const char *const methods[] = { "uprobe", "bpftrace", "perf-probe" };
	static const char *const variants[] = { "plain", "volatile-sem" };
	uint64_t st = 9;
	unsigned order = 0;

	pcost_session_init(s, PCOST_SESSION_PROBES);
	s->started = 1764400000;
	s->env_json = xstrdup("{\"fields\":{\"kernel.release\":\"6.18.0\"}}");
	for (size_t v = 0; v < 2; v++) {
		struct pcost_config *c = pcost_session_add_config(s, "stanford", "n=1", "dormant",
								  variants[v], "hit");

		synth_add_runs(c, 10, order++, 50e6, 0.005, 100000, &st);
		for (size_t k = 0; k < 3; k++) {
			c = pcost_session_add_config(s, "stanford", "n=1", methods[k], variants[v],
						     "hit");
			synth_add_runs(c, 10, order++,
				       50e6 + 100000 * (300.0 * (double)(k + 1) * (k + 1) +
							80.0 * (double)v),
				       0.005, 100000, &st);
		}
	}
}

/* counters: start+stop+read cost against k events for three interfaces (seed 001's shape). */
static inline void synth_rich_counters(struct pcost_session *s, double worse)
{
	static const struct {
		const char *itf;
		double base, slope;
	} x[] = {
		{ "perf-group", 2100, 260 },
		{ "papi", 3900, 410 },
		{ "rdtsc", 25, 0 },
	};
	uint64_t st = 5;

	pcost_session_init(s, PCOST_SESSION_COUNTERS);
	s->started = 1764400000;
	s->env_json = xstrdup("{\"fields\":{\"kernel.release\":\"6.18.0\"}}");
	for (size_t i = 0; i < ARRAY_SIZE(x); i++)
		for (unsigned k = (x[i].slope > 0); k <= (x[i].slope > 0 ? 8u : 0u); k++) {
			double ns[64];

			for (size_t j = 0; j < 64; j++)
				ns[j] = (x[i].base + x[i].slope * k) * worse *
					(1 + 0.08 * synth_noise(&st));
			pcost_session_add_series(s, x[i].itf, "start+stop+read",
						 k ? "sw-events" : NULL, k, "monotonic", ns, 64);
		}
}

/*
 * run --scale 1,2,4: the syscall workload plain and under two monitors whose
 * extra time is fixed + per event x events (perf-stat 8 ms + 90 ns, strace
 * 140 ms + 13 us), as measured on the development machine.
 */
static inline void synth_rich_scale(struct pcost_session *s)
{
	static const struct {
		const char *mon;
		double fixed, per;
	} m[] = {
		{ "none", 0, 0 },
		{ "perf-stat", 8e6, 90 },
		{ "strace", 140e6, 13000 },
	};
	uint64_t st = 17;
	unsigned order = 0;

	pcost_session_init(s, PCOST_SESSION_RUN);
	s->started = 1764400000;
	s->version = xstrdup("0.1.0");
	s->env_json = xstrdup("{\"fields\":{\"kernel.release\":\"6.18.0\"}}");
	s->seed = 3;
	for (unsigned k = 1; k <= 4; k *= 2) {
		char args[32];

		snprintf(args, sizeof(args), "loops=%u", 20000 * k);
		for (size_t i = 0; i < ARRAY_SIZE(m); i++) {
			struct pcost_config *c = pcost_session_add_config(
				s, "syscall", args, m[i].mon, NULL, "syscall");
			double ev = 20000.0 * k;

			synth_add_runs(c, 8, order++, 2e6 * k + m[i].fixed + m[i].per * ev, 0.02,
				       (uint64_t)ev, &st);
			for (size_t r = 0; r < c->nsamples; r++)
				c->samples[r].scale = k;
		}
	}
}

#endif
