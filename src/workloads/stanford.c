// SPDX-License-Identifier: MIT
/*
 * stanford: the probe-heavy suite of seed 002 (towers, queens, intmm, puzzle,
 * quick, bubble, tree, fft, perm) in one of five probe variants, reporting
 * the exact number of probe hits.  The kernels are src/workloads/stanford/.
 * threads=N runs the kernels on N threads at once, each on data of its own.
 *
 * Check (check=ok|bad): every kernel's own result check, as the Stanford
 * driver has them (towers' move count, queens' and puzzle's solution counts,
 * intmm's product entry, the sorts sorted, the tree ordered, fft's round trip
 * within 1e-6, perm's count), in every thread, and every thread made the same
 * hits; check=bad names the kernel (why="kernel fft computed a wrong result").
 */
#include "workloads/stanford.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/prctl.h>

#include "workloads/timed.h"
#include "workloads/lttng.h"
#include "workloads/stanford/kernels.h"
#include "workloads/workload.h"

static const char *const kernel_names[PCOST_SK_N] = PCOST_STANFORD_KERNEL_NAMES;

/* Variant names as users write them, their providers and entry points (one per code layout). */
#define LAYOUTS(v)                                                                                 \
	{                                                                                          \
		v, v##_a32, v##_a64, v##_a16, v##_a8, v##_noalign, v##_pad16, v##_pad24,           \
			v##_pad40, v##_bbsimple                                                    \
	}
static const struct {
	const char *name, *provider;
	pcost_stanford_fn fn[PCOST_STANFORD_NLAYOUTS];
} variants[PCOST_STANFORD_NVARIANTS] = {
	{ "none", NULL, LAYOUTS(pcost_stanford_none) },
	{ "plain", "stanford_plain", LAYOUTS(pcost_stanford_plain) },
	{ "volatile", "stanford_volatile", LAYOUTS(pcost_stanford_volatile) },
	{ "plain-sem", "stanford_plain_sem", LAYOUTS(pcost_stanford_plain_sem) },
	{ "volatile-sem", "stanford_volatile_sem", LAYOUTS(pcost_stanford_volatile_sem) },
};

static const char *const layout_names[PCOST_STANFORD_NLAYOUTS] = {
	"default", "a32", "a64", "a16", "a8", "noalign", "pad16", "pad24", "pad40", "bbsimple",
};

/*
 * Probe-site encodings (kernels.c): entry points of each variant per site, in
 * the default layout (the nop encoding is variants[]).
 */
static const char *const site_names[PCOST_STANFORD_NSITES] = { "nop", "nop5", "nop10", "nop5-nrz" };
/* The encodings in provider and function names (a provider is a C identifier). */
static const char *const site_ids[PCOST_STANFORD_NSITES] = { "", "nop5", "nop10", "nop5_nrz" };
#define SITE_FNS(s)                                                                                \
	{                                                                                          \
		pcost_stanford_none, pcost_stanford_plain_##s, pcost_stanford_volatile_##s,        \
			pcost_stanford_plain_sem_##s, pcost_stanford_volatile_sem_##s              \
	}
static const pcost_stanford_fn site_fns[PCOST_STANFORD_NSITES][PCOST_STANFORD_NVARIANTS] = {
	{ NULL },
	SITE_FNS(nop5),
	SITE_FNS(nop10),
	SITE_FNS(nop5_nrz),
};

/* Parameter indices: the order of params[] below. */
enum { P_SCALE, P_VARIANT, P_KERNEL, P_LAYOUT, P_CLOCK, P_SITE, P_THREADS };

static const struct pcost_param_desc params[] = {
	[P_SCALE] = { "scale", PCOST_PARAM_U64, 1, 1, 1000000, NULL,
		      "repetitions of the whole suite (one is 289,264 probe hits)" },
	[P_VARIANT] = { "variant", PCOST_PARAM_ENUM, 1, 0, 0,
			"none|plain|volatile|plain-sem|volatile-sem|lttng",
			"probe build: none, plain or volatile arguments, with or without semaphore; "
			"lttng: LTTng-UST tracepoints (pcost-lttng.so)" },
	[P_KERNEL] = { "kernel", PCOST_PARAM_ENUM, 0, 0, 0,
		       "all|perm|towers|queens|intmm|puzzle|quick|bubble|tree|fft",
		       "run every kernel, or only this one" },
	[P_LAYOUT] = { "layout", PCOST_PARAM_ENUM, 0, 0, 0,
		       "default|a32|a64|a16|a8|noalign|pad16|pad24|pad40|bbsimple",
		       "code layout: as built; functions, loops and jumps aligned to 32, 64, 16 or 8 "
		       "bytes or not at all; functions 64-aligned and pushed 16, 24 or 40 bytes in "
		       "by unexecuted nops; or basic blocks in the simple algorithm's order" },
	[P_CLOCK] = { "clock", PCOST_PARAM_ENUM, 0, 0, 0, "wall|cpu",
		      "time the kernels on the wall clock, or on their threads' CPU time, summed "
		      "(which a dormant probe's cost shows in, other processes' preemptions do not)" },
	[P_SITE] = { "site", PCOST_PARAM_ENUM, 0, 0, 0, "nop|nop5|nop10|nop5-nrz",
		     "probe-site encoding: sdt.h's nop, a 5- or 10-byte nop, or a 5-byte nop in "
		     "code built with -mno-red-zone (default layout)" },
	[P_THREADS] = { "threads", PCOST_PARAM_U64, 1, 1, 1024, NULL,
			"threads, each running the kernels on its own data (hits = threads x one's)" },
	{ NULL, 0, 0, 0, 0, NULL, NULL },
};

