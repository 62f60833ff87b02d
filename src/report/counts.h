/* SPDX-License-Identifier: MIT */
/*
 * report/counts: print what a counting run counted (core/counted.h) as
 * text, JSON or CSV.  A figure that was not counted is n/a (text), null
 * (JSON) or an empty field (CSV), with its reason.
 *
 * JSON: {"probecost": VERSION, "kind": "count", "command", "exe",
 *        "exit_status": N|null, "signal": "SEGV"|null, "failed": "exit 3"|null,
 *        "timed_out", "interrupted", "wall_ns", "user_ns", "sys_ns", "left_running",
 *        "counts": {KIND: N|null, ...}, "sources": {KIND: "counter"|null, ...},
 *        "not_counted": {KIND: "why", ...},
 *        "syscalls_by_nr": {"source", "why", "lost_tasks", "new_task_calls",
 *                           "counts": [{nr, name, count, new_task}]},
 *        "probes": {"binary", "source", "why", "hits": [{provider, name, sites, hits}]}}
 * CSV: event,count,unit,counter; one row per kind, then "syscall:NAME" (or
 * "syscall:NR") rows, then "probe:PROVIDER:NAME" rows.
 */
#ifndef PCOST_REPORT_COUNTS_H
#define PCOST_REPORT_COUNTS_H

#include <stdio.h>

#include "core/counted.h"
#include "core/format.h"

/* Print c in format f (text, json or csv); 0, or -EINVAL for another format. */
int pcost_report_evcount(const struct pcost_evcount *c, enum pcost_format f, FILE *out);

#endif
