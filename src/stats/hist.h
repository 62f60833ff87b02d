/* SPDX-License-Identifier: MIT */
/*
 * hist: a log-linear histogram of unsigned integers (latencies in ns), after
 * HdrHistogram: values below 256 are kept exactly, and every power of two above
 * is cut into PCOST_HIST_SUB equal buckets, so a bucket is at most 1/128 of its
 * smallest value wide (0.78%) and its midpoint is within 1/256 (0.39%) of any
 * value in it.  Fixed size (58 KiB), no allocation: record() is an index and
 * an increment.
 *
 * Use: pcost_hist_init(&h); pcost_hist_record(&h, ns) per value;
 *      pcost_hist_quantile(&h, 0.99) ...
 */
#ifndef PCOST_HIST_H
#define PCOST_HIST_H

#include <stddef.h>
#include <stdint.h>

#define PCOST_HIST_SUB_BITS 7
#define PCOST_HIST_SUB (1u << PCOST_HIST_SUB_BITS)
/* Buckets 0..255 hold one value each; then 128 per power of two up to 2^64. */
#define PCOST_HIST_BUCKETS (PCOST_HIST_SUB * (64 - PCOST_HIST_SUB_BITS + 1))

struct pcost_hist {
	uint64_t count;
	uint64_t min, max; /* exact; min is UINT64_MAX while empty */
	double sum;	   /* of the values, for the exact mean */
	uint64_t bucket[PCOST_HIST_BUCKETS];
};

void pcost_hist_init(struct pcost_hist *h);
void pcost_hist_record(struct pcost_hist *h, uint64_t v);
/* Add every value of from into into. */
void pcost_hist_merge(struct pcost_hist *into, const struct pcost_hist *from);

/* The bucket v falls in, and the smallest and largest values of bucket b. */
size_t pcost_hist_bucket_of(uint64_t v);
uint64_t pcost_hist_bucket_lo(size_t b);
uint64_t pcost_hist_bucket_hi(size_t b);

/*
 * The q-quantile (0 <= q <= 1) by nearest rank: the value of rank ceil(q * count)
 * (at least 1) in ascending order, given as the midpoint of its bucket, clamped to
 * the exact min and max; ranks 1 and count give the exact min and max.  NAN when empty.
 */
double pcost_hist_quantile(const struct pcost_hist *h, double q);
/* The exact mean; NAN when empty. */
double pcost_hist_mean(const struct pcost_hist *h);

#endif
