// SPDX-License-Identifier: MIT
/*
 * stanford: the probe-heavy suite of seed 002 (towers, queens, intmm, puzzle,
 * quick, bubble, tree, fft, perm) in one of five probe variants, reporting
 * the exact number of probe hits.  The kernels are src/probes/stanford/.
 */
#include "workloads/stanford.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>

#include "workloads/stanford/kernels.h"
#include "workloads/workload.h"

static const char *const kernel_names[PCOST_SK_N] = PCOST_STANFORD_KERNEL_NAMES;

/* Variant names as users write them, their providers and entry points (one per code layout). */
#define LAYOUTS(v) { v, v##_a32, v##_a64 }
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

static const char *const layout_names[PCOST_STANFORD_NLAYOUTS] = { "default", "a32", "a64" };

/* Parameter indices: the order of params[] below. */
enum { P_SCALE, P_VARIANT, P_KERNEL, P_LAYOUT };

static const struct pcost_param_desc params[] = {
	[P_SCALE] = { "scale", PCOST_PARAM_U64, 1, 1, 1000000, NULL,
		      "repetitions of the whole suite (one is 289,264 probe hits)" },
	[P_VARIANT] = { "variant", PCOST_PARAM_ENUM, 1, 0, 0,
			"none|plain|volatile|plain-sem|volatile-sem",
			"probe build: none, plain or volatile arguments, with or without semaphore" },
	[P_KERNEL] = { "kernel", PCOST_PARAM_ENUM, 0, 0, 0,
		       "all|perm|towers|queens|intmm|puzzle|quick|bubble|tree|fft",
		       "run every kernel, or only this one" },
	[P_LAYOUT] = { "layout", PCOST_PARAM_ENUM, 0, 0, 0, "default|a32|a64",
		       "code layout: as built, or functions, loops and jumps aligned to 32 or 64 bytes" },
	{ NULL, 0, 0, 0, 0, NULL, NULL },
};

const char *pcost_stanford_variant_name(int v)
{
	return v >= 0 && v < PCOST_STANFORD_NVARIANTS ? variants[v].name : NULL;
}

int pcost_stanford_variant_find(const char *name)
{
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

static int run_layout(int v, int layout, unsigned mask, uint64_t reps, uint64_t hits[PCOST_SK_N])
{
	if (v < 0 || v >= PCOST_STANFORD_NVARIANTS || layout < 0 || layout >= PCOST_STANFORD_NLAYOUTS)
		return -EINVAL;
	return variants[v].fn[layout](mask, reps, hits);
}

int pcost_stanford_run(int v, unsigned mask, uint64_t reps, uint64_t hits[PCOST_SK_N])
{
	return run_layout(v, 0, mask, reps, hits);
}

static int stanford_run(const struct pcost_params *p, struct pcost_wl_result *res)
{
	uint64_t hits[PCOST_SK_N], total = 0;
	int v = (int)p->v[P_VARIANT], k = (int)p->v[P_KERNEL], lay = (int)p->v[P_LAYOUT];
	unsigned mask = k == 0 ? (1u << PCOST_SK_N) - 1 : 1u << (k - 1);
	size_t off;
	pcost_ns t0;
	int bad;

	prctl(PR_SET_NAME, "pcost-stanford");
	t0 = pcost_now_ns();
	bad = run_layout(v, lay, mask, p->v[P_SCALE], hits);
	res->timed_ns = pcost_now_ns() - t0;
	if (bad >= 0) {
		error("stanford: kernel '%s' computed a wrong result (variant %s)",
		      kernel_names[bad], variants[v].name);
		return -EIO;
	}
	off = (size_t)snprintf(res->extra, sizeof(res->extra), " variant=%s layout=%s",
			       variants[v].name, layout_names[lay]);
	for (int i = 0; i < PCOST_SK_N; i++) {
		total += hits[i];
		if (mask & (1u << i) && off < sizeof(res->extra))
			off += (size_t)snprintf(res->extra + off, sizeof(res->extra) - off,
						" hits_%s=%llu", kernel_names[i],
						(unsigned long long)hits[i]);
	}
	res->events = total;
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
