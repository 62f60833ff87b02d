/* SPDX-License-Identifier: MIT */
/*
 * spawn: one timed run of a workload, the runner's building block: fork,
 * pin, exec, wait4, in the run's own process group, wall time from
 * CLOCK_MONOTONIC at fork to reap, CPU and memory from rusage, the workload's
 * report line from PROBECOST_REPORT_FD.  (Starting a helper program and
 * capturing its output is core/proc.c.)
 */
#ifndef PCOST_SPAWN_H
#define PCOST_SPAWN_H

#include <stdbool.h>
#include <stddef.h>

#include "core/result.h"
#include "monitors/monitor.h"

struct pcost_runner_opts;

/* The variable a built-in workload reads to pin itself: a CPU list ("0", "0,2"). */
#define PCOST_WORKLOAD_CPUS_ENV "PROBECOST_WORKLOAD_CPUS"

/*
 * One run of argv (already wrapped) with the given extra environment; fills
 * *sample's timing, rusage, exit and report fields.  The building block of
 * pcost_runner_measure, usable alone.  Returns 0 (see sample->failed) or -EINTR.
 */
int pcost_run_once(const struct pcost_launch *l, const struct pcost_runner_opts *o,
		   bool report_fd, struct pcost_run_sample *sample, char *unit, size_t unitlen);

#endif
