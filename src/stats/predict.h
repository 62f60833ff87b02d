/* SPDX-License-Identifier: MIT */
/*
 * predict: what a monitor will cost a command, from the command's counted
 * events and the machine's cost table (core/costs.h), before running it
 * under the monitor.  Pure: numbers in, numbers out, no I/O.
 *
 * The model.  A monitor's extra time on one run of the command is
 *
 *     E = F + sum_k c_k n_k
 *
 * F its fixed cost per run, c_k its cost per event of kind k (syscall,
 * context switch, task created, sample...), n_k the command's mean count of
 * k.  Which kinds a monitor pays for is the model's table (predict.c): strace
 * pays per syscall, context switch and task, perf stat per context switch
 * and task, bpftrace per syscall, perf record per sample (CPU time x its
 * frequency), context switch and task.  perf record also gets a side-band
 * term: its exit waits for its side-band thread's 1 s poll window, whose
 * phase depends on how long the command ran (predict.c).  The overhead is
 * O = E / T0, T0 the command's plain run time.
 *
 * Where it lands.  An event's cost is paid by the task that made the event,
 * on the CPU it ran on; tasks that ran side by side pay theirs side by side.
 * With P = the plain run's CPU time / its wall time (at least 1: the tasks
 * that ran at once, on average), each event term adds c_k n_k / P to the wall
 * time; the fixed cost is paid once, before and after the command, whole:
 *
 *     E = F + sum_k c_k n_k / P
 *
 * A pinned run (one CPU) has P = 1 by construction.
 *
 * A ptrace tracer's stop (strace's terms but the fixed cost and
 * strace-seccomp's untraced calls) is mostly the tracee waiting for the
 * tracer's wake-up, not CPU: tasks alive at once wait side by side whether
 * or not a CPU was free for them in the plain run.  Those terms are divided
 * by the larger of P and the tasks' concurrency C (the tasks' alive time
 * over the wall time, at most the CPUs the run may use); every other event
 * term (BPF programs, counters, samples: CPU in the task) by P.
 *
 * The interval (delta method, the terms independent).  Each cost's standard
 * error is its 95% interval's half-width over Student's t at its degrees of
 * freedom (1.96 when they are unknown); each count's is the standard error
 * of its mean over the counting runs (0 from one run: what one run counted is
 * taken as exact).  Then
 *
 *     var(E) = se_F^2 + sum_k (n_k^2 se_ck^2 + c_k^2 se_nk^2 + se_ck^2 se_nk^2) / P^2
 *     var(O) = (var(E) + O^2 se_T0^2) / T0^2
 *
 * (the first exact for products of independent factors, P taken as known;
 * the second to first order), each with Welch-Satterthwaite degrees of freedom over its
 * components, and the interval is the estimate +- t(0.975, df) x sd.
 */
#ifndef PCOST_PREDICT_H
#define PCOST_PREDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/costs.h"

/* What a counting run counts, the model's inputs. */
enum pcost_count_kind {
	PCOST_CNT_SYSCALLS,
	PCOST_CNT_CSWITCHES,
	PCOST_CNT_FAULTS,
	PCOST_CNT_TASKS,
	PCOST_CNT_EXECS,
	PCOST_CNT_TASK_CLOCK_NS, /* CPU time of every task, ns (samples = this x frequency) */
	PCOST_CNT_N
};

struct pcost_count_nr {
	char name[32];	      /* "getppid" */
	double n, se;	      /* mean count and its standard error */
	double new_n, new_se; /* of which in new tasks (below): the same */
};

/* The command's counts (means over the counting runs) and its plain run time. */
struct pcost_counts {
	double n[PCOST_CNT_N];	    /* mean per run; NaN when not counted */
	double se[PCOST_CNT_N];	    /* standard error of that mean (0: one run, or exact) */
	char why[PCOST_CNT_N][160]; /* why a kind was not counted */
	double df;		    /* counting runs - 1 (0: one run) */
	bool by_nr_counted;	    /* syscalls by name (strace-seccomp's traced set) */
	char by_nr_why[160];
	size_t nby_nr;
	struct pcost_count_nr *by_nr;
	/*
	 * every call made by a process the command created, before its first
	 * exec, and its standard error: strace --seccomp-bpf stops at each (0
	 * when not counted by name)
	 */
	double new_task, new_task_se;
	double base_ns, base_se, base_df; /* plain run: mean wall time, its standard error, df */
	/*
	 * plain run: its tasks' CPU time over its wall time, the tasks that ran
	 * side by side (1: one at a time; NaN: not measured, taken as 1)
	 */
	double parallel;
	/*
	 * plain run: its tasks' alive time over its wall time, at most the CPUs
	 * it may run on: the tasks alive at once, runnable or waiting (NaN: not
	 * measured, taken as parallel)
	 */
	double concurrency;
	char concurrency_why[160]; /* why it was not measured */
	/*
	 * plain run: the CPUs it may run on, and the CPU time (steal included) the
	 * machine's other processes took on them over its wall time: what of
	 * the run's spare CPUs the rest of the machine filled (NaN: not measured,
	 * taken as none)
	 */
	double cpus, others;
};

