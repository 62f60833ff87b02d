/* SPDX-License-Identifier: MIT */
/*
 * limits: bounds on what a session may ask for, shared by the commands that
 * parse them.  --threads: at most PCOST_THREADS_PER_CPU threads per CPU the
 * workload may run on; more measure the scheduler's time slicing rather than
 * the monitor, and each thread makes the workload's full count, so the run
 * grows with them (--threads 999 was 999 x 10,000,000 getppid).
 */
#ifndef PCOST_RUN_LIMITS_H
#define PCOST_RUN_LIMITS_H

#include <stdint.h>

#define PCOST_THREADS_PER_CPU 4

/* 0, or exit 2 after one line naming --threads N and the limit. */
int pcost_threads_check(uint64_t threads, uint64_t cpu_mask);

#endif
