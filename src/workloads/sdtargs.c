// SPDX-License-Identifier: MIT
/*
 * sdtargs: what a dormant SDT site costs by what it evaluates: a loop whose
 * probe takes 0, 1, 3 or 6 arguments, or one expensive argument (a 16-round
 * hash) passed plainly or behind the probe's semaphore (`*_ENABLED()`), as
 * DTrace-style providers guard costly arguments.  variant=none is the same
 * loop without a probe: the reference for the dormant cost.  Provider
 * pcost_args (sdtargs.d; macros from dtrace -h, semaphores from dtrace -G).
 *
 * Check (check=ok|bad): each thread counts the times it passed its site (the
 * hits it reports; none: 0), which must be loops, and sums a ^ b ^ c, the
 * probe's arguments, after the site, which must equal the same sum made
 * without a site: a probe that changed a local living across the site (a
 * register, a stack slot, the red zone) fails it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/process.h"
#include "workloads/timed.h"
#include "workloads/sdtargs.h"
#include "workloads/workload.h"

#ifdef SDTARGS_SITE
/*
 * A site-encoding copy (mk/probes.mk: -DSDTARGS_SITE=nop5 -DSDTARGS_SITE_UP=NOP5
 * -DSDTARGS_SITE_NOP=PCOST_SITE_NOP5): the loop alone, pcost_sdtargs_loop_<s>,
 * under the dtrace -h macros of provider pcost_args_<s>.
 */
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define STR_(x) #x
#define STR(x) STR_(x)
#include STR(CAT(pcost_args_, SDTARGS_SITE).h)
#include "workloads/site_nops.h"
#undef _SDT_NOP
#define _SDT_NOP SDTARGS_SITE_NOP
#define SITE_M(p) CAT(CAT(PCOST_ARGS_, SDTARGS_SITE_UP), p)
#define PCOST_ARGS_A0 SITE_M(_A0)
#define PCOST_ARGS_A1 SITE_M(_A1)
#define PCOST_ARGS_A3 SITE_M(_A3)
#define PCOST_ARGS_A6 SITE_M(_A6)
#define PCOST_ARGS_EXPENSIVE SITE_M(_EXPENSIVE)
#define PCOST_ARGS_EXPENSIVE_SEM SITE_M(_EXPENSIVE_SEM)
#define PCOST_ARGS_EXPENSIVE_SEM_ENABLED SITE_M(_EXPENSIVE_SEM_ENABLED)
#define ARGS_LOOP CAT(pcost_sdtargs_loop_, SDTARGS_SITE)
#else
#include "pcost_args.h"
#define ARGS_LOOP pcost_sdtargs_loop
#endif

enum { V_NONE, V_A0, V_A1, V_A3, V_A6, V_EXP, V_EXP_SEM };

#ifndef SDTARGS_SITE
enum { P_VARIANT, P_LOOPS, P_THREADS, P_SITE };

static const struct pcost_param_desc params[] = {
	[P_VARIANT] = { "variant", PCOST_PARAM_ENUM, 0, 0, 0,
			"none|a0|a1|a3|a6|expensive|expensive-sem",
			"the probe site: none, 0/1/3/6 arguments, an expensive argument "
			"unguarded or behind the semaphore" },
	[P_LOOPS] = { "loops", PCOST_PARAM_U64, 1000000, 1, 1000000000, NULL,
		      "iterations (probe hits) per thread" },
	[P_THREADS] = { "threads", PCOST_PARAM_U64, 1, 1, 1024, NULL,
			"threads, each running the loop" },
	[P_SITE] = { "site", PCOST_PARAM_ENUM, 0, 0, 0, "nop|nop5|nop10|nop5-nrz",
		     "probe-site encoding: sdt.h's nop, a 5- or 10-byte nop, or a 5-byte nop in "
		     "code built with -mno-red-zone" },
	{ NULL, 0, 0, 0, 0, NULL, NULL },
};
#endif

/* The expensive argument: 16 rounds of a 64-bit mix (splitmix64's finalizer). */
static __attribute__((noinline)) long digest(uint64_t x)
{
	for (int r = 0; r < 16; r++) {
		x ^= x >> 30;
		x *= 0xbf58476d1ce4e5b9ULL;
		x ^= x >> 27;
	}
	return (long)x;
}