/* One term of a prediction: count x cost. */
struct pcost_prediction_term {
	enum pcost_cost_event event;
	double count, count_se;		  /* per run (1 for the fixed cost) */
	double cost_ns, cost_lo, cost_hi; /* the cost-table entry */
	double cost_se, cost_df;
	double overlap;	 /* the share of count x cost the wall time pays: 1 / the tasks'
			  * parallelism for an event's cost, 1 for a run's (0 taken as 1) */
	double extra_ns; /* count x cost x overlap */
	double share;	 /* extra_ns / the prediction's extra_ns */
};

struct pcost_prediction {
	char monitor[96];
	bool has_model; /* false: why says what is missing (never a 0) */
	char why[320];
	double extra_ns, extra_lo, extra_hi, extra_se, extra_df;
	double overhead, overhead_lo, overhead_hi, overhead_se, overhead_df; /* fractions */
	size_t nterms;
	struct pcost_prediction_term terms[PCOST_CE_N];
	int dominant; /* index in terms of the largest contribution, -1 none */
	bool service; /* the monitor watches a service (pcost_predict_service): its events */
};

/*
 * Predict monitor's cost from the table and the counts.  Always fills *p:
 * has_model false with why when the model has no row for the monitor, the
 * table lacks an entry it needs (or has it unavailable or failed), or a count
 * it needs was not taken.
 */
void pcost_predict(const struct pcost_cost_table *t, const char *monitor,
		   const struct pcost_counts *c, struct pcost_prediction *p);

/*
 * A monitor that watches a service the command loads (predict --service: its
 * service form, attached to the service's processes before the command runs
 * and detached after): the service's events c (with the plain run's time and
 * the parallelism of the client and the service together) at its costs.  No
 * fixed cost: attaching and detaching happen outside the command's time.
 */
void pcost_predict_service(const struct pcost_cost_table *t, const char *monitor,
			   const struct pcost_counts *c, struct pcost_prediction *p);

/*
 * The arithmetic alone (what pcost_predict does once the terms are chosen):
 * terms[0..n) hold count, count_se, cost_ns, cost_se, cost_df; count_df is the
 * counts' df.  Fills each term's extra_ns and share, and p's extra, overhead
 * (against base_ns, base_se, base_df; NaN when base_ns is not positive), their
 * intervals and dominant.
 */
void pcost_predict_combine(struct pcost_prediction *p, double count_df, double base_ns,
			   double base_se, double base_df);

/*
 * The count the model prices monitor's event ev by, from c: 1 for the fixed
 * cost; a decoding tracer's syscalls by class (plain, decoded, directory,
 * and strace-seccomp's untraced ones) from the counts by name; samples as
 * CPU time x the frequency.  0, or -1 with why when it was not counted.
 * calibrate prices its workloads' loops with it too.
 */
int pcost_model_count(const char *monitor, enum pcost_cost_event ev, const struct pcost_counts *c,
		      double *n, double *se, char *why, size_t len);

/* A task's creation or exit, as the kernel's process events report it. */
struct pcost_task_event {
	double t_ns;	 /* when (CLOCK_MONOTONIC) */
	bool exit;	 /* false: the task was created */
	int pid, tgid;	 /* the task and its process */
	int parent_tgid; /* a created task's parent process (a thread's: its process's parent) */
};

/*
 * The tasks alive at once in the runs of root's children, from ev[0..n) in
 * time order: each process root creates is a run's first task, and every
 * task it or its descendants create (threads included) is the run's, alive
 * from its creation to its exit or the run's end (its first task's exit).
 * Returns the sum of the runs' tasks' alive time over the sum of their wall
 * time (first task's creation to its exit); NaN when no run began and ended
 * in ev.  Tasks of other processes are ignored.
 */
