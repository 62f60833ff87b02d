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
 *   redzone a leaf that keeps a value at -16(%rsp), below its stack pointer (the
 *           x86-64 red zone), across a nop5 site (the symbol pcost_ub_redzone_site):
 *           a known case of a probe changing the program (Linux 6.18 optimizes
 *           an armed nop5 into a CALL, which pushes into the red zone)
 *
 * threads=N runs N threads each making loops calls, released together.
 *
 * Check (check=ok|bad): each thread counts the calls it made (the hits), which
 * must be loops, and carries a value across every call in a callee-saved
 * register (a running hash of the call number), which must come out as the
 * same hash made without calls: a probe that lost a hit or a register fails
 * it.  redzone also checks that every value it kept in its red zone came back
 * (why="99999 of 100000 values kept in the red zone across the site changed").
 */
#include "workloads/uprobe.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/process.h"
#include "workloads/timed.h"
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
	/* rdi into the red zone, the nop5 site, the red zone back into rax (a leaf: no frame). */
	"pcost_ub_fn pcost_ub_redzone\n"
	"mov %rdi, -16(%rsp)\n"
	".globl pcost_ub_redzone_site\n"
	".type pcost_ub_redzone_site, @function\n"
	"pcost_ub_redzone_site:\n"
	".byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n"
	"mov -16(%rsp), %rax\n"
	"ret\n"
	".size pcost_ub_redzone_site, .-pcost_ub_redzone_site\n"
	".size pcost_ub_redzone, .-pcost_ub_redzone\n"
	".purgem pcost_ub_fn\n"
	".popsection\n");

void pcost_ub_nop(void);
void pcost_ub_nop5(void);
void pcost_ub_nop10(void);
void pcost_ub_push(void);
void pcost_ub_ret(void);
uint64_t pcost_ub_redzone(uint64_t v);
void pcost_ub_redzone_site(void);

static const struct pcost_uprobe_target targets[] = {
	{ "nop", "pcost_ub_nop", false, pcost_ub_nop, pcost_ub_nop, NULL },
	{ "nop5", "pcost_ub_nop5", false, pcost_ub_nop5, pcost_ub_nop5, NULL },
	{ "nop10", "pcost_ub_nop10", false, pcost_ub_nop10, pcost_ub_nop10, NULL },
	{ "push", "pcost_ub_push", false, pcost_ub_push, pcost_ub_push, NULL },
	{ "ret", "pcost_ub_ret", true, pcost_ub_ret, pcost_ub_ret, NULL },
	/* A function whose body is an LTTng-UST tracepoint (pcost-lttng.so; fn looked up). */
	{ "lttng", NULL, false, NULL, NULL, NULL },
	{ "redzone", "pcost_ub_redzone_site", false, NULL, pcost_ub_redzone_site,
	  pcost_ub_redzone },
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
	[P_INSN] = { "insn", PCOST_PARAM_ENUM, 0, 0, 0, "nop|nop5|nop10|push|ret|lttng|redzone",
		     "the instruction at the probed address (ret: a return probe's empty function; "
		     "lttng: an LTTng-UST tracepoint instead; redzone: a nop5 site in a leaf that "
		     "keeps a value in its red zone)" },
	[P_LOOPS] = { "loops", PCOST_PARAM_U64, 1000000, 1, 1000000000, NULL,
		      "calls of the target per thread" },
	[P_THREADS] = { "threads", PCOST_PARAM_U64, 1, 1, 1024, NULL,
			"threads, each making loops calls" },
	{ NULL, 0, 0, 0, 0, NULL, NULL },
};

/* What each thread counted and carried, for the check. */
struct ub_count {
	uint64_t calls;	  /* calls made */
	uint64_t carried; /* the hash carried across the calls */
	uint64_t changed; /* redzone: values that did not come back from the red zone */
};

struct ub_job {
	const struct pcost_uprobe_target *t;
	void (*fn)(void);
	uint64_t loops;
	struct ub_count *c;
};

/* The hash a thread carries: one multiply-add per call (the same without calls: the check). */
static inline uint64_t carry(uint64_t h, uint64_t k)
{
	return h * 0x9e3779b97f4a7c15ULL + k;
}

static void ub_loop(void *arg, unsigned i)
{
	const struct ub_job *j = arg;
	uint64_t calls = 0, h = i, changed = 0;

	if (j->t->carry) {
		for (uint64_t k = 0; k < j->loops; k++, calls++) {
			uint64_t v = carry(h, k) | 1; /* never 0, never an address of ours */

			changed += j->t->carry(v) != v;
			h = carry(h, k);
		}
	} else {
		for (uint64_t k = 0; k < j->loops; k++, calls++) {
			j->fn();
			h = carry(h, k);
		}
	}
	j->c[i] = (struct ub_count){ calls, h, changed };
}

static void ub_check(const struct ub_job *j, unsigned n, struct pcost_wl_result *res)
{
	for (unsigned i = 0; i < n; i++) {
		uint64_t h = i;

		for (uint64_t k = 0; k < j->loops; k++)
			h = carry(h, k);
		pcost_wl_check(res, j->c[i].calls == j->loops,
			       "thread %u made %llu calls, not %llu", i + 1,
			       (unsigned long long)j->c[i].calls, (unsigned long long)j->loops);
		pcost_wl_check(res, j->c[i].carried == h,
			       "thread %u: a value carried across the calls in a register changed",
			       i + 1);
		pcost_wl_check(res, !j->c[i].changed,
			       "%llu of %llu values kept in the red zone across the site changed",
			       (unsigned long long)j->c[i].changed, (unsigned long long)j->loops);
	}
}

static int uprobe_run(const struct pcost_params *p, struct pcost_wl_result *res)
{
	const struct pcost_uprobe_target *t = &targets[p->v[P_INSN]];
	unsigned n = (unsigned)p->v[P_THREADS];
	struct ub_job j = { t, t->fn, p->v[P_LOOPS], NULL };
	int rc;

	if (!t->carry && !j.fn && !(j.fn = (void (*)(void))pcost_lttng_sym("pcost_lttng_hit")))
		return -ENOENT;
	pcost_wl_name_self("uprobe");
	snprintf(res->extra, sizeof(res->extra), " insn=%s", t->insn);
	j.c = xcalloc(n, sizeof(*j.c));
	rc = pcost_wl_probe_threads(n, ub_loop, &j, j.loops, t->symbol, res);
	if (!rc) {
		ub_check(&j, n, res);
		res->events = 0; /* the hits it counted itself */
		for (unsigned i = 0; i < n; i++)
			res->events += j.c[i].calls;
	}
	free(j.c);
	return rc;
}

const struct pcost_workload pcost_wl_uprobe = {
	.name = "uprobe",
	.summary = "a loop calling a function probed on a nop, nop5, nop10, push or ret "
		   "(kernel selftests' trig-uprobe-*), or a red-zone leaf's nop5",
	.unit = "hit",
	.size_key = "loops",
	.params = params,
	.run = uprobe_run,
};
