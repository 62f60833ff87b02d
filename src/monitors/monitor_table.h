/* SPDX-License-Identifier: MIT */
/* monitors/monitor_table: what the adapters share with the table (private to monitors/). */
#ifndef PCOST_MONITOR_TABLE_H
#define PCOST_MONITOR_TABLE_H

#include "monitors/monitor.h"
#include "workloads/workload.h"

const struct pcost_monitor_def *pcost_monitor_def_find(const char *name);
/* The tool on $PATH (else "install package X") and the def's own check. */
bool pcost_monitor_def_available(const struct pcost_monitor_def *d, char *why, size_t len);

/* Permission checks shared by several rows. */
bool pcost_monitor_perf_ok(char *why, size_t len);
bool pcost_monitor_perf_trace_ok(char *why, size_t len);
bool pcost_monitor_perf_system_ok(char *why, size_t len);
bool pcost_monitor_bpftrace_syscalls_ok(char *why, size_t len);
bool pcost_monitor_tracefs_ok(char *why, size_t len);

extern const struct pcost_monitor_def pcost_monitor_def_none, pcost_monitor_def_perf_stat,
	pcost_monitor_def_perf_record, pcost_monitor_def_perf_trace, pcost_monitor_def_strace,
	pcost_monitor_def_strace_count, pcost_monitor_def_strace_seccomp, pcost_monitor_def_ltrace,
	pcost_monitor_def_valgrind, pcost_monitor_def_memcheck, pcost_monitor_def_bpftrace_syscalls,
	pcost_monitor_def_tracepoint_syscalls, pcost_monitor_def_perf_record_system,
	pcost_monitor_def_attach, pcost_monitor_def_delay, pcost_monitor_def_inject;

/* The keys of rows that take "name:k=v,..." (`list` shows them; the row's create() parses them). */
extern const struct pcost_param_desc pcost_monitor_delay_params[];
extern const struct pcost_param_desc pcost_monitor_perf_record_params[];

#endif
