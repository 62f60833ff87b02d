// SPDX-License-Identifier: MIT
/* hist: a log-linear latency histogram with bounded relative error, after HdrHistogram. */
#include "stats/hist.h"

#include <math.h>
#include <string.h>

void pcost_hist_init(struct pcost_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

/*
 * Below 2 x SUB a value is its own bucket.  Above, with e the index of its top
 * bit, the SUB_BITS bits under the top bit pick one of SUB buckets of width
 * 2^(e - SUB_BITS) in [2^e, 2^(e+1)).
 */
size_t pcost_hist_bucket_of(uint64_t v)
{
	unsigned e, shift;

	if (v < 2 * PCOST_HIST_SUB)
		return (size_t)v;
	e = 63u - (unsigned)__builtin_clzll(v);
	shift = e - PCOST_HIST_SUB_BITS;
	return (size_t)(e - PCOST_HIST_SUB_BITS + 1) * PCOST_HIST_SUB +
	       (size_t)((v >> shift) - PCOST_HIST_SUB);
}

uint64_t pcost_hist_bucket_lo(size_t b)
{
	size_t octave = b / PCOST_HIST_SUB;

	if (b < 2 * PCOST_HIST_SUB)
		return b;
	return (uint64_t)(PCOST_HIST_SUB + b % PCOST_HIST_SUB) << (octave - 1);
}

uint64_t pcost_hist_bucket_hi(size_t b)
{
	size_t octave = b / PCOST_HIST_SUB;

	if (b < 2 * PCOST_HIST_SUB)
		return b;
	return pcost_hist_bucket_lo(b) + ((1ULL << (octave - 1)) - 1);
}

void pcost_hist_record(struct pcost_hist *h, uint64_t v)
{
	h->bucket[pcost_hist_bucket_of(v)]++;
	h->count++;
	h->sum += (double)v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void pcost_hist_merge(struct pcost_hist *into, const struct pcost_hist *from)
{
	for (size_t b = 0; b < PCOST_HIST_BUCKETS; b++)
		into->bucket[b] += from->bucket[b];
	into->count += from->count;
	into->sum += from->sum;
	if (from->min < into->min)
		into->min = from->min;
	if (from->max > into->max)
		into->max = from->max;
}

double pcost_hist_quantile(const struct pcost_hist *h, double q)
{
	uint64_t rank, seen = 0;
	double mid;

	if (!h->count || !(q >= 0 && q <= 1))
		return NAN;
	rank = (uint64_t)ceil(q * (double)h->count);
	/* The smallest and the largest values are known exactly. */
	if (rank <= 1)
		return (double)h->min;
	if (rank >= h->count)
		return (double)h->max;
	for (size_t b = 0; b < PCOST_HIST_BUCKETS; b++) {
		seen += h->bucket[b];
		if (seen < rank)
			continue;
		mid = ((double)pcost_hist_bucket_lo(b) + (double)pcost_hist_bucket_hi(b)) / 2;
		if (mid < (double)h->min)
			return (double)h->min;
		return mid > (double)h->max ? (double)h->max : mid;
	}
	return (double)h->max; /* not reached: the buckets sum to count */
}

double pcost_hist_mean(const struct pcost_hist *h)
{
	return h->count ? h->sum / (double)h->count : NAN;
}
