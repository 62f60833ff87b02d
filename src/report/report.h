/* SPDX-License-Identifier: MIT */
/*
 * report: render a session in a format.  One renderer per session kind, each
 * owned by its area; all read only the result structs (and analyze.c), so a
 * stored session renders exactly as the live run printed it.
 */
#ifndef PCOST_REPORT_H
#define PCOST_REPORT_H

#include <stdio.h>

#include "report/format.h"
#include "core/result.h"

/* Renderers (weak: an area not built into this tree leaves its symbol NULL). */
int pcost_report_run(const struct pcost_session *s, enum pcost_format f, FILE *out)
	__attribute__((weak));
int pcost_report_probes(const struct pcost_session *s, enum pcost_format f, FILE *out)
	__attribute__((weak));
int pcost_report_counters(const struct pcost_session *s, enum pcost_format f, FILE *out)
	__attribute__((weak));

/* Dispatch on s->kind; -ENOSYS when that renderer is not built in. */
int pcost_report_session(const struct pcost_session *s, enum pcost_format f, FILE *out);

#endif
