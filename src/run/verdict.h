/* SPDX-License-Identifier: MIT */
/*
 * verdict: whose doing a finished run's failure was, the program's or the
 * tool's (core/result.h: enum pcost_fault), decided by the runner after each
 * run from what it saw and what the workload said (spawn.h).  The rules, in
 * order; the first that holds decides:
 *
 *   1. the workload reported a fatal signal (a fault line)   PROGRAM, failed:
 *      "killed by SIGSEGV at fft+0x4a (INSN), address 0x10"
 *   2. it reported check=bad                                 PROGRAM, failed
 *   3. probes: its own hit count differs from the hits expected
 *                                                            PROGRAM, failed
 *   3a. a wrapper that hides its program's fatal signal (perf stat: exit 0)
 *      said it in its last line ("PROGRAM: Segmentation fault") PROGRAM, failed
 *   4. the monitor failed (could not wrap, start, stop; the dormant
 *      one's check that the binary is still the one armed too) TOOL
 *   5. the run failed (exit status, signal, timeout):
 *      plain or dormant run (nothing between probecost and the program),
 *      attach and preload monitors (the status is the program's own)
 *                                                            PROGRAM
 *      a timeout                                             TOOL
 *      a wrapper's status: the program's where the wrapper passes it on
 *      and did not say it failed itself (verdict.c's table of wrappers:
 *      strace passes exit status and signal and says "strace: ..." of its
 *      own errors; perf stat passes the exit status, hides a signal and
 *      exits 129 or 255 itself; ltrace and perf trace pass nothing on;
 *      any other wrapper is taken to pass the exit status on, as env,
 *      taskset and nice do, and to exit 125-127 itself)     PROGRAM
 *      otherwise (it could not start, died of a signal it does not pass
 *      on, or said its own error)                            TOOL
 *   5a. --check-output: its stdout (less what --output-filter drops) is
 *      none of the plain or dormant runs' outputs          PROGRAM, failed:
 *      "stdout differs from the plain runs' at line 2: 'traced: 1' (plain:
 *      'traced: 0')"
 *   6. a built-in workload that exited 0 without its report  TOOL, failed
 *      (the tool hid how it ended); in a plain run           PROGRAM
 *   7. probes: the tool counted fewer hits than the program made and its
 *      note does not say it lost them                        TOOL (not failed:
 *      the run is timed; the count is not trusted)
 *   8. otherwise                                             NONE
 *
 * A program's failure is changed-program only when its plain or dormant runs
 * did not fail (stats/outcome.h decides the row's outcome).
 */
#ifndef PCOST_VERDICT_H
#define PCOST_VERDICT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/result.h"
#include "monitors/monitor.h"
#include "run/spawn.h"

struct pcost_verdict_in {
	enum pcost_monitor_kind kind; /* the monitor's: BASELINE for plain and dormant runs */
	const char *monitor;	      /* its name, for the reasons */
	bool tool_failed;	      /* it failed itself: could not wrap, start or stop */
	bool report_fd;		      /* a built-in workload, which reports its facts */
	int64_t expected;	      /* probes: hits expected (> 0: checked against its own) */
	const char *program;	      /* the workload's executable, to name where it died */
	char wrapper[64]; /* a wrapper's tool and first word ("perf stat"): pcost_verdict_wrapper */
	char output[240]; /* --check-output: how its stdout differs (run/outcheck.h), "" not */
	const struct pcost_run_said *said;
};

/* Name the wrapper of a run whose wrapped argv is argv (WRAP monitors: after their wrap()). */
void pcost_verdict_wrapper(struct pcost_verdict_in *in, char *const *argv);

/* Decide smp->fault; a program that ran differently also makes the run failed with its reason. */
void pcost_run_verdict(struct pcost_run_sample *smp, const struct pcost_verdict_in *in);

#endif
