// SPDX-License-Identifier: MIT
/* probes/where: an ELF file's address as function+offset and its instruction (see where.h). */
#include "probes/where.h"

#include <capstone/capstone.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The longest instruction of the architectures decoded here (x86-64: 15 bytes). */
#define MAX_INSN 16

/* The innermost function symbol holding vaddr (the smallest that does), from .symtab or .dynsym. */
static bool function_of(Elf *elf, uint64_t vaddr, char *name, size_t len, uint64_t *start)
{
	uint64_t best = UINT64_MAX;
	Elf_Scn *scn = NULL;
	bool found = false;

	for (int pass = 0; pass < 2 && !found; pass++) {
		while ((scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;
			Elf_Data *data;

			if (!gelf_getshdr(scn, &sh) ||
			    sh.sh_type != (pass == 0 ? SHT_SYMTAB : SHT_DYNSYM) || !sh.sh_entsize ||
			    !(data = elf_getdata(scn, NULL)))
				continue;
			for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
				GElf_Sym sym;
				const char *n;

				if (!gelf_getsym(data, (int)i, &sym) ||
				    GELF_ST_TYPE(sym.st_info) != STT_FUNC || vaddr < sym.st_value ||
				    vaddr - sym.st_value >= sym.st_size || sym.st_size >= best ||
				    !(n = elf_strptr(elf, sh.sh_link, sym.st_name)) || !*n)
					continue;
				best = sym.st_size;
				*start = sym.st_value;
				snprintf(name, len, "%s", n);
				found = true;
			}
		}
	}
	return found;
}

/* The bytes at vaddr, from the PT_LOAD segment that maps it; how many were read (0: none). */
static size_t bytes_at(Elf *elf, int fd, uint64_t vaddr, unsigned char *buf, size_t len)
{
	size_t phnum;

	if (elf_getphdrnum(elf, &phnum))
		return 0;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		ssize_t n;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD || vaddr < ph.p_vaddr ||
		    vaddr - ph.p_vaddr >= ph.p_filesz)
			continue;
		if (len > ph.p_filesz - (vaddr - ph.p_vaddr))
			len = ph.p_filesz - (vaddr - ph.p_vaddr);
		n = pread(fd, buf, len, (off_t)(ph.p_offset + (vaddr - ph.p_vaddr)));
		return n > 0 ? (size_t)n : 0;
	}
	return 0;
}

/* The one instruction at the start of code (at address vaddr), as Capstone writes it; "" when none. */
static void decode(const unsigned char *code, size_t n, uint64_t vaddr, char *buf, size_t len)
{
	csh cs;
	cs_insn *insn;
#if defined(__x86_64__)
	cs_err e = cs_open(CS_ARCH_X86, CS_MODE_64, &cs);
#elif defined(__aarch64__)
	cs_err e = cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &cs);
#else
	cs_err e = CS_ERR_ARCH;
#endif

	buf[0] = '\0';
	if (e != CS_ERR_OK)
		return;
#if defined(__x86_64__)
	/* AT&T, as objdump and perf annotate print it on x86. */
	cs_option(cs, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
#endif
	if (cs_disasm(cs, code, n, vaddr, 1, &insn) == 1) {
		snprintf(buf, len, "%s%s%s", insn->mnemonic, insn->op_str[0] ? " " : "",
			 insn->op_str);
		cs_free(insn, 1);
	}
	cs_close(&cs);
}

int pcost_where(const char *path, uint64_t vaddr, char *buf, size_t len)
{
	char fn[128], insn[96];
	unsigned char code[MAX_INSN];
	uint64_t start = 0;
	size_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC), off;
	Elf *elf;

	snprintf(buf, len, "0x%llx", (unsigned long long)vaddr);
	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	if (!(elf = elf_begin(fd, ELF_C_READ, NULL)) || elf_kind(elf) != ELF_K_ELF) {
		elf_end(elf);
		close(fd);
		return -ENOEXEC;
	}
	if (function_of(elf, vaddr, fn, sizeof(fn), &start))
		off = snprintf(buf, len, "%s+0x%llx", fn, (unsigned long long)(vaddr - start));
	else
		off = snprintf(buf, len, "0x%llx", (unsigned long long)vaddr);
	n = bytes_at(elf, fd, vaddr, code, sizeof(code));
	insn[0] = '\0';
	if (n)
		decode(code, n, vaddr, insn, sizeof(insn));
	if (insn[0] && off > 0 && (size_t)off < len)
		snprintf(buf + off, len - (size_t)off, " (%s)", insn);
	elf_end(elf);
	close(fd);
	return 0;
}