double pcost_task_concurrency(const struct pcost_task_event *ev, size_t n, int root);

/*
 * The share of the plain run's spare CPUs (c's CPUs less its P, at least
 * PCOST_SPARE_MIN) the machine's other processes left idle, in [0, 1]; 1 when
 * they were not measured.  A ptrace tracer is woken at each stop on an idle
 * CPU, and the tracees' waits overlap (C) only while there is one
 * (docs/predict.md).
 */
#define PCOST_SPARE_MIN 0.05
double pcost_spare_idle(const struct pcost_counts *c);

/*
 * How far apart, in CPUs taken by other processes, the cost table's runs and a
 * prediction's plain runs may be before predict says its ptrace tracers'
 * figures hold for the table's conditions only.
 */
#define PCOST_OTHERS_APART 0.5

/*
 * A ptrace tracer's stop costs what waking the tracer costs, and that depends on
 * the other CPUs: on an idle one the wake-up is most of it, beside busy work a
 * fraction (docs/predict.md).  When the plain runs' other processes (run_others,
 * in CPUs) and the cost table's runs' (table_others) differ by PCOST_OTHERS_APART
 * or more, and one of the n predictions p has a ptrace tracer's terms, the
 * warning that says so is written into msg and true returned; false (msg "")
 * otherwise, or where either figure is not finite.
 */
bool pcost_predict_conditions(const struct pcost_prediction *p, size_t n, double run_others,
			      double table_others, char *msg, size_t len);

/* The class a syscall of that name is priced in: SYSCALL, SYSCALL_DECODED or SYSCALL_DIR. */
enum pcost_cost_event pcost_syscall_class(const char *name);
/* The names the classes list (to count by name); how many were written. */
size_t pcost_model_syscall_names(const char **out, size_t max);

/* Standard error of an entry's figure from its interval and df (NaN when it has none). */
double pcost_cost_se(const struct pcost_cost_entry *e);

/* The events the model says monitor pays for (mask of 1 << pcost_cost_event), 0 when it has no
 * row; *why (may be NULL) gets the reason of a monitor with no model. */
unsigned pcost_model_events(const char *monitor, const char **why);

/*
 * The fingerprint fields that decide costs (kernel, CPU, hypervisor,
 * mitigations, tool versions): a table measured where any of them differs
 * from env_json is stale.  Returns how many differ and lists them into diff
 * ("kernel.release 6.1 -> 6.18; tool.strace ..."); -1 when a JSON text does
 * not parse.
 */
int pcost_costs_env_mismatch(const char *table_env_json, const char *env_json, char *diff,
			     size_t len);

/*
 * predict --verify: a prediction against what the run machinery measured
 * (the monitor's configuration analyzed against its paired plain runs).
 */
struct pcost_prediction_check {
	bool measured; /* false: why */
	char why[256];
	double overhead, overhead_lo, overhead_hi; /* measured, fractions */
	double extra_ns, extra_lo, extra_hi;	   /* measured */
	bool measured_in_predicted; /* the measured extra lies in the predicted interval */
	bool predicted_in_measured; /* the predicted extra lies in the measured interval */
	double error;		    /* predicted extra / measured extra - 1 */
};

struct pcost_config_stats;
/* Fill *k from p and the measured configuration's statistics (NULL: not measured, why). */
void pcost_prediction_check(const struct pcost_prediction *p, const struct pcost_config_stats *st,
			    const char *why, struct pcost_prediction_check *k);

/* Whether t has any entry of monitor's (under its own name or the one it is calibrated as). */
bool pcost_costs_have_monitor(const struct pcost_cost_table *t, const char *monitor);
/*
 * Copy older's entries of monitor measured under placement to the end of view
 * (a newer table that lacks them, predict's view); whether there were any.
 */
bool pcost_costs_borrow(struct pcost_cost_table *view, const struct pcost_cost_table *older,
			const char *monitor, const char *placement);

/*
 * The table of t[0..n) (newest first, as the store returns them) that prices
 * this machine (host, env_json): the newest complete one whose fingerprint
 * matches.  Returns its index; -1 when no table is this machine's (none of
 * host, why says so); -2 when this host's newest table is stale (another
 * kernel, CPU or tool version: why lists the fields that differ).
 */
int pcost_costs_pick(const struct pcost_cost_table *t, size_t n, const char *host,
		     const char *env_json, char *why, size_t len);

#endif
