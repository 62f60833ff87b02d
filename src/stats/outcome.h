/* SPDX-License-Identifier: MIT */
/*
 * outcome: how each configuration's runs ended, from its runs' faults
 * (core/result.h: whose doing a failure was, decided by run/verdict.h) and
 * its baseline's (the plain or dormant runs of the same build):
 *
 *   ok               every run ended well
 *   changed-program  the program failed (died of a signal, exited non-zero,
 *                    failed its own check, made other hits than expected)
 *                    under the monitor or armed probe, and did not in its
 *                    plain or dormant runs of the same session
 *   tool-failed      the monitor or arming method failed (did not start,
 *                    did not stop, crashed, hung, miscounted without saying so)
 *   program-failed   the program failed in its plain or dormant runs too (or
 *                    there are none): the tool is not to blame
 *   unknown          runs stored before probecost told these apart, whose
 *                    failure's reason does not say (or no run at all)
 *
 * A row's outcome is the worst of its runs (warm-up runs included), in the
 * order changed-program, tool-failed, program-failed, unknown, ok.
 */
#ifndef PCOST_OUTCOME_H
#define PCOST_OUTCOME_H

#include <stdbool.h>
#include <stddef.h>

#include "core/result.h"

enum pcost_outcome {
	PCOST_OUTCOME_OK,
	PCOST_OUTCOME_UNKNOWN,
	PCOST_OUTCOME_PROGRAM_FAILED,
	PCOST_OUTCOME_TOOL_FAILED,
	PCOST_OUTCOME_CHANGED_PROGRAM,
};

/* "ok", "unknown", "program-failed", "tool-failed", "changed-program". */
const char *pcost_outcome_name(enum pcost_outcome o);

/*
 * Whose doing run x's failure was: as recorded, or, for runs stored before it
 * was (PCOST_FAULT_UNKNOWN), from what they have: a run that did not fail is
 * NONE, a failed plain or dormant run (baseline) is the PROGRAM's, a monitor
 * that could not be prepared or started, or a hang, is the TOOL's; else UNKNOWN.
 */
enum pcost_fault pcost_sample_fault(const struct pcost_run_sample *x, bool baseline);

/*
 * The outcome of configuration i of s, a baseline itself when baseline, whose
 * baseline is configuration bi (-1: none); in one line in w what happened, in
 * how many runs; *noted: the monitor left a note on a run (w has it).
 * pcost_analyze calls it for every row (analyze.h: outcome, outcome_why).
 */
enum pcost_outcome pcost_outcome_of(const struct pcost_session *s, size_t i, bool baseline, int bi,
				    char *w, size_t len, bool *noted);

#endif
