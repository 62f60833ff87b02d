/* SPDX-License-Identifier: MIT */
/* uprobe: the targets of the uprobe microbenchmark workload, for `probecost probes`. */
#ifndef PCOST_WL_UPROBE_H
#define PCOST_WL_UPROBE_H

#include <stdbool.h>
#include <stdint.h>

struct pcost_uprobe_target {
	const char *insn;   /* "nop", "nop5", "nop10", "push", "ret", "lttng", "redzone" */
	const char *symbol; /* the function probed, in the probecost binary */
	bool retprobe;	    /* armed as a return probe */
	void (*fn)(void);   /* what the loop calls (NULL: carry, or lttng's, looked up) */
	void (*site)(void); /* the probed address: fn's entry, or a site inside carry */
	/* redzone: called with a value, returns it as kept across the site (NULL: fn) */
	uint64_t (*carry)(uint64_t v);
};

/* The target whose probed instruction is insn; NULL when none. */
const struct pcost_uprobe_target *pcost_uprobe_target_find(const char *insn);

/* File offset in the running executable of code at addr (mapped executable); 0 or -1. */
int pcost_self_file_offset(const void *addr, uint64_t *off);
/* Its ELF virtual address (what perf probe takes); 0 or -1. */
int pcost_self_vaddr(const void *addr, uint64_t *vaddr);

#endif
