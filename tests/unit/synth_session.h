/* SPDX-License-Identifier: MIT */
/* synth_session: synthetic sessions for store and JSON tests, and a deep equality check. */
#ifndef PCOST_TEST_SYNTH_SESSION_H
#define PCOST_TEST_SYNTH_SESSION_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/result.h"

/* Two configs (none, strace) of `blocks` blocks, plus two counter series. */
static inline void synth_session(struct pcost_session *s, enum pcost_session_kind kind,
				 unsigned blocks, double slowdown)
{
	static const char *const mons[] = { "none", "strace" };

	pcost_session_init(s, kind);
	s->started = 1764400000;
	s->cmdline = xstrdup("probecost run --workload pipe --monitor strace 'a b'");
	s->version = xstrdup("0.1.0");
	s->env_json = xstrdup(
		"{\"fields\":{\"kernel.release\":\"6.18.0\",\"cpu.count\":\"2\"},\"warnings\":[]}");
	s->options_json = xstrdup("{\"blocks\":4}");
	s->seed = 0xfedcba9876543210ULL;
	s->tsc_hz = 2.1e9;
	for (unsigned m = 0; m < 2; m++) {
		struct pcost_config *c = pcost_session_add_config(
			s, "pipe", "loops=1000", mons[m],
			kind == PCOST_SESSION_PROBES ? "plain" : NULL, "round-trip");
		c->expected_events = m ? 1000 : -1;
		if (kind == PCOST_SESSION_RUN && m) { /* run --threads 2 --placement split */
			c->threads = 2;
			c->placement = xstrdup("split");
		}
		for (unsigned b = 0; b < blocks; b++) {
			struct pcost_run_sample r = { 0 };

			r.block = b;
			r.order = m;
			r.warmup = b == 0;
			r.failed = b == 2 && m == 1;
			r.wait_status = r.failed ? 256 : 0;
			if (r.failed)
				snprintf(r.fail_reason, sizeof(r.fail_reason), "exit 1");
			r.scale = 1.5;
			r.wall_ns = (pcost_ns)((1000000 + 1000 * b) * (m ? slowdown : 1.0));
			r.user_ns = 300000 + b;
			r.sys_ns = 600000 + b;
			r.maxrss_kb = 2048;
			r.minflt = 100 + b;
			r.majflt = b % 2;
			r.nvcsw = 2000;
			r.nivcsw = 3;
			r.has_report = true;
			r.events = 1000;
			r.timed_ns = r.wall_ns - 1000;
			r.monitor_events = m ? 1000 : -1;
			r.has_busy = b != 1; /* one sample without: null in JSON, NULL in SQL */
			r.other_cpu_ns = r.has_busy ? 250000 + b : 0;
			r.steal_ns = r.has_busy ? 10 * b : 0;
			/* probes: optimized, not, unknown in turn (unknown stays unknown) */
			if (kind == PCOST_SESSION_PROBES)
				r.optimized = (int8_t)((int)(b % 3) - 1);
			/* how it ended: not recorded, none, the program's, the tool's in turn;
			 * a check bad, none, ok in turn; a note on one run */
			r.fault = r.failed ? PCOST_FAULT_PROGRAM : (enum pcost_fault)(b % 4);
			r.check = (int8_t)((int)(b % 3) - 1);
			if (b == 1)
				snprintf(r.note, sizeof(r.note),
					 "lost %u events, \"said\" the tool", b);
			pcost_config_add_sample(c, &r);
		}
	}
	if (kind == PCOST_SESSION_COUNTERS) {
		double ns[5] = { 10.5, 11.25, 0.1 + 0.2, 1e-3, 12345.678901234567 };
		struct pcost_counter_series *x = pcost_session_add_series(
			s, "perf-read", "read", "cycles,instructions", 2, "monotonic", ns, 5);

		x->note = xstrdup("no PMU: software events");
		pcost_session_add_series(s, "rdtsc", "read", NULL, 0, "tsc", ns, 3);
	}
}

/* cJSON prints doubles to 15 significant digits when that is within an epsilon. */
/* Every double comes back bit for bit (NaN as NaN): an export loses nothing. */
#define SAME_DOUBLE(a, b) assert_true((a) == (b) || (isnan(a) && isnan(b)))

#define STREQ_NULL(a, b)                                                                           \
	assert_true(((a) == NULL && (b) == NULL) || ((a) && (b) && !strcmp((a), (b))))

