/* SPDX-License-Identifier: MIT */
/*
 * plan: what `probecost probes` measures, decided before anything runs: the
 * workload's builds (variants x site encodings x thread counts x code
 * layouts), the arming methods that fit each, one monitor per method and
 * build, and the configurations (monitor, what to run, hits expected) the
 * command hands to the runner in order.  Bad input is found here, with one
 * usage line, before any probe is armed.
 */
#ifndef PCOST_PROBES_PLAN_H
#define PCOST_PROBES_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probes/arm.h"
#include "probes/sdt.h"
#include "probes/site_safety.h"
#include "workloads/stanford.h"

#define PCOST_PROBE_MAX_SCALES 8
#define PCOST_PROBE_MAX_THREADS 8
#define PCOST_PROBE_MAX_MONITORS 128

/* What was asked on the command line. */
struct pcost_probe_request {
	const char *binary, *probe; /* --binary and --probe (a user's command), or NULL */
	const char *via, *variants, *kernel, *workload, *sites, *layouts; /* NULL: defaults */
	uint64_t scales[PCOST_PROBE_MAX_SCALES];
	size_t nscales;
	const unsigned *threads; /* --threads (nthreads 0: one thread) */
	size_t nthreads;
	uint64_t hits; /* --hits, when have_hits */
	bool have_hits;
	int cmd_argc; /* the command after '--' (with --binary) */
	char **cmd_argv;
};

/* One configuration: the monitor that arms (shared by a build's configurations) and the run. */
struct pcost_probe_config {
	struct pcost_monitor *mon;
	char *workload, *args, *variant; /* as recorded: "stanford", "variant=plain ...", "plain" */
	char **argv;			 /* what to execute, NULL-terminated */
	double scale;
	int64_t events;	  /* the runner's events: -1, from the workload's report */
	bool report_fd;	  /* a built-in workload: it reports on PROBECOST_REPORT_FD */
	int64_t expected; /* hits expected (-1: unknown) */
	bool facts_known; /* facts: its sites' facts (site_safety.h), merged */
	struct pcost_site_facts facts;
};

struct pcost_probe_wl;

struct pcost_probe_plan {
	const struct pcost_probe_wl *wl; /* the workload driven (plan.c's table) */
	const char *wl_name;		 /* its name ("stanford"), NULL with --binary */
	const struct pcost_probe_method *methods[12];
	size_t nmethods;
	char vbuf[256], *variants[16];
	size_t nvariants;
	int sites[PCOST_STANFORD_NSITES];
	size_t nsites;
	unsigned threads[PCOST_PROBE_MAX_THREADS];
	size_t nthreads;
	bool threads_given; /* --threads: rows say their thread count */
	int layouts[PCOST_STANFORD_NLAYOUTS];
	size_t nlayouts;
	int kernel;	       /* stanford: one kernel's index, -1: all */
	int64_t stanford_hits; /* stanford: hits of one repetition of the kernels run */
	struct pcost_monitor *mons[PCOST_PROBE_MAX_MONITORS];
	size_t nmons;
	/*
	 * Each method's monitor of each build, shared by the build's groups (its
	 * thread counts): one set of probe definitions per build, and one lttng
	 * session daemon (one per machine: a second would wait for the first).
	 */
	struct {
		const struct pcost_probe_method *m;
		const char *variant;
		int site;
		struct pcost_monitor *mon;
	} built[PCOST_PROBE_MAX_MONITORS];
	size_t nbuilt;
	struct pcost_site_file *sf; /* the binary, for its sites' facts; NULL: none known.
					   The caller opens it before pcost_probe_plan_build and
					   frees it. */
	uint64_t warned[256];	    /* sites warned about already (their addresses) */
	size_t nwarned;
	/* The configurations, in the order the runner gets them. */
	struct pcost_probe_config *cfg;
	size_t ncfg, cap;
};

/*
 * The built-in workload's shape (--workload, --variants, --sites, --threads,
 * --kernel), checked before the binary is read; 0 or an exit code (one usage
 * line printed).  Not called with --binary.
 */
int pcost_probe_plan_shape(const struct pcost_probe_request *q, struct pcost_probe_plan *pl);

/*
 * The methods and every configuration, from the probes l of path (the
 * probecost binary, or --binary); 0 or an exit code (error printed).  The
 * monitors are made here and armed only when the runner starts them.  With
 * pl->sf, each configuration carries its sites' facts, and a site that the
 * plan arms, that the kernel optimizes and whose red zone is live (or whose
 * arguments are read from below rsp) is warned about once.
 */
int pcost_probe_plan_build(const struct pcost_probe_request *q, struct pcost_probe_plan *pl,
			   const struct pcost_sdt_list *l, const char *path);

/* Only the dormant method: the dormant-cost study (every layout, adaptive blocks). */
bool pcost_probe_plan_dormant_only(const struct pcost_probe_plan *pl);

/* Free the configurations and the monitors (after the runner that used them is released). */
void pcost_probe_plan_release(struct pcost_probe_plan *pl);

#endif
