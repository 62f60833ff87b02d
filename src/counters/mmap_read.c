// SPDX-License-Identifier: MIT
/*
 * counters/mmap_read: the seqlock read of a perf_event user page, with rdpmc
 * and time_enabled/time_running advanced in user space.  The protocol is the
 * one documented above struct perf_event_mmap_page in linux/perf_event.h.
 */
#include <errno.h>
#include <stdint.h>

#include "probecost/counters.h"

#define barrier() __asm__ __volatile__("" ::: "memory")

static uint64_t hw_rdpmc(unsigned counter, void *ctx)
{
	(void)ctx;
#if defined(__x86_64__) || defined(__i386__)
	uint32_t lo, hi;

	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
	return (uint64_t)hi << 32 | lo;
#else
	(void)counter;
	return 0;
#endif
}

static uint64_t hw_rdtsc(void *ctx)
{
	(void)ctx;
#if defined(__x86_64__) || defined(__i386__)
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
#else
	return 0;
#endif
}

int pcost_mmap_read_page(volatile const struct perf_event_mmap_page *pc,
			 const struct pcost_mmap_hooks *hooks, uint64_t *count, uint64_t *enabled,
			 uint64_t *running)
{
	uint64_t (*rdpmc)(unsigned, void *) = hooks && hooks->rdpmc ? hooks->rdpmc : hw_rdpmc;
	uint64_t (*rdtsc)(void *) = hooks && hooks->rdtsc ? hooks->rdtsc : hw_rdtsc;
	void *ctx = hooks ? hooks->ctx : NULL;
	uint64_t cnt, ena, run;
	uint32_t seq, idx;
	int rc;

	do {
		seq = pc->lock;
		barrier();
		ena = pc->time_enabled;
		run = pc->time_running;
		idx = pc->index;
		cnt = pc->offset;
		rc = 0;
		if (pc->cap_user_time && ena != run) {
			/* Advance both times to now: the kernel only updates them on sched events.
			 */
			uint64_t cyc = rdtsc(ctx), quot, rem, delta;
			uint16_t shift = pc->time_shift;
			uint32_t mult = pc->time_mult;

			/* A short (wrapping) clock counts only the low bits past time_cycles. */
			if (pc->cap_user_time_short)
				cyc = pc->time_cycles + ((cyc - pc->time_cycles) & pc->time_mask);

			quot = cyc >> shift;
			rem = cyc & (((uint64_t)1 << shift) - 1);
			delta = pc->time_offset + quot * mult + ((rem * mult) >> shift);
			ena += delta;
			if (idx)
				run += delta;
		}
		if (pc->cap_user_rdpmc && idx) {
			/* index is the hardware counter + 1; the value is pmc_width bits,
			 * sign-extended. */
			uint16_t width = pc->pmc_width;
			uint64_t pmc = rdpmc(idx - 1, ctx);

			if (width && width < 64) {
				/* Shift unsigned (a negative left shift is undefined), extend
				 * signed. */
				pmc <<= 64 - width;
				pmc = (uint64_t)((int64_t)pmc >> (64 - width));
			}
			cnt += pmc;
		} else {
			rc = -EOPNOTSUPP;
		}
		barrier();
	} while (pc->lock != seq);

	*count = cnt;
	*enabled = ena;
	*running = run;
	return rc;
}

uint64_t pcost_counter_scale(uint64_t count, uint64_t enabled, uint64_t running)
{
	if (!running || running >= enabled)
		return count;
	return (uint64_t)((unsigned __int128)count * enabled / running);
}
