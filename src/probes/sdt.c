// SPDX-License-Identifier: MIT
/* sdt: SDT/USDT note reader on libelf; see sdt.h for the note layout and the rules. */
#include "probes/sdt.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"

#define NT_STAPSDT 3	   /* sys/sdt.h: _SDT_NOTE_TYPE */
#define MAX_LOADS 64	   /* PT_LOAD segments we look at; real files have < 10 */
#define MAX_PROBES 1000000 /* a hostile file does not make us allocate without end */

struct load {
	uint64_t vaddr, filesz, offset;
};

struct ctx {
	struct load loads[MAX_LOADS];
	size_t nloads;
	bool have_base;
	uint64_t base_addr;
	unsigned addr_size;
};

void pcost_sdt_list_release(struct pcost_sdt_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->probes[i].provider);
		free(l->probes[i].name);
		free(l->probes[i].args);
	}
	free(l->probes);
	memset(l, 0, sizeof(*l));
}

/* A FIFO, a device, a directory: refused before libelf reads (or blocks on) it. */
#define EFTYPE_NOT_REGULAR EISDIR

const char *pcost_sdt_strerror(int err)
{
	switch (err) {
	case -ENOEXEC:
		return "not an ELF executable or shared object";
	case -EFTYPE_NOT_REGULAR:
		return "not a regular file";
	case -EBADMSG:
		return "malformed or truncated ELF file";
	case -ENOMEM:
		return "out of memory";
	default:
		return strerror(-err);
	}
}

/* File offset of a loaded address, through the PT_LOAD segment that holds its bytes. */
static int addr_to_offset(const struct ctx *c, uint64_t a, uint64_t *off)
{
	for (size_t i = 0; i < c->nloads; i++) {
		const struct load *l = &c->loads[i];

		if (a >= l->vaddr && a - l->vaddr < l->filesz) {
			*off = a - l->vaddr + l->offset;
			return 0;
		}
	}
	return -EBADMSG;
}

static uint64_t get_addr(const unsigned char *p, unsigned size, bool big_endian)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < size; i++)
		v |= (uint64_t)p[big_endian ? size - 1 - i : i] << (8 * i);
	return v;
}

/* A NUL-terminated string starting at *pos inside desc[0..len); advances *pos. */
static char *take_string(const unsigned char *desc, size_t len, size_t *pos)
{
	const unsigned char *nul;
	char *s;

	if (*pos >= len)
		return NULL;
	nul = memchr(desc + *pos, '\0', len - *pos);
	if (!nul)
		return NULL;
	s = strdup((const char *)desc + *pos);
	*pos = (size_t)(nul - desc) + 1;
	return s;
}

static int add_note(const struct ctx *c, const unsigned char *desc, size_t len, bool be,
		    struct pcost_sdt_list *out)
{
	struct pcost_sdt_probe p = { 0 };
	uint64_t note_base;
	size_t pos = 3 * (size_t)c->addr_size;

	if (len < pos)
		return -EBADMSG;
	if (out->n >= MAX_PROBES)
		return -EBADMSG;
	p.pc = get_addr(desc, c->addr_size, be);
	note_base = get_addr(desc + c->addr_size, c->addr_size, be);
	p.sem = get_addr(desc + 2 * c->addr_size, c->addr_size, be);
	/* Prelink moved the file: shift by what .stapsdt.base moved (sdt.h, "base"). */
	if (c->have_base && note_base) {
		p.pc += c->base_addr - note_base;
		if (p.sem)
			p.sem += c->base_addr - note_base;
	}
	p.provider = take_string(desc, len, &pos);
	p.name = take_string(desc, len, &pos);
	p.args = take_string(desc, len, &pos);
	if (!p.provider || !p.name || !p.args || !p.provider[0] || !p.name[0] ||
	    addr_to_offset(c, p.pc, &p.pc_offset) ||
	    (p.sem && addr_to_offset(c, p.sem, &p.sem_offset))) {
		free(p.provider);
		free(p.name);
		free(p.args);
		return -EBADMSG;
	}
	if (out->n == out->cap) {
		size_t cap = out->cap ? 2 * out->cap : 16;
		void *np = realloc(out->probes, cap * sizeof(*out->probes));

		if (!np) {
			free(p.provider);
			free(p.name);
			free(p.args);
			return -ENOMEM;
		}
		out->probes = np;
		out->cap = cap;
	}
	out->probes[out->n++] = p;
	return 0;
}

static int read_notes(struct ctx *c, Elf_Scn *scn, bool be, struct pcost_sdt_list *out)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t off = 0, name_off, desc_off, next;
	GElf_Nhdr nh;

	if (!data || !data->d_buf)
		return data && data->d_size == 0 ? 0 : -EBADMSG;
	while (off < data->d_size &&
	       (next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		const char *name = (const char *)data->d_buf + name_off;
		int rc;

		/* gelf_getnote checked that name and desc lie inside d_buf. */
		if (nh.n_type == NT_STAPSDT && nh.n_namesz == sizeof("stapsdt") &&
		    !memcmp(name, "stapsdt", sizeof("stapsdt"))) {
			rc = add_note(c, (const unsigned char *)data->d_buf + desc_off, nh.n_descsz,
				      be, out);
			if (rc)
				return rc;
		}
		off = next;
	}
	/* gelf_getnote returns 0 on a note that runs past the section. */
	return off < data->d_size ? -EBADMSG : 0;
}

