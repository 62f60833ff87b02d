/* SPDX-License-Identifier: MIT */
/*
 * where: an address of an ELF file named the way a reader looks for it, the
 * function that holds it plus the offset, and the instruction there
 * ("fft+0x4a (movsd %xmm0, -0x18(%rsp))"), from the file's own symbol table
 * (libelf) and its bytes (Capstone).  The runner says with it where a workload
 * died: the workload's fault report gives the address (workloads/process.h).
 */
#ifndef PCOST_PROBES_WHERE_H
#define PCOST_PROBES_WHERE_H

#include <stddef.h>
#include <stdint.h>

/*
 * vaddr (an address as the ELF file's headers give them) of the file at path
 * into buf: "FUNCTION+0xOFF (INSTRUCTION)", without the instruction when it
 * cannot be read or decoded, "0xVADDR (INSTRUCTION)" when no function symbol
 * holds it.  0, or -errno when the file cannot be read as ELF (buf: "0xVADDR").
 */
int pcost_where(const char *path, uint64_t vaddr, char *buf, size_t len);

#endif
