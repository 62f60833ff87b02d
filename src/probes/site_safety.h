/* SPDX-License-Identifier: MIT */
/*
 * site_safety: what arming a probe site does to the program, from the ELF
 * file alone (no run): three facts per site.
 *
 *   encoding       the instruction at the site: nop (90, what sdt.h emits),
 *                  nop5 (a 5-byte nop: 0f 1f /0, or 90 with prefixes), nop10
 *                  (a 10-byte nop), other
 *   red_zone_live  the function holding the site keeps data below rsp across
 *                  it: bytes below the site's rsp are written on a path into
 *                  the site and read on a path out of it, not overwritten in
 *                  between.  A CALL pushed at the site (the 6.18 optimized
 *                  uprobe, into [uprobes-trampoline]) overwrites them.
 *   optimizable    this kernel turns a uprobe on this site into that CALL
 *
 * The function is found by its symbol (.symtab, else .dynsym) and decoded with
 * Capstone; the stack pointer is followed from the entry through push, pop,
 * add/sub/lea of rsp, leave and an rbp copied from rsp, over the function's
 * control-flow graph (direct branches; an indirect jump may go anywhere).
 * Accesses through rsp, or through an rbp copied from it, are the ones seen;
 * a pointer to the stack in another register is not followed.
 */
#ifndef PCOST_SITE_SAFETY_H
#define PCOST_SITE_SAFETY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cJSON;

enum pcost_site_encoding {
	PCOST_SITE_OTHER,
	PCOST_SITE_NOP,
	PCOST_SITE_NOP5,
	PCOST_SITE_NOP10,
};

/* "nop", "nop5", "nop10", "other". */
const char *pcost_site_encoding_name(enum pcost_site_encoding e);

/* A fact that may be unknown: 1 true, 0 false, -1 unknown. */
struct pcost_site_facts {
	enum pcost_site_encoding encoding;
	int red_zone_live;
	int optimizable;
	char function[64];  /* the symbol holding the site, "" when none does */
	uint64_t fn_offset; /* the site's offset in it */
	char why[192];	    /* what decided red_zone_live, one phrase */
};

/*
 * Classify the instruction at the start of code[0..len) (x86-64): its
 * encoding.  Only a 5-byte nop the kernel's uprobe optimizer takes is nop5
 * (Linux 6.18 arch/x86/kernel/uprobes.c can_optimize: opcode 90, or 0f 1f
 * with ModRM.reg 0).
 */
enum pcost_site_encoding pcost_site_encoding_of(const uint8_t *code, size_t len);

/*
 * Is data below rsp kept across the site at address site, inside the
 * function whose len bytes of code start at address fn (x86-64)?  1, 0 or
 * -1 (cannot tell); why gets the reason in one phrase, offsets relative to fn.
 */
int pcost_red_zone_live(const uint8_t *code, size_t len, uint64_t fn, uint64_t site, char *why,
			size_t wlen);

/* An ELF file opened for site facts: its functions and code, a disassembler. */
struct pcost_site_file;

/* 0 and *out, or -errno (as pcost_sdt_read: -ENOEXEC, -EISDIR, -EBADMSG, -ENOMEM). */
int pcost_site_file_open(const char *path, struct pcost_site_file **out);
void pcost_site_file_free(struct pcost_site_file *f);

/* The facts of the site at ELF address vaddr (an SDT note's pc). */
void pcost_site_facts_at(const struct pcost_site_file *f, uint64_t vaddr,
			 struct pcost_site_facts *out);

/*
 * The facts of a set of sites, as one row shows them: acc starts as the first
 * site's facts and takes in each other one.  The encoding all share (other
 * when they differ); red_zone_live true when any site is live (one such site
 * is enough to change the program; function and why are then its), -1 when
 * none is and some cannot tell; optimizable when all agree, else -1.
 */
void pcost_site_facts_merge(struct pcost_site_facts *acc, const struct pcost_site_facts *f);

/*
 * Does an SDT note's argument string ("-8@-24(%rsp) -4@%eax") read an argument
 * from below rsp?  The optimized uprobe's CALL pushes there before the tracer
 * reads them: it reads the pushed registers instead.
 */
bool pcost_sdt_args_below_rsp(const char *args);

/*
 * The warning before arming the site of probe PROV:NAME with facts f, whose
 * arguments are read from below rsp or not: "PROV:NAME at fn+0x9 may change the
 * program once armed: ...; FIX" (fix: how to build it safe).  False (nothing
 * written) when arming it is safe: not optimizable, or nothing below rsp.
 */
bool pcost_site_armed_warning(char *buf, size_t len, const char *provider, const char *name,
			      const struct pcost_site_facts *f, bool args_below_rsp,
			      const char *fix);

/*
 * The facts as a JSON object, {"encoding": "nop5", "red_zone_live": true|false|null,
 * "optimizable": true|false|null}, what a session's options keep for each row
 * ("site_facts", report/probes.c reads them); caller owns.
 */
struct cJSON *pcost_site_facts_json(const struct pcost_site_facts *f);

#endif