static int read_elf(Elf *elf, uint64_t size, struct pcost_sdt_list *out)
{
	struct ctx c = { .nloads = 0 };
	GElf_Ehdr eh;
	size_t phnum, shstrndx;
	Elf_Scn *scn = NULL;
	bool be;
	int rc = 0;

	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh))
		return -ENOEXEC;
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)
		return -ENOEXEC;
	c.addr_size = gelf_getclass(elf) == ELFCLASS32 ? 4 : 8;
	be = eh.e_ident[EI_DATA] == ELFDATA2MSB;
	if (elf_getphdrnum(elf, &phnum) || elf_getshdrstrndx(elf, &shstrndx))
		return -EBADMSG;
	/* Headers past the end: truncated (libelf would just see no sections). */
	if ((eh.e_shoff &&
	     (eh.e_shoff > size || (uint64_t)eh.e_shnum * eh.e_shentsize > size - eh.e_shoff)) ||
	    (eh.e_phoff &&
	     (eh.e_phoff > size || (uint64_t)phnum * eh.e_phentsize > size - eh.e_phoff)))
		return -EBADMSG;
	for (size_t i = 0; i < phnum && c.nloads < MAX_LOADS; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph))
			return -EBADMSG;
		if (ph.p_type == PT_LOAD)
			c.loads[c.nloads++] = (struct load){ ph.p_vaddr, ph.p_filesz, ph.p_offset };
	}
	/* First pass: where .stapsdt.base really is. */
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			return -EBADMSG;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".stapsdt.base")) {
			c.have_base = true;
			c.base_addr = sh.sh_addr;
		}
	}
	while (!rc && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			return -EBADMSG;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (sh.sh_type == SHT_NOTE && name && !strcmp(name, ".note.stapsdt"))
			rc = read_notes(&c, scn, be, out);
	}
	return rc;
}

static void libelf_init(void)
{
	static bool done;

	if (!done) {
		elf_version(EV_CURRENT);
		done = true;
	}
}

int pcost_sdt_read_mem(const void *buf, size_t len, struct pcost_sdt_list *out)
{
	char *copy;
	Elf *elf;
	int rc;

	memset(out, 0, sizeof(*out));
	libelf_init();
	/* libelf wants a writable image; give it a private copy of ours. */
	copy = malloc(len ? len : 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, buf, len);
	elf = elf_memory(copy, len);
	if (!elf) {
		free(copy);
		return -ENOEXEC;
	}
	rc = read_elf(elf, len, out);
	elf_end(elf);
	free(copy);
	return rc;
}

int pcost_sdt_read(const char *path, struct pcost_sdt_list *out)
{
	struct stat st;
	Elf *elf;
	int fd, rc;

	memset(out, 0, sizeof(*out));
	libelf_init();
	/* O_NONBLOCK: opening a FIFO returns at once, and fstat refuses it. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EFTYPE_NOT_REGULAR;
	}
	/* ELF_C_READ_MMAP: libelf bounds every section by the file's real size. */
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		close(fd);
		return -ENOEXEC;
	}
	rc = read_elf(elf, (uint64_t)st.st_size, out);
	elf_end(elf);
	close(fd);
	return rc;
}

size_t pcost_sdt_find(const struct pcost_sdt_list *l, const char *provider, const char *name,
		      size_t *idx, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < l->n; i++) {
		if (strcmp(l->probes[i].provider, provider) || strcmp(l->probes[i].name, name))
			continue;
		if (n < max)
			idx[n] = i;
		n++;
	}
	return n;
}

int pcost_sdt_parse_spec(const char *spec, char *provider, size_t plen, char *name, size_t nlen)
{
	const char *sep;
	size_t pl;

	if (!strncmp(spec, "sdt_", 4))
		spec += 4;
	sep = strpbrk(spec, ":/");
	if (!sep || sep == spec || !sep[1] || strpbrk(sep + 1, ":/"))
		return -EINVAL;
	pl = (size_t)(sep - spec);
	if (pl >= plen || strlen(sep + 1) >= nlen)
		return -EINVAL;
	/* Provider and probe names are C identifiers (sys/sdt.h pastes them into symbols). */
	for (const char *p = spec; *p; p++)
		if (p != sep && !(*p == '_' || (*p >= '0' && *p <= '9') ||
				  (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
			return -EINVAL;
	memcpy(provider, spec, pl);
	provider[pl] = '\0';
	strcpy(name, sep + 1);
	return 0;
}

bool pcost_sdt_path_ok(const char *path)
{
	size_t n = strlen(path);

	if (path[0] != '/' || n >= 256)
		return false;
	for (const char *p = path; *p; p++) {
		char ch = *p;

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || strchr("/._+,=@~-", ch)))
			return false;
	}
	return true;
}
