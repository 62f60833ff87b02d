/* SPDX-License-Identifier: MIT */
/*
 * site_nops: the probe-site encodings the stanford and sdtargs builds put in
 * place of sdt.h's one-byte nop (#define _SDT_NOP after <sys/sdt.h>; see
 * mk/probes.mk).  .byte statements, not one .byte list, since a comma would
 * split sdt.h's macro arguments.
 *   nop5   0f 1f 44 00 00: x86_nops[5], the one nop Linux 6.18 optimizes
 *          into a call through [uprobes-trampoline]
 *   nop10  66 66 0f 1f 84 00 00 00 00 00: a 10-byte nop uprobes accept
 *          (GNU as's `.nops 10` puts a CS prefix on it, which uprobes refuse:
 *          ENOTSUPP, error 524)
 */
#ifndef PCOST_WL_SITE_NOPS_H
#define PCOST_WL_SITE_NOPS_H

/* clang-format off */
#define PCOST_SITE_NOP5 .byte 0x0f; .byte 0x1f; .byte 0x44; .byte 0x00; .byte 0x00
#define PCOST_SITE_NOP10 \
	.byte 0x66; .byte 0x66; .byte 0x0f; .byte 0x1f; .byte 0x84; .byte 0x00; .byte 0x00; \
	.byte 0x00; .byte 0x00; .byte 0x00
/* clang-format on */

#endif
