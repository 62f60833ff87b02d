/* SPDX-License-Identifier: MIT */
/*
 * sdtargs: the loop of the sdtargs workload, built once per probe-site
 * encoding (mk/probes.mk compiles sdtargs.c again with -DSDTARGS_SITE=<s>,
 * provider pcost_args_<s>): sdt.h's nop, nop5, nop10, and nop5 in code built
 * with -mno-red-zone (site nop5-nrz).
 */
#ifndef PCOST_WL_SDTARGS_H
#define PCOST_WL_SDTARGS_H

#include <stdint.h>

/* What a thread counted and summed after its site, for the workload's check. */
struct pcost_sdtargs_count {
	uint64_t passes, sum;
};

/*
 * What each thread runs: the probe variant (0 none, a0, a1, a3, a6, expensive,
 * -sem), loops; c[t]: what thread t counted.
 */
struct pcost_sdtargs_job {
	unsigned variant;
	uint64_t loops;
	struct pcost_sdtargs_count *c;
};

/* The loop of thread t (arg: a struct pcost_sdtargs_job), one per site encoding. */
void pcost_sdtargs_loop(void *arg, unsigned t);
void pcost_sdtargs_loop_nop5(void *arg, unsigned t);
void pcost_sdtargs_loop_nop10(void *arg, unsigned t);
void pcost_sdtargs_loop_nop5_nrz(void *arg, unsigned t);

#endif