/* Name of variant v ("plain-sem"), NULL when out of range. */
static const char *stanford_variant_name(int v)
{
	if (v == PCOST_STANFORD_LTTNG)
		return "lttng";
	return v >= 0 && v < PCOST_STANFORD_NVARIANTS ? variants[v].name : NULL;
}

int pcost_stanford_variant_find(const char *name)
{
	if (!strcmp(name, "lttng"))
		return PCOST_STANFORD_LTTNG;
	for (int v = 0; v < PCOST_STANFORD_NVARIANTS; v++)
		if (!strcmp(variants[v].name, name))
			return v;
	return -1;
}

const char *pcost_stanford_provider(int v)
{
	return v >= 0 && v < PCOST_STANFORD_NVARIANTS ? variants[v].provider : NULL;
}

const char *pcost_stanford_kernel_name(int k)
{
	return k >= 0 && k < PCOST_SK_N ? kernel_names[k] : NULL;
}

const char *pcost_stanford_layout_name(int l)
{
	return l >= 0 && l < PCOST_STANFORD_NLAYOUTS ? layout_names[l] : NULL;
}

int pcost_stanford_layout_find(const char *name)
{
	for (int l = 0; l < PCOST_STANFORD_NLAYOUTS; l++)
		if (!strcmp(layout_names[l], name))
			return l;
	return -1;
}

const char *pcost_stanford_site_name(int site)
{
	return site >= 0 && site < PCOST_STANFORD_NSITES ? site_names[site] : NULL;
}

int pcost_stanford_site_find(const char *name)
{
	for (int i = 0; i < PCOST_STANFORD_NSITES; i++)
		if (!strcmp(site_names[i], name))
			return i;
	return -1;
}

const char *pcost_stanford_site_suffix(int site)
{
	return site >= 0 && site < PCOST_STANFORD_NSITES ? site_ids[site] : NULL;
}

int pcost_stanford_site_provider(int v, int site, char *buf, size_t len)
{
	if (!pcost_stanford_provider(v) || !pcost_stanford_site_name(site))
		return -EINVAL;
	if (site)
		snprintf(buf, len, "%s_%s", variants[v].provider, site_ids[site]);
	else
		snprintf(buf, len, "%s", variants[v].provider);
	return 0;
}

/* Variant v in a code layout and a site encoding (the encodings exist in the default layout). */
static int run_build(int v, int layout, int site, unsigned mask, uint64_t reps,
		     uint64_t hits[PCOST_SK_N])
{
	if (v == PCOST_STANFORD_LTTNG && !site && !layout) {
		pcost_stanford_fn fn = (pcost_stanford_fn)pcost_lttng_sym("pcost_stanford_lttng");

		return fn ? fn(mask, reps, hits) : -ENOENT;
	}
	if (v < 0 || v >= PCOST_STANFORD_NVARIANTS || layout < 0 ||
	    layout >= PCOST_STANFORD_NLAYOUTS || site < 0 || site >= PCOST_STANFORD_NSITES ||
	    (site && layout))
		return -EINVAL;
	return (site ? site_fns[site][v] : variants[v].fn[layout])(mask, reps, hits);
}

int pcost_stanford_run(int v, unsigned mask, uint64_t reps, uint64_t hits[PCOST_SK_N])
{
	return run_build(v, 0, 0, mask, reps, hits);
}

/* One thread's run of the kernels: what it was given, what it counted and returned. */
struct sk_job {
	int v, layout, site;
	unsigned mask;
	uint64_t reps;
	struct sk_thread {
		uint64_t hits[PCOST_SK_N];
		int bad;
	} * t;
};

