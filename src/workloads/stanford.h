/* SPDX-License-Identifier: MIT */
/* stanford: variant and kernel names of the stanford workload, for `probecost probes`. */
#ifndef PCOST_WL_STANFORD_H
#define PCOST_WL_STANFORD_H

#include <stdint.h>

#include "workloads/stanford/kernels.h"

/* none, plain, volatile, plain-sem, volatile-sem (index 0 is the no-probe build). */
#define PCOST_STANFORD_NVARIANTS 5

/* Code layouts of every build: default, a32, a64 (mk/probes.mk). */
#define PCOST_STANFORD_NLAYOUTS 3
const char *pcost_stanford_layout_name(int l);
/* Index of a layout name, -1 when unknown. */
int pcost_stanford_layout_find(const char *name);

/* Name of variant v ("plain-sem"), NULL when out of range. */
const char *pcost_stanford_variant_name(int v);
/* Index of a variant name, -1 when unknown. */
int pcost_stanford_variant_find(const char *name);
/* SDT provider of variant v ("stanford_plain_sem"); NULL for none. */
const char *pcost_stanford_provider(int v);
/* Kernel k's name, which is also its probe's name. */
const char *pcost_stanford_kernel_name(int k);
/*
 * Run variant v's kernels in this process (hits known exactly): -1 when all
 * self-checks pass, the index of a failing kernel, or -EINVAL.
 */
int pcost_stanford_run(int v, unsigned mask, uint64_t reps, uint64_t hits[PCOST_SK_N]);

#endif
