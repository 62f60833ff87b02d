// SPDX-License-Identifier: MIT
/*
 * capstone_dl: Capstone, loaded when a command first disassembles a site
 * (core/dynlib.h: it added to every probecost start, every workload run's
 * included: bench/results/coverage.md).  site_safety.c and where.c keep
 * calling Capstone's own names;
 * they are defined here and forward to the loaded library.  Where it cannot
 * be loaded, cs_open fails and the callers say the site could not be decoded.
 */
#include <capstone/capstone.h>

#include "core/dynlib.h"

#define CAPSTONE_FUNCS(F, V)                                                                       \
	F(cs_err, cs_open, (cs_arch arch, cs_mode mode, csh * handle), (arch, mode, handle),       \
	  CS_ERR_MEM)                                                                              \
	F(cs_err, cs_close, (csh * handle), (handle), CS_ERR_HANDLE)                               \
	F(cs_err, cs_option, (csh handle, cs_opt_type type, size_t value), (handle, type, value),  \
	  CS_ERR_HANDLE)                                                                           \
	F(size_t, cs_disasm,                                                                       \
	  (csh handle, const uint8_t *code, size_t size, uint64_t address, size_t count,           \
	   cs_insn **insn),                                                                        \
	  (handle, code, size, address, count, insn), 0)                                           \
	V(cs_free, (cs_insn * insn, size_t count), (insn, count))                                  \
	F(bool, cs_insn_group, (csh handle, const cs_insn *insn, unsigned int group),              \
	  (handle, insn, group), false)                                                            \
	F(cs_err, cs_regs_access,                                                                  \
	  (csh handle, const cs_insn *insn, cs_regs read, uint8_t *nread, cs_regs write,           \
	   uint8_t *nwrite),                                                                       \
	  (handle, insn, read, nread, write, nwrite), CS_ERR_HANDLE)

PCOST_DL_LIBRARY(capstone, "libcapstone.so.4", "libcapstone4", CAPSTONE_FUNCS)
