/* SPDX-License-Identifier: MIT */
/*
 * stanford: the probe-heavy kernels of seed 002 (Hennessy's Stanford suite),
 * one SDT probe on each hot path.  kernels.c is compiled once per probe
 * variant by mk/probes.mk into differently named entry points, so all five
 * variants live in the probecost binary itself.
 *
 * Provider per variant: "stanford_plain", "stanford_volatile",
 * "stanford_plain_sem", "stanford_volatile_sem" (none has no probes); the probe
 * names are the kernel names below.  Every probe site also increments a plain
 * counter, in every variant, so the number of hits is known exactly.
 */
#ifndef PCOST_STANFORD_H
#define PCOST_STANFORD_H

#include <stdint.h>

enum pcost_stanford_kernel {
	PCOST_SK_PERM,
	PCOST_SK_TOWERS,
	PCOST_SK_QUEENS,
	PCOST_SK_INTMM,
	PCOST_SK_PUZZLE,
	PCOST_SK_QUICK,
	PCOST_SK_BUBBLE,
	PCOST_SK_TREE,
	PCOST_SK_FFT,
	PCOST_SK_N
};

/* Kernel (= probe) names, in enum order. */
#define PCOST_STANFORD_KERNEL_NAMES                                                                \
	{                                                                                          \
		"perm", "towers", "queens", "intmm", "puzzle", "quick", "bubble", "tree", "fft"    \
	}

/*
 * Run the kernels in mask (bit i = kernel i) reps times each, as the Stanford
 * driver does.  hits[] gets the number of times each probe site was executed.
 * Returns -1 when all kernels' self-checks pass, -ENOMEM when their data could
 * not be allocated, else the index of the first kernel whose result was wrong
 * (a build or transcription bug).  Every call works on data of its own, so
 * threads may run the kernels at once.
 */
typedef int (*pcost_stanford_fn)(unsigned mask, uint64_t reps, uint64_t hits[PCOST_SK_N]);

int pcost_stanford_none(unsigned mask, uint64_t reps, uint64_t hits[PCOST_SK_N]);
int pcost_stanford_plain(unsigned mask, uint64_t reps, uint64_t hits[PCOST_SK_N]);
int pcost_stanford_volatile(unsigned mask, uint64_t reps, uint64_t hits[PCOST_SK_N]);
int pcost_stanford_plain_sem(unsigned mask, uint64_t reps, uint64_t hits[PCOST_SK_N]);
int pcost_stanford_volatile_sem(unsigned mask, uint64_t reps, uint64_t hits[PCOST_SK_N]);
/* The LTTng-UST build, in build/lttng/pcost-lttng.so (dlopen'd, never linked in). */
int pcost_stanford_lttng(unsigned mask, uint64_t reps, uint64_t hits[PCOST_SK_N]);

/*
 * The same builds with their sites emitted as a 5-byte and a 10-byte nop, and
 * as a 5-byte nop in code compiled with -mno-red-zone (mk/probes.mk).
 */
#define PCOST_STANFORD_SITE_DECL(site)                                                             \
	int pcost_stanford_plain_##site(unsigned mask, uint64_t reps, uint64_t hits[PCOST_SK_N]);  \
	int pcost_stanford_volatile_##site(unsigned mask, uint64_t reps,                           \
					   uint64_t hits[PCOST_SK_N]);                             \
	int pcost_stanford_plain_sem_##site(unsigned mask, uint64_t reps,                          \
					    uint64_t hits[PCOST_SK_N]);                            \
	int pcost_stanford_volatile_sem_##site(unsigned mask, uint64_t reps,                       \
					       uint64_t hits[PCOST_SK_N]);
PCOST_STANFORD_SITE_DECL(nop5)
PCOST_STANFORD_SITE_DECL(nop10)
PCOST_STANFORD_SITE_DECL(nop5_nrz)

/*
 * Code-layout copies of each build (mk/probes.mk): compiled with other
 * alignments, padding or block order, SDT notes stripped (the probes
 * are listed once, from the default copies above; the dormant sites and
 * semaphore checks stay).  What a dormant probe costs is measured at each
 * layout, so the code moving is not taken for the probe.
 */
#define PCOST_STANFORD_LAYOUT_DECL(L)                                                              \
	int pcost_stanford_none_##L(unsigned, uint64_t, uint64_t[PCOST_SK_N]);                     \
	int pcost_stanford_plain_##L(unsigned, uint64_t, uint64_t[PCOST_SK_N]);                    \
	int pcost_stanford_volatile_##L(unsigned, uint64_t, uint64_t[PCOST_SK_N]);                 \
	int pcost_stanford_plain_sem_##L(unsigned, uint64_t, uint64_t[PCOST_SK_N]);                \
	int pcost_stanford_volatile_sem_##L(unsigned, uint64_t, uint64_t[PCOST_SK_N]);
PCOST_STANFORD_LAYOUT_DECL(a32)
PCOST_STANFORD_LAYOUT_DECL(a64)
PCOST_STANFORD_LAYOUT_DECL(a16)
PCOST_STANFORD_LAYOUT_DECL(a8)
PCOST_STANFORD_LAYOUT_DECL(noalign)
PCOST_STANFORD_LAYOUT_DECL(pad16)
PCOST_STANFORD_LAYOUT_DECL(pad24)
PCOST_STANFORD_LAYOUT_DECL(pad40)
PCOST_STANFORD_LAYOUT_DECL(bbsimple)

#endif
