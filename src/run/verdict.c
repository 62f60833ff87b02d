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

/*
 * How a wrapper passes on how its program ended, and how it says it failed
 * itself (each seen on this machine: strace 6.1, ltrace 0.7.3, perf 6.1,
 * valgrind 3.19; coreutils' env, nice, timeout, taskset and chroot exit
 * 125-127 when they cannot run the command).
 */
struct relay {
	const char *tool, *sub; /* the basename of its argv[0] and its argv[1] (NULL: any) */
	bool exit;		/* it exits with its program's exit status */
	bool signal;		/* it dies of its program's fatal signal (re-raises it) */
	bool psignal;		/* it exits 0 after a last line "PROGRAM: strsignal(N)" */
	const char *const *own; /* how its own error lines start, NULL-terminated */
	const int *own_exit;	/* statuses it exits with itself, 0-terminated */
};

static const char *const strace_own[] = { "strace: ", NULL };
static const char *const valgrind_own[] = { "valgrind: ", NULL };
static const char *const perf_own[] = { "Workload failed", "Error:", "Failed to", NULL };
static const int perf_exit[] = { 129, 255, 0 };
static const int coreutils_exit[] = { 125, 126, 127, 0 };

static const struct relay relays[] = {
	{ "strace", NULL, true, true, false, strace_own, NULL },
	{ "valgrind", NULL, true, true, false, valgrind_own, NULL },
	/* perf stat exits 0 when its program died of a signal, after psignal's line. */
	{ "perf", "stat", true, false, true, perf_own, perf_exit },
	{ "perf", "record", true, true, false, perf_own, perf_exit },
	/* ltrace 0.7 and perf trace exit 0 however their program ended. */
	{ "ltrace", NULL, false, false, false, NULL, NULL },
	{ "perf", NULL, false, false, false, NULL, NULL },
};

static const struct relay any_wrapper = { NULL, NULL, true, false, false, NULL, coreutils_exit };

void pcost_verdict_wrapper(struct pcost_verdict_in *in, char *const *argv)
{
	const char *base;

	in->wrapper[0] = '\0';
	if (!argv || !argv[0])
		return;
	base = strrchr(argv[0], '/');
	base = base ? base + 1 : argv[0];
	snprintf(in->wrapper, sizeof(in->wrapper), "%s%s%s", base, argv[1] ? " " : "",
		 argv[1] ? argv[1] : "");
}

static const struct relay *relay_of(const char *wrapper)
{
	size_t tl = strcspn(wrapper, " ");
	const char *sub = wrapper[tl] ? wrapper + tl + 1 : "";

	for (size_t i = 0; i < sizeof(relays) / sizeof(relays[0]); i++)
		if (strlen(relays[i].tool) == tl && !strncmp(wrapper, relays[i].tool, tl) &&
		    (!relays[i].sub || !strcmp(sub, relays[i].sub)))
			return &relays[i];
	return &any_wrapper;
}

/*
 * A wrapped run failed (not at a time limit): the program's doing when its
 * wrapper passes that ending on and did not say the failure was its own.
 * The ending is the run's reason: "exit N[: last line]" or "killed by SIGX".
 */
static enum pcost_fault wrapped_fault(const char *wrapper, const char *reason)
{
	const struct relay *r = relay_of(wrapper);
	const char *line;
	int code;

	if (!strncmp(reason, "killed by SIG", 13))
		return r->signal ? PCOST_FAULT_PROGRAM : PCOST_FAULT_TOOL;
	if (sscanf(reason, "exit %d", &code) != 1 || !r->exit)
		return PCOST_FAULT_TOOL; /* it did not start, or passes nothing on */
	for (const int *e = r->own_exit; e && *e; e++)
		if (code == *e)
			return PCOST_FAULT_TOOL;
	line = strstr(reason, ": ");
	for (const char *const *o = r->own; line && o && *o; o++)
		if (!strncmp(line + 2, *o, strlen(*o)))
			return PCOST_FAULT_TOOL;
	return PCOST_FAULT_PROGRAM;
}

/*
 * A signal the wrapper hid but said: perf stat's last line "PROGRAM: Segmentation
 * fault" (psignal) after its program died, and its exit 0.  "killed by SIGSEGV
 * (perf stat exited 0)" into why; false when it said none.
 */
static bool hidden_signal(const struct pcost_verdict_in *in, char *why, size_t len)
{
	const char *line = in->said->err_last, *text;
	size_t pl = in->program ? strlen(in->program) : 0;

	if (in->kind != PCOST_MON_WRAP || !relay_of(in->wrapper)->psignal || !pl ||
	    strncmp(line, in->program, pl) || strncmp(line + pl, ": ", 2))
		return false;
	text = line + pl + 2;
	for (int sig = 1; sig < NSIG; sig++)
		if (sigabbrev_np(sig) && !strcmp(text, strsignal(sig))) {
			size_t n = (size_t)pcost_killed_by_text(sigabbrev_np(sig), why, len);

			if (n < len)
				snprintf(why + n, len - n, " (%s exited 0)", in->wrapper);
			return true;
		}
	return false;
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
	} else if (!smp->failed && hidden_signal(in, why, sizeof(why))) {
		program_failed(smp, why);
	} else if (in->tool_failed) {
		smp->fault = PCOST_FAULT_TOOL;
	} else if (smp->failed) {
		if (plain)
			smp->fault = PCOST_FAULT_PROGRAM;
		else if (timed_out(smp))
			smp->fault = PCOST_FAULT_TOOL;
		else if (in->kind == PCOST_MON_WRAP)
			smp->fault = wrapped_fault(in->wrapper, smp->fail_reason);
		else
			smp->fault = PCOST_FAULT_PROGRAM;
	} else if (in->output[0]) {
		program_failed(smp, in->output);
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