static void sk_thread_run(void *arg, unsigned i)
{
	struct sk_job *j = arg;

	j->t[i].bad = run_build(j->v, j->layout, j->site, j->mask, j->reps, j->t[i].hits);
}

/*
 * Every thread's kernels right and its hits those of every other (the check,
 * into res); their sums into hits.  0, or -errno when the kernels could not run.
 */
static int sk_threads_check(const struct sk_job *j, unsigned n, uint64_t hits[PCOST_SK_N],
			    struct pcost_wl_result *res)
{
	const char *v = stanford_variant_name(j->v);

	memset(hits, 0, sizeof(uint64_t) * PCOST_SK_N);
	for (unsigned i = 0; i < n; i++) {
		int bad = j->t[i].bad;

		if (bad == -ENOENT)
			return -ENOENT; /* no LTTng build: said already */
		if (bad < -1)
			return error("stanford: the kernels could not run (variant %s): %s", v,
				     strerror(-bad)),
			       bad;
		pcost_wl_check(res, bad < 0, "kernel %s computed a wrong result (thread %u)",
			       bad >= 0 ? kernel_names[bad] : "", i + 1);
		pcost_wl_check(res, !memcmp(j->t[i].hits, j->t[0].hits, sizeof(j->t[0].hits)),
			       "thread %u made other hits than thread 1", i + 1);
		for (int k = 0; k < PCOST_SK_N; k++)
			hits[k] += j->t[i].hits[k];
	}
	return 0;
}

/* The facts after the run: events, variant, layout, site, threads, each kernel's hits. */
static void sk_report(const struct pcost_params *p, unsigned mask, const uint64_t hits[PCOST_SK_N],
		      struct pcost_wl_result *res)
{
	int v = (int)p->v[P_VARIANT];
	size_t off = strlen(res->extra);

	snprintf(res->extra + off, sizeof(res->extra) - off, " variant=%s layout=%s",
		 stanford_variant_name(v), layout_names[p->v[P_LAYOUT]]);
	/* From strlen, not snprintf's return: a cut line must not move off past the end. */
	off = strlen(res->extra);
	if (v != PCOST_STANFORD_LTTNG) /* a tracepoint is no probe-site encoding */
		snprintf(res->extra + off, sizeof(res->extra) - off, " site=%s",
			 site_names[p->v[P_SITE]]);
	pcost_wl_report_threads(res, (unsigned)p->v[P_THREADS]);
	res->events = 0;
	for (int i = 0; i < PCOST_SK_N; i++) {
		off = strlen(res->extra);
		res->events += hits[i];
		if (mask & (1u << i) && off < sizeof(res->extra))
			snprintf(res->extra + off, sizeof(res->extra) - off, " hits_%s=%llu",
				 kernel_names[i], (unsigned long long)hits[i]);
	}
}

static int stanford_run(const struct pcost_params *p, struct pcost_wl_result *res)
{
	unsigned n = (unsigned)p->v[P_THREADS];
	int k = (int)p->v[P_KERNEL];
	struct sk_job j = { (int)p->v[P_VARIANT], (int)p->v[P_LAYOUT],
			    (int)p->v[P_SITE],	  k == 0 ? (1u << PCOST_SK_N) - 1 : 1u << (k - 1),
			    p->v[P_SCALE],	  NULL };
	uint64_t hits[PCOST_SK_N];
	int bad;

	if ((j.site || j.v == PCOST_STANFORD_LTTNG) && j.layout) {
		error("stanford: the code layouts other than default exist for the SDT builds' nop sites "
		      "only");
		return -EINVAL;
	}
	prctl(PR_SET_NAME, "pcost-stanford");
	/* Load the LTTng build (liblttng-ust registers with the session daemon) before timing. */
	if (j.v == PCOST_STANFORD_LTTNG && !pcost_lttng_sym("pcost_stanford_lttng"))
		return -ENOENT;
	j.t = xcalloc(n, sizeof(*j.t));
	bad = pcost_wl_threads_run(n, p->v[P_CLOCK] == 1 ? PCOST_WL_CPU : PCOST_WL_WALL,
				   sk_thread_run, &j, &res->timed_ns);
	if (j.v != PCOST_STANFORD_LTTNG)
		pcost_wl_report_trampoline(res);
	if (!bad)
		bad = sk_threads_check(&j, n, hits, res);
	free(j.t);
	if (bad)
		return bad;
	sk_report(p, j.mask, hits, res);
	return 0;
}

const struct pcost_workload pcost_wl_stanford = {
	.name = "stanford",
	.summary = "Stanford kernels with SDT probes on hot paths (seed 002), exact hit counts",
	.unit = "hit",
	.size_key = "scale",
	.params = params,
	.run = stanford_run,
};
