// SPDX-License-Identifier: MIT
/* monitors/monitor_table: the `run` monitor table, availability with the fix, and `list monitors` rows. */
#include "monitors/monitor_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/registry.h"
#include "core/tracefs.h"

const struct pcost_monitor_def *const pcost_monitor_defs[] = {
	&pcost_monitor_def_none,
	&pcost_monitor_def_perf_stat,
	&pcost_monitor_def_perf_record,
	&pcost_monitor_def_perf_trace,
	&pcost_monitor_def_strace,
	&pcost_monitor_def_strace_count,
	&pcost_monitor_def_strace_seccomp,
	&pcost_monitor_def_ltrace,
	&pcost_monitor_def_valgrind,
	&pcost_monitor_def_memcheck,
	&pcost_monitor_def_bpftrace_syscalls,
	&pcost_monitor_def_tracepoint_syscalls,
	&pcost_monitor_def_perf_record_system,
	&pcost_monitor_def_delay,
	&pcost_monitor_def_inject,
	NULL,
};

const struct pcost_monitor_def *pcost_monitor_def_find(const char *name)
{
	const struct pcost_monitor_def *d;

	for_each_monitor_def(d)
		if (!strcmp(d->name, name))
			return d;
	return NULL;
}

bool pcost_monitor_def_available(const struct pcost_monitor_def *d, char *why, size_t len)
{
	if (d->tool && !pcost_which(d->tool, NULL, 0)) {
		snprintf(why, len, "'%s' not found: install package %s", d->tool, d->package);
		return false;
	}
	return !d->available || d->available(why, len);
}

static int read_int(const char *path, int def)
{
	char buf[32];

	if (pcost_read_file(path, buf, sizeof(buf)) <= 0)
		return def;
	return atoi(buf);
}

bool pcost_monitor_perf_ok(char *why, size_t len)
{
	/* perf_event_open(2): unprivileged per-process counting needs paranoid <= 2. */
	int p = read_int("/proc/sys/kernel/perf_event_paranoid", 2);

	if (geteuid() != 0 && p > 2) {
		snprintf(why, len,
			 "kernel.perf_event_paranoid is %d: set it to 2 or less "
			 "(sysctl kernel.perf_event_paranoid=2) or run as root",
			 p);
		return false;
	}
	return true;
}

/* The syscall tracepoints, through tracefs (mounted by us as root when it is not). */
#define RAW_SYSCALLS "events/raw_syscalls/sys_enter/id"

bool pcost_monitor_perf_trace_ok(char *why, size_t len)
{
	if (geteuid() != 0) {
		snprintf(why, len,
			 "perf trace needs the syscall tracepoints: run as root "
			 "(or grant CAP_PERFMON and tracefs access)");
		return false;
	}
	return pcost_tracefs_usable(RAW_SYSCALLS, false, why, len);
}

bool pcost_monitor_perf_system_ok(char *why, size_t len)
{
	/* perf_event_open(2): a system-wide (pid -1) event needs paranoid <= 0 or CAP_PERFMON. */
	int p = read_int("/proc/sys/kernel/perf_event_paranoid", 2);

	if (geteuid() != 0 && p > 0) {
		snprintf(why, len,
			 "perf record -a samples every CPU: kernel.perf_event_paranoid is "
			 "%d, set it to 0 or less (sysctl kernel.perf_event_paranoid=0) or run as "
			 "root",
			 p);
		return false;
	}
	return true;
}

static bool monitor_bpf_ok(char *why, size_t len)
{
	if (geteuid() != 0) {
		snprintf(why, len, "bpftrace needs CAP_BPF and CAP_PERFMON: run as root");
		return false;
	}
	return true;
}

bool pcost_monitor_bpftrace_syscalls_ok(char *why, size_t len)
{
	/* bpftrace resolves tracepoint:raw_syscalls:sys_enter through tracefs. */
	return monitor_bpf_ok(why, len) && pcost_tracefs_usable(RAW_SYSCALLS, false, why, len);
}

bool pcost_monitor_tracefs_ok(char *why, size_t len)
{
	return pcost_tracefs_usable("instances", true, why, len) &&
	       pcost_tracefs_usable("events/raw_syscalls/enable", false, why, len);
}

/* ---- none: the baseline --------------------------------------------------- */

static const struct pcost_monitor_ops none_ops = { .kind = PCOST_MON_BASELINE };
static struct pcost_monitor none_instance = { .ops = &none_ops, .name = "none" };

static struct pcost_monitor *none_new(const char *arg, char *err, size_t len)
{
	if (arg) {
		snprintf(err, len, "monitor 'none' takes no ':' arguments");
		return NULL;
	}
	return &none_instance; /* static: ops->free is NULL */
}

const struct pcost_monitor_def pcost_monitor_def_none = {
	"none",
	PCOST_MON_BASELINE,
	"nothing watches: the baseline every monitor is compared to",
	NULL,
	NULL,
	NULL,
	none_new
};

/* ---- list ------------------------------------------------------------------ */

/* Rows that take "name:k=v,..." keys, and their keys. */
static const struct {
	const struct pcost_monitor_def *def;
	const struct pcost_param_desc *params;
} monitor_params[] = {
	{ &pcost_monitor_def_delay, pcost_monitor_delay_params },
	{ &pcost_monitor_def_perf_record, pcost_monitor_perf_record_params },
};

static const struct pcost_param_desc *params_of(const struct pcost_monitor_def *d)
{
	for (size_t i = 0; i < ARRAY_SIZE(monitor_params); i++)
		if (monitor_params[i].def == d)
			return monitor_params[i].params;
	return NULL;
}

size_t pcost_monitor_list_rows(struct pcost_list_row **rows)
{
	const struct pcost_monitor_def *d;
	size_t n = 0;

	for_each_monitor_def(d)
		n++;
	*rows = xcalloc(n + 2, sizeof(**rows));
	n = 0;
	for_each_monitor_def(d) {
		struct pcost_list_row *r = &(*rows)[n++];

		r->name = d->name;
		r->kind = pcost_monitor_kind_name(d->kind);
		r->summary = d->summary;
		r->params = params_of(d);
		r->available = pcost_monitor_def_available(d, r->why, sizeof(r->why));
	}
	(*rows)[n].name = pcost_monitor_def_custom.name;
	(*rows)[n].kind = "wrap";
	(*rows)[n].summary = pcost_monitor_def_custom.summary;
	(*rows)[n++].available = true;
	(*rows)[n].name = pcost_monitor_def_attach.name;
	(*rows)[n].kind = "attach";
	(*rows)[n].summary = pcost_monitor_def_attach.summary;
	(*rows)[n++].available = true;
	return n;
}
