/* SPDX-License-Identifier: MIT */
/*
 * src/probes/: what `probecost probes` needs: the SDT notes of ELF files (sdt.h)
 * and the ways to arm a probe (this header), one file per method.
 *
 * arm: the ways `probecost probes` arms an SDT probe, each a row of a table
 * and each instance a monitor (monitors/monitor.h) the runner drives:
 *
 *   dormant     nothing attached (the baseline)
 *   uprobe      perf_event_open on the uprobe PMU, path + offset, with the
 *               semaphore's ref_ctr_offset; counts hits in the kernel
 *   ftrace      a uprobe event in tracefs uprobe_events, enabled in a private
 *               trace instance (recording into its ring buffer)
 *   perf-probe  `perf probe -x BIN sdt_PROV:NAME` definitions + `perf stat -e`
 *   bpftrace    usdt:BIN:PROV:NAME { @ = count(); }
 *   stap        SystemTap process("BIN").mark("NAME"), where it can build modules
 *   stap-bpf    the same through SystemTap's BPF runtime (stapbpf), no module
 *   lttng       LTTng-UST tracepoints of the workloads' lttng build, with a
 *               private session daemon (no probe site: the tracer is compiled in)
 *
 * Everything an instance registers (perf fds, tracefs events and instances,
 * perf probe definitions, helper processes) is undone by cleanup(), by the
 * cleanup.h stack on exit, and by async-signal-safe undo functions on a second
 * Ctrl-C; closing a uprobe fd or disabling an event also brings the
 * semaphores back to zero (the kernel owns ref_ctr).
 */
#ifndef PCOST_PROBES_ARM_H
#define PCOST_PROBES_ARM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/registry.h"
#include "monitors/monitor.h"

/*
 * One probe site to arm: what the SDT reader found, or a function (the uprobe
 * workload's targets): then symbol names it for the tools that take symbols
 * (perf probe, bpftrace), provider:name is the event's group and name, and
 * retprobe asks for a return probe.
 */
struct pcost_probe_site {
	char provider[64], name[64];
	uint64_t pc_offset, sem_offset; /* file offsets; sem_offset 0: no semaphore */
	char symbol[64];		/* "" for an SDT site */
	uint64_t vaddr;			/* its ELF address (perf probe takes a function's) */
	bool retprobe;
	bool args_below_rsp; /* an argument is read from below rsp (site_safety.h) */
};

struct pcost_probe_method {
	const char *name;
	const char *summary;
	const char *tool, *package; /* a tool it runs and its Debian package, or NULL */
	const struct pcost_monitor_ops *ops;
	/* Extra checks (tracefs, PMU, kernel support); NULL: the tool is enough. */
	bool (*available)(char *why, size_t len);
};

/* An armed-probe monitor instance (the monitor is embedded first). */
struct pcost_probe_arm {
	struct pcost_monitor mon;
	const struct pcost_probe_method *method;
	char path[256];
	size_t nsites;
	struct pcost_probe_site *sites;
	uint64_t dev, ino; /* the file armed: a rebuilt binary is a new inode */
	int undo;	   /* cleanup.h handle, -1 when nothing is registered */
	void *priv;	   /* the method's state */
};

#define PCOST_PROBE_ARM(m) container_of((m), struct pcost_probe_arm, mon)

extern const struct pcost_probe_method pcost_probe_dormant, pcost_probe_uprobe, pcost_probe_ftrace,
	pcost_probe_perf_probe, pcost_probe_bpftrace, pcost_probe_stap, pcost_probe_lttng,
	pcost_probe_stap_bpf;

/* The table, in the order the report prints it; NULL-terminated. */
extern const struct pcost_probe_method *const pcost_probe_methods[];

const struct pcost_probe_method *pcost_probe_method_find(const char *name);
/* Usable here?  false and the reason (package, mount, sysctl) when not. */
bool pcost_probe_method_available(const struct pcost_probe_method *m, char *why, size_t len);

/*
 * A monitor arming the n sites of path (absolute, pcost_sdt_path_ok) with
 * method m; sites are copied.  NULL + a line in err on bad input.  Free with
 * pcost_monitor_free().
 */
struct pcost_monitor *pcost_probe_arm_create(const struct pcost_probe_method *m, const char *path,
					     const struct pcost_probe_site *sites, size_t n,
					     char *err, size_t len);

/* The distinct provider:name pairs of a's sites: indices of their first site. */
size_t pcost_probe_arm_distinct(const struct pcost_probe_arm *a, size_t *first, size_t max);

/*
 * The uprobe method arms only these CPUs (bit i = CPU i; 0: every CPU): set it
 * to the workload's pinning, since each armed CPU adds a consumer to every hit.
 */
void pcost_probe_uprobe_set_cpus(uint64_t mask);

/*
 * Remove the tracefs events and instances of probecost processes that died
 * without cleaning up (groups pcost_PID_N of ftrace, pcost_PID_pp of perf
 * probe's function probes, with PID gone); returns how many events were removed.
 */
int pcost_probe_ftrace_reap_stale(void);

/* The tracers that run beside the workload (bpftrace, stap, stap-bpf): via_tooltrace.c. */
extern const struct pcost_monitor_ops pcost_tool_ops;
/*
 * stap-bpf's kernel build tree into tree: the running kernel's, or one written
 * from /proc/config.gz into a temporary directory (*undo: its cleanup.h handle,
 * which removes it).  0 or -errno with a line in err.
 */
int pcost_stap_bpf_tree(char *tree, size_t len, int *undo, char *err, size_t elen);

/* tracefs mount point with uprobe_events ("/sys/kernel/tracing"), or NULL. */
const char *pcost_tracefs(void);
/*
 * *t: the tracefs a method writes uprobe events to, mounted now (as root) when
 * it is not; 0, or -errno with err set (by available() when mounting did not
 * make it usable).
 */
int pcost_probe_tracefs_need(const char **t, bool (*available)(char *why, size_t len), char *err,
			     size_t len);

#endif