/* One loop per variant, so no variant pays for another's branch. */
#define LOOP(body)                                                                                 \
	do {                                                                                       \
		for (uint64_t i = 0; i < j->loops; i++) {                                          \
			long a = (long)i, b = (long)(i ^ 0x5a5a), c = (long)(i + t);               \
			body;                                                                      \
			__asm__ volatile("" : : "r"(a), "r"(b), "r"(c) : "memory");                \
			sum += (uint64_t)(a ^ b ^ c);                                              \
			passes++;                                                                  \
		}                                                                                  \
	} while (0)

void ARGS_LOOP(void *arg, unsigned t)
{
	const struct pcost_sdtargs_job *j = arg;
	uint64_t passes = 0, sum = 0;

	switch (j->variant) {
	case V_NONE:
		LOOP((void)0);
		break;
	case V_A0:
		LOOP(PCOST_ARGS_A0());
		break;
	case V_A1:
		LOOP(PCOST_ARGS_A1(a));
		break;
	case V_A3:
		LOOP(PCOST_ARGS_A3(a, b, c));
		break;
	case V_A6:
		LOOP(PCOST_ARGS_A6(a, b, c, a + 1, b + 1, c + 1));
		break;
	case V_EXP:
		LOOP(PCOST_ARGS_EXPENSIVE(digest((uint64_t)a)));
		break;
	case V_EXP_SEM:
		LOOP(if (PCOST_ARGS_EXPENSIVE_SEM_ENABLED())
			     PCOST_ARGS_EXPENSIVE_SEM(digest((uint64_t)a)));
		break;
	}
	j->c[t] = (struct pcost_sdtargs_count){ passes, sum };
}

#ifndef SDTARGS_SITE
static void args_check(const struct pcost_sdtargs_job *j, unsigned n, struct pcost_wl_result *res)
{
	for (unsigned t = 0; t < n; t++) {
		uint64_t sum = 0;

		for (uint64_t i = 0; i < j->loops; i++)
			sum += (uint64_t)((long)i ^ (long)(i ^ 0x5a5a) ^ (long)(i + t));
		pcost_wl_check(res, j->c[t].passes == j->loops,
			       "thread %u passed its site %llu times, "
			       "not %llu",
			       t + 1, (unsigned long long)j->c[t].passes,
			       (unsigned long long)j->loops);
		pcost_wl_check(res, j->c[t].sum == sum,
			       "thread %u: the probe's arguments, summed after the site, changed",
			       t + 1);
	}
}

static int sdtargs_run(const struct pcost_params *p, struct pcost_wl_result *res)
{
	/* The loop in each site encoding, in the order of the site parameter. */
	static void (*const loops[])(void *, unsigned) = {
		pcost_sdtargs_loop,
		pcost_sdtargs_loop_nop5,
		pcost_sdtargs_loop_nop10,
		pcost_sdtargs_loop_nop5_nrz,
	};
	unsigned n = (unsigned)p->v[P_THREADS];
	struct pcost_sdtargs_job j = { (unsigned)p->v[P_VARIANT], p->v[P_LOOPS], NULL };
	int rc;

	pcost_wl_name_self("sdtargs");
	j.c = xcalloc(n, sizeof(*j.c));
	/* Every iteration passes its site once (none: the same loop, no site). */
	rc = pcost_wl_probe_threads(n, loops[p->v[P_SITE]], &j, j.variant == V_NONE ? 0 : j.loops,
				    true, res);
	if (!rc) {
		args_check(&j, n, res);
		res->events = 0; /* the hits it counted itself */
		for (unsigned t = 0; t < n && j.variant != V_NONE; t++)
			res->events += j.c[t].passes;
	}
	free(j.c);
	return rc;
}

const struct pcost_workload pcost_wl_sdtargs = {
	.name = "sdtargs",
	.summary = "a loop with an SDT probe of 0/1/3/6 arguments or an expensive one, "
		   "guarded or not by its semaphore",
	.unit = "hit",
	.size_key = "loops",
	.params = params,
	.run = sdtargs_run,
};
#endif
