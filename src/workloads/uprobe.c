// SPDX-License-Identifier: MIT
/*
 * uprobe: a loop calling a function whose first instruction is the one a
 * uprobe is placed on, after the kernel's selftests (tools/testing/selftests/
 * bpf/benchs/bench_trigger.c: trig-uprobe-nop, -push, -ret).  The targets are
 * written in assembly so the probed instruction is exactly what its name says:
 *
 *   nop     90                          a one-byte nop (what sdt.h emits)
 *   nop5    0f 1f 44 00 00              the nop Linux 6.18 optimizes into a call
 *   nop10   66 66 0f 1f 84 00 00 00 00 00
 *   push    55 (push %rbp)              emulated by the kernel
 *   ret     c3                          an empty function: armed as a return probe
 *   lttng   a function whose body is an LTTng-UST tracepoint (pcost-lttng.so)
 *
 * threads=N runs N threads each making loops calls, released together.
 */
#include "workloads/uprobe.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/common.h"
#include "workloads/lttng.h"
#include "workloads/workload.h"

/* Targets: global, aligned, each the instruction under test then ret. */
__asm__(".pushsection .text\n"
	".macro pcost_ub_fn name\n"
	".globl \\name\n"
	".type \\name, @function\n"
	".p2align 4\n"
	"\\name:\n"
	".endm\n"
	"pcost_ub_fn pcost_ub_nop\n"
	"nop\n"
	"ret\n"
	".size pcost_ub_nop, .-pcost_ub_nop\n"
	"pcost_ub_fn pcost_ub_nop5\n"
	".byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n"
	"ret\n"
	".size pcost_ub_nop5, .-pcost_ub_nop5\n"
	"pcost_ub_fn pcost_ub_nop10\n"
	".byte 0x66, 0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00\n"
	"ret\n"
	".size pcost_ub_nop10, .-pcost_ub_nop10\n"
	"pcost_ub_fn pcost_ub_push\n"
	"push %rbp\n"
	"pop %rbp\n"
	"ret\n"
	".size pcost_ub_push, .-pcost_ub_push\n"
	"pcost_ub_fn pcost_ub_ret\n"
	"ret\n"
	".size pcost_ub_ret, .-pcost_ub_ret\n"
	".purgem pcost_ub_fn\n"
	".popsection\n");

void pcost_ub_nop(void);
void pcost_ub_nop5(void);
void pcost_ub_nop10(void);
void pcost_ub_push(void);
void pcost_ub_ret(void);

static const struct pcost_uprobe_target targets[] = {
	{ "nop", "pcost_ub_nop", false, pcost_ub_nop },
	{ "nop5", "pcost_ub_nop5", false, pcost_ub_nop5 },
	{ "nop10", "pcost_ub_nop10", false, pcost_ub_nop10 },
	{ "push", "pcost_ub_push", false, pcost_ub_push },
	{ "ret", "pcost_ub_ret", true, pcost_ub_ret },
	/* A function whose body is an LTTng-UST tracepoint (pcost-lttng.so; fn looked up). */
	{ "lttng", NULL, false, NULL },
};

const struct pcost_uprobe_target *pcost_uprobe_target_find(const char *insn)
{
	for (size_t i = 0; i < ARRAY_SIZE(targets); i++)
		if (!strcmp(targets[i].insn, insn))
			return &targets[i];
	return NULL;
}

int pcost_self_vaddr(const void *addr, uint64_t *vaddr)
{
	Dl_info info;

	/* The main program of a PIE has its first PT_LOAD at address 0: vaddr = addr - base. */
	if (!dladdr(addr, &info) || !info.dli_fbase)
		return -1;
	*vaddr = (uintptr_t)addr - (uintptr_t)info.dli_fbase;
	return 0;
}

int pcost_self_file_offset(const void *addr, uint64_t *off)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	int rc = -1;

	if (!f)
		return -1;
	while (rc && fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi, foff;
		char perms[8];

		if (sscanf(line, "%llx-%llx %7s %llx", &lo, &hi, perms, &foff) != 4)
			continue;
		if ((uintptr_t)addr >= lo && (uintptr_t)addr < hi && perms[2] == 'x') {
			*off = (uintptr_t)addr - lo + foff;
			rc = 0;
		}
	}
	fclose(f);
	return rc;
}

enum { P_INSN, P_LOOPS, P_THREADS };

static const struct pcost_param_desc params[] = {
	[P_INSN] = { "insn", PCOST_PARAM_ENUM, 0, 0, 0, "nop|nop5|nop10|push|ret|lttng",
		     "the instruction at the probed address (ret: a return probe's empty function; "
		     "lttng: an LTTng-UST tracepoint instead)" },
	[P_LOOPS] = { "loops", PCOST_PARAM_U64, 1000000, 1, 1000000000,
		      NULL, "calls of the target per thread" },
	[P_THREADS] = { "threads", PCOST_PARAM_U64, 1, 1, 1024, NULL,
			"threads, each making loops calls" },
	{ NULL, 0, 0, 0, 0, NULL, NULL },
};

struct ub_job {
	void (*fn)(void);
	uint64_t loops;
};

static void ub_loop(void *arg, unsigned i)
{
	const struct ub_job *j = arg;

	for (uint64_t k = 0; k < j->loops; k++)
		j->fn();
}

static int uprobe_run(const struct pcost_params *p, struct pcost_wl_result *res)
{
	const struct pcost_uprobe_target *t = &targets[p->v[P_INSN]];
	struct ub_job j = { t->fn, p->v[P_LOOPS] };

	if (!j.fn && !(j.fn = (void (*)(void))pcost_lttng_sym("pcost_lttng_hit")))
		return -ENOENT;
	pcost_wl_name_self("uprobe");
	snprintf(res->extra, sizeof(res->extra), " insn=%s", t->insn);
	return pcost_wl_probe_threads((unsigned)p->v[P_THREADS], ub_loop, &j, j.loops, t->symbol,
				      res);
}

const struct pcost_workload pcost_wl_uprobe = {
	.name = "uprobe",
	.summary = "a loop calling a function probed on a nop, nop5, nop10, push or ret "
		   "(kernel selftests' trig-uprobe-*)",
	.unit = "hit",
	.size_key = "loops",
	.params = params,
	.run = uprobe_run,
};
