/* SPDX-License-Identifier: MIT */
/*
 * spawn: one timed run of a workload, the runner's building block: fork,
 * pin, exec, wait4, in the run's own process group, wall time on
 * CLOCK_MONOTONIC from the child's exec to its reaping, CPU and memory from
 * rusage, the workload's report line from PROBECOST_REPORT_FD.  (Starting a helper program and
 * capturing its output is core/proc.c.)
 */
#ifndef PCOST_SPAWN_H
#define PCOST_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/result.h"
#include "monitors/monitor.h"

struct pcost_outdigest;
struct pcost_runner_opts;

/* The variable a built-in workload reads to pin itself: a CPU list ("0", "0,2"). */
#define PCOST_WORKLOAD_CPUS_ENV "PROBECOST_WORKLOAD_CPUS"

/*
 * What a run's workload said on its report descriptor beyond the sample's
 * stored fields: its unit, why its check failed, and the fatal signal it
 * reported (workloads/process.h: pcost_wl_report_faults), for the runner's
 * verdict (run/verdict.h).
 */
struct pcost_run_said {
	char unit[32];	     /* unit=, "" when not said */
	char check_why[160]; /* why= of check=bad */
	char signal[16];     /* signal=: the fatal signal it died of ("SEGV"), "" none */
	long from_pid;	     /* from_pid=: who sent it, 0 when the CPU raised it */
	bool has_addr, has_ip, has_ip_vaddr;
	uint64_t addr;	    /* addr=: the faulting address */
	uint64_t ip;	    /* ip=: the interrupted instruction */
	uint64_t ip_vaddr;  /* ip_vaddr=: ip as an address of the executable's ELF file */
	char err_last[160]; /* the last line of its stderr (what a wrapper said last), "" */
};

/*
 * One run of argv (already wrapped) with the given extra environment; fills
 * *sample's timing, rusage, exit and report fields (check included) and *said
 * (may be NULL).
 * The building block of pcost_runner_measure, usable alone.  Returns 0 (see
 * sample->failed) or -EINTR.
 */
int pcost_run_once(const struct pcost_launch *l, const struct pcost_runner_opts *o, bool report_fd,
		   struct pcost_run_sample *sample, struct pcost_run_said *said);

/* The most of a run's output pcost_run_capture keeps: its last bytes. */
#define PCOST_OUTPUT_MAX (1u << 20)

/* What one run printed, for its figures (--metric) and its workload's facts. */
struct pcost_run_output {
	bool capture; /* in: stdout and stderr into buf (else stdout is /dev/null) */
	char *buf;    /* out: what it wrote on both, in order, the last PCOST_OUTPUT_MAX
				 * bytes, NUL-terminated (malloc'd, caller frees; NULL: none) */
	size_t len;
	char report[1024]; /* out: its PROBECOST_REPORT_FD line ("" when none) */
	/*
	 * in (NULL: none): stdout on a pipe of its own, read through this digest
	 * (--check-output: run/outcheck.h), and into buf too when captured
	 */
	struct pcost_outdigest *digest;
};

/*
 * pcost_run_once, and what the run printed into *out (see above).  Both
 * descriptors are one pipe of ours, read while it runs (no file, no size limit
 * on the command: what is past PCOST_OUTPUT_MAX is dropped from the front).
 */
int pcost_run_capture(const struct pcost_launch *l, const struct pcost_runner_opts *o,
		      bool report_fd, struct pcost_run_sample *sample, struct pcost_run_said *said,
		      struct pcost_run_output *out);

#endif
