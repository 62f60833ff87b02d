/* SPDX-License-Identifier: MIT */
/*
 * sdt: read the SystemTap SDT (USDT) probe notes of an ELF file with libelf.
 *
 * Each NT_STAPSDT note (type 3, owner "stapsdt", in .note.stapsdt) holds the
 * probe's pc, the link-time address of .stapsdt.base, the semaphore's address
 * (0: none), then "provider\0name\0args\0".  Addresses are adjusted by the
 * difference between the real .stapsdt.base and the recorded one (prelink),
 * then turned into file offsets through the PT_LOAD segment holding them: the
 * pc offset is what a uprobe takes, the semaphore offset is its
 * ref_ctr_offset.  Layout: https://sourceware.org/systemtap/wiki/UserSpaceProbeImplementation
 *
 * Hostile input: every length and offset is checked against the buffer; a
 * malformed file is -EBADMSG, never a read outside it.
 */
#ifndef PCOST_SDT_H
#define PCOST_SDT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pcost_sdt_probe {
	char *provider, *name;
	char *args;	     /* "-4@%edi -8@%rsi", may be "" */
	uint64_t pc;	     /* address of the probe's nop (adjusted) */
	uint64_t pc_offset;  /* its file offset */
	uint64_t sem;	     /* semaphore address, 0 when the probe has none */
	uint64_t sem_offset; /* its file offset (uprobe ref_ctr_offset), 0 when none */
};

struct pcost_sdt_list {
	size_t n, cap;
	struct pcost_sdt_probe *probes;
};

/*
 * Read every SDT note of the ELF file at path into *out (zeroed first; release
 * it with pcost_sdt_list_release even on error).  A file without notes gives
 * 0 and out->n == 0.  Errors: -ENOENT/-EACCES/... (open), -EISDIR (not a regular
 * file: a FIFO, a device, a directory), -ENOEXEC (not ELF,
 * or not an executable or shared object), -EBADMSG (malformed or truncated),
 * -ENOMEM.
 */
int pcost_sdt_read(const char *path, struct pcost_sdt_list *out);
/* The same on an ELF image in memory (what the fuzzer feeds). */
int pcost_sdt_read_mem(const void *buf, size_t len, struct pcost_sdt_list *out);
void pcost_sdt_list_release(struct pcost_sdt_list *l);

/* A short phrase for an error of pcost_sdt_read ("not an ELF file", ...). */
const char *pcost_sdt_strerror(int err);

/*
 * Indices of the probes named provider:name (a probe may have several sites,
 * e.g. when the compiler duplicated it); fills up to max of them and returns
 * how many match in all.
 */
size_t pcost_sdt_find(const struct pcost_sdt_list *l, const char *provider, const char *name,
		      size_t *idx, size_t max);

/*
 * Split "PROVIDER:NAME" (also "sdt_PROVIDER:NAME" and "PROVIDER/NAME") into
 * buffers; -EINVAL when malformed.
 */
int pcost_sdt_parse_spec(const char *spec, char *provider, size_t plen, char *name, size_t nlen);

/*
 * Is path something tracefs and perf probe can take verbatim?  Absolute, no
 * whitespace, ':' or other characters outside [A-Za-z0-9/._+,=@~-], < 256 bytes.
 */
bool pcost_sdt_path_ok(const char *path);

#endif
