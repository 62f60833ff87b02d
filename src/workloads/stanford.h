/* SPDX-License-Identifier: MIT */
/* stanford: variant and kernel names of the stanford workload, for `probecost probes`. */
#ifndef PCOST_WL_STANFORD_H
#define PCOST_WL_STANFORD_H

#include <stddef.h>
#include <stdint.h>

#include "workloads/stanford/kernels.h"

/* none, plain, volatile, plain-sem, volatile-sem (index 0 is the no-probe build). */
#define PCOST_STANFORD_NVARIANTS 5
/* The LTTng-UST build: a variant outside the binary (workloads/lttng.h), site nop only. */
#define PCOST_STANFORD_LTTNG 5

/*
 * Probe-site encodings: nop (what sdt.h emits), nop5, nop10, and nop5-nrz (a
 * nop5 in code built with -mno-red-zone, safe to optimize into a CALL).
 */
#define PCOST_STANFORD_NSITES 4

/* Code layouts of every build: default, then mk/probes.mk's STANFORD_LAYOUTS in order. */
#define PCOST_STANFORD_NLAYOUTS 10
const char *pcost_stanford_layout_name(int l);
/* Index of a layout name, -1 when unknown. */
int pcost_stanford_layout_find(const char *name);

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
/* Name of site encoding i ("nop5"), NULL when out of range; its index, -1 when unknown. */
const char *pcost_stanford_site_name(int site);
int pcost_stanford_site_find(const char *name);
/* What site encoding site adds to provider and symbol names ("", "nop5", "nop5_nrz"). */
const char *pcost_stanford_site_suffix(int site);
/* Provider of variant v in site encoding site ("stanford_plain_nop5"); -EINVAL for none. */
int pcost_stanford_site_provider(int v, int site, char *buf, size_t len);

#endif
