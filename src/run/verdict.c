// SPDX-License-Identifier: MIT
/* run/verdict: whose doing a run's failure was (the rules are in verdict.h). */
#include "run/verdict.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "core/proc.h"
#include "probes/where.h"

/* "killed by SIGSEGV at fft+0x4a (INSN), address 0x10" (or ", sent by pid N"). */
static void died_of(const struct pcost_verdict_in *in, char *buf, size_t len)
{
	const struct pcost_run_said *s = in->said;
	char at[160] = "";
	size_t n;

	if (s->has_ip_vaddr && in->program &&
	    pcost_where(in->program, s->ip_vaddr, at, sizeof(at)) < 0)
		at[0] = '\0';
	if (!at[0] && s->has_ip)
		snprintf(at, sizeof(at), "0x%llx, outside the executable",
			 (unsigned long long)s->ip);
	n = (size_t)pcost_killed_by_text(s->signal, buf, len);
	if (n < len && at[0])
		n += (size_t)snprintf(buf + n, len - n, " at %s", at);
	if (n >= len)
		return;
	if (s->from_pid)
		snprintf(buf + n, len - n, ", sent by pid %ld", s->from_pid);
	else if (s->has_addr)
		snprintf(buf + n, len - n, ", address 0x%llx", (unsigned long long)s->addr);
}

static void program_failed(struct pcost_run_sample *smp, const char *why)
{
	smp->fault = PCOST_FAULT_PROGRAM;
	pcost_sample_fail(smp, "%s", why);
}

/* Did a failed run end at a time limit (--timeout, or the hang limit)? */
static bool timed_out(const struct pcost_run_sample *smp)
{
	return !strncmp(smp->fail_reason, "timeout", 7) || !strncmp(smp->fail_reason, "hung", 4);
}

void pcost_run_verdict(struct pcost_run_sample *smp, const struct pcost_verdict_in *in)
{
	bool plain = in->kind == PCOST_MON_BASELINE;
	char why[256];

	if (in->said->signal[0]) {
		died_of(in, why, sizeof(why));
		program_failed(smp, why);
	} else if (smp->has_report && smp->check < 0) {
		snprintf(why, sizeof(why), "failed its own check: %s",
			 in->said->check_why[0] ? in->said->check_why : "(no reason given)");
		program_failed(smp, why);
	} else if (in->expected > 0 && smp->has_report && smp->events != (uint64_t)in->expected) {
		snprintf(why, sizeof(why),
			 "made %llu hits, %lld expected: the program ran differently",
			 (unsigned long long)smp->events, (long long)in->expected);
		program_failed(smp, why);
	} else if (in->tool_failed) {
		smp->fault = PCOST_FAULT_TOOL;
	} else if (smp->failed) {
		smp->fault = plain || (in->kind != PCOST_MON_WRAP && !timed_out(smp))
				     ? PCOST_FAULT_PROGRAM
				     : PCOST_FAULT_TOOL;
	} else if (in->report_fd && !smp->has_report) {
		smp->fault = plain ? PCOST_FAULT_PROGRAM : PCOST_FAULT_TOOL;
		pcost_sample_fail(smp, "the workload's report did not come back%s%s%s",
				  plain ? "" : " (", plain ? "" : in->monitor,
				  plain ? "" : " hid how it ended)");
	} else if (!plain && in->expected > 0 && smp->has_report && smp->monitor_events >= 0 &&
		   smp->monitor_events < (int64_t)smp->events && !smp->note[0]) {
		smp->fault = PCOST_FAULT_TOOL;
		snprintf(smp->fail_reason, sizeof(smp->fail_reason),
			 "%s counted %lld of the %llu hits the program made and reported no loss",
			 in->monitor, (long long)smp->monitor_events,
			 (unsigned long long)smp->events);
	} else {
		smp->fault = PCOST_FAULT_NONE;
	}
}