static inline void assert_sessions_equal(const struct pcost_session *a,
					 const struct pcost_session *b)
{
	assert_int_equal(a->kind, b->kind);
	assert_int_equal(a->started, b->started);
	STREQ_NULL(a->cmdline, b->cmdline);
	STREQ_NULL(a->version, b->version);
	STREQ_NULL(a->env_json, b->env_json);
	STREQ_NULL(a->options_json, b->options_json);
	assert_true(a->seed == b->seed);
	SAME_DOUBLE(a->tsc_hz, b->tsc_hz);
	assert_int_equal(a->complete, b->complete);
	assert_int_equal(a->nmetrics, b->nmetrics);
	for (size_t k = 0; k < a->nmetrics; k++) {
		assert_string_equal(a->metrics[k].name, b->metrics[k].name);
		assert_string_equal(a->metrics[k].unit, b->metrics[k].unit);
		assert_int_equal(a->metrics[k].better, b->metrics[k].better);
	}
	assert_int_equal(a->nconfigs, b->nconfigs);
	for (size_t i = 0; i < a->nconfigs; i++) {
		const struct pcost_config *x = &a->configs[i], *y = &b->configs[i];

		STREQ_NULL(x->workload, y->workload);
		STREQ_NULL(x->workload_args, y->workload_args);
		STREQ_NULL(x->monitor, y->monitor);
		STREQ_NULL(x->variant, y->variant);
		STREQ_NULL(x->unit, y->unit);
		assert_int_equal(x->expected_events, y->expected_events);
		assert_int_equal(x->threads, y->threads);
		STREQ_NULL(x->placement, y->placement);
		assert_int_equal(x->nsamples, y->nsamples);
		for (size_t j = 0; j < x->nsamples; j++) {
			const struct pcost_run_sample *p = &x->samples[j], *q = &y->samples[j];

			assert_int_equal(p->block, q->block);
			assert_int_equal(p->order, q->order);
			assert_int_equal(p->warmup, q->warmup);
			assert_int_equal(p->failed, q->failed);
			assert_int_equal(p->wait_status, q->wait_status);
			assert_string_equal(p->fail_reason, q->fail_reason);
			SAME_DOUBLE(p->scale, q->scale);
			assert_int_equal(p->wall_ns, q->wall_ns);
			assert_int_equal(p->user_ns, q->user_ns);
			assert_int_equal(p->sys_ns, q->sys_ns);
			assert_int_equal(p->maxrss_kb, q->maxrss_kb);
			assert_int_equal(p->minflt, q->minflt);
			assert_int_equal(p->majflt, q->majflt);
			assert_int_equal(p->nvcsw, q->nvcsw);
			assert_int_equal(p->nivcsw, q->nivcsw);
			assert_int_equal(p->has_report, q->has_report);
			assert_int_equal(p->events, q->events);
			assert_int_equal(p->timed_ns, q->timed_ns);
			assert_int_equal(p->monitor_events, q->monitor_events);
			assert_int_equal(p->has_busy, q->has_busy);
			assert_int_equal(p->other_cpu_ns, q->other_cpu_ns);
			assert_int_equal(p->steal_ns, q->steal_ns);
			assert_int_equal(p->optimized, q->optimized);
			assert_int_equal(p->fault, q->fault);
			assert_int_equal(p->check, q->check);
			assert_string_equal(p->note, q->note);
			assert_int_equal(p->has_service, q->has_service);
			assert_int_equal(p->service_user_ns, q->service_user_ns);
			assert_int_equal(p->service_sys_ns, q->service_sys_ns);
			/* No value and a NaN are the same: the run gave none. */
			for (size_t k = 0; k < a->nmetrics; k++)
				SAME_DOUBLE(p->metrics ? p->metrics[k] : NAN,
					    q->metrics ? q->metrics[k] : NAN);
		}
	}
	assert_int_equal(a->nseries, b->nseries);
	for (size_t i = 0; i < a->nseries; i++) {
		const struct pcost_counter_series *x = &a->series[i], *y = &b->series[i];

		STREQ_NULL(x->interface, y->interface);
		STREQ_NULL(x->op, y->op);
		STREQ_NULL(x->events, y->events);
		assert_int_equal(x->nevents, y->nevents);
		STREQ_NULL(x->timer, y->timer);
		STREQ_NULL(x->note, y->note);
		assert_int_equal(x->n, y->n);
		for (size_t j = 0; j < x->n; j++)
			SAME_DOUBLE(x->ns[j], y->ns[j]);
	}
}

#endif
