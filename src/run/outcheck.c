// SPDX-License-Identifier: MIT
/* run/outcheck: --check-output, a run's stdout digested and compared with the plain runs'. */
#include "run/outcheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* FNV-1a 64 (Fowler, Noll, Vo): its offset basis and prime. */
#define FNV_BASIS 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

/* The plain outputs of one target: each distinct one's digest, the first one's lines. */
struct plain_out {
	size_t key;
	uint64_t hash;
	struct pcost_outdigest first; /* the first, whole (its text and line numbers) */
	bool is_first;
};

struct pcost_outcheck {
	regex_t filter;
	bool has_filter;
	struct plain_out *v;
	size_t n, cap;
};

struct pcost_outcheck *pcost_outcheck_new(const char *filter, char *why, size_t len)
{
	struct pcost_outcheck *oc = xcalloc(1, sizeof(*oc));
	int rc;

	if (!filter || !filter[0])
		return oc;
	if ((rc = regcomp(&oc->filter, filter, REG_EXTENDED | REG_NOSUB)) != 0) {
		regerror(rc, &oc->filter, why, len);
		free(oc);
		return NULL;
	}
	oc->has_filter = true;
	return oc;
}

void pcost_outcheck_free(struct pcost_outcheck *oc)
{
	if (!oc)
		return;
	for (size_t i = 0; i < oc->n; i++)
		if (oc->v[i].is_first)
			pcost_outdigest_release(&oc->v[i].first);
	free(oc->v);
	if (oc->has_filter)
		regfree(&oc->filter);
	free(oc);
}

void pcost_outdigest_init(struct pcost_outdigest *d, const struct pcost_outcheck *oc)
{
	memset(d, 0, sizeof(*d));
	d->filter = oc && oc->has_filter ? &oc->filter : NULL;
	d->hash = FNV_BASIS;
	d->line = xmalloc(PCOST_OUTCHECK_TEXT + 1);
	d->line[0] = '\0';
}

void pcost_outdigest_release(struct pcost_outdigest *d)
{
	free(d->text);
	free(d->lineno);
	free(d->line);
	memset(d, 0, sizeof(*d));
}

/* The line read (d->line, without its end) is done: dropped, or digested and kept. */
static void line_done(struct pcost_outdigest *d)
{
	d->line[d->llen] = '\0';
	d->lines++;
	if (d->filter && regexec(d->filter, d->line, 0, NULL, 0) == 0) {
		d->llen = 0;
		return;
	}
	for (size_t i = 0; i <= d->llen; i++) {
		/* The line's end is hashed as its NUL: "a" "b" is not "ab". */
		d->hash ^= (unsigned char)d->line[i];
		d->hash *= FNV_PRIME;
	}
	d->kept++;
	if (d->cut || d->len + d->llen + 1 > PCOST_OUTCHECK_TEXT) {
		d->cut = true;
	} else {
		if (!d->text)
			d->text = xmalloc(PCOST_OUTCHECK_TEXT + 1);
		/* A NUL byte is kept as '?': the text is a C string (the digest has the byte). */
		for (size_t i = 0; i < d->llen; i++)
			d->text[d->len + i] = d->line[i] ? d->line[i] : '?';
		d->len += d->llen;
		d->text[d->len++] = '\n';
		d->text[d->len] = '\0';
		xgrow((void **)&d->lineno, &d->cap_lineno, d->ntext + 1, sizeof(*d->lineno));
		d->lineno[d->ntext++] = d->lines;
	}
	d->llen = 0;
}

void pcost_outdigest_feed(struct pcost_outdigest *d, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		/* A line longer than the buffer is taken as several. */
		if (buf[i] == '\n' || d->llen == PCOST_OUTCHECK_TEXT) {
			line_done(d);
			if (buf[i] == '\n')
				continue;
		}
		d->line[d->llen++] = buf[i];
	}
}

void pcost_outdigest_end(struct pcost_outdigest *d)
{
	if (d->llen)
		line_done(d);
}

void pcost_outcheck_json(bool check_output, const char *filter, cJSON *options)
{
	if (!check_output)
		return;
	cJSON_AddBoolToObject(options, "check_output", true);
	if (filter)
		cJSON_AddStringToObject(options, "output_filter", filter);
}

/* The first plain output of key, NULL when none yet. */
static const struct plain_out *first_of(const struct pcost_outcheck *oc, size_t key)
{
	for (size_t i = 0; i < oc->n; i++)
		if (oc->v[i].key == key && oc->v[i].is_first)
			return &oc->v[i];
	return NULL;
}

static bool seen(const struct pcost_outcheck *oc, size_t key, uint64_t hash)
{
	for (size_t i = 0; i < oc->n; i++)
		if (oc->v[i].key == key && oc->v[i].hash == hash)
			return true;
	return false;
}

void pcost_outcheck_plain(struct pcost_outcheck *oc, size_t key, const struct pcost_outdigest *d)
{
	struct plain_out *p;
	bool first = !first_of(oc, key);

	if (seen(oc, key, d->hash))
		return;
	xgrow((void **)&oc->v, &oc->cap, oc->n + 1, sizeof(*oc->v));
	p = &oc->v[oc->n++];
	memset(p, 0, sizeof(*p));
	p->key = key;
	p->hash = d->hash;
	if (!first)
		return;
	/* The first: its lines are what a changed run is told apart from. */
	p->is_first = true;
	p->first = *d;
	p->first.filter = NULL;
	if (d->text) {
		p->first.text = xmalloc(d->len + 1);
		memcpy(p->first.text, d->text, d->len + 1);
	}
	p->first.lineno = xcalloc(d->ntext ? d->ntext : 1, sizeof(*d->lineno));
	memcpy(p->first.lineno, d->lineno, d->ntext * sizeof(*d->lineno));
	p->first.cap_lineno = d->ntext;
	p->first.line = NULL;
	p->first.llen = 0;
}

/* The i-th kept line of d (0-based) and its length; NULL when it has none. */
static const char *line_at(const struct pcost_outdigest *d, size_t i, size_t *n)
{
	const char *p = d->text;

	if (i >= d->ntext || !p)
		return NULL;
	for (size_t k = 0; k < i; k++)
		p = strchr(p, '\n') + 1;
	*n = strcspn(p, "\n");
	return p;
}

/* The i-th kept line of d, quoted and cut, into out; false when it has none. */
static bool quote_line(const struct pcost_outdigest *d, size_t i, char *out, size_t len)
{
	size_t n;
	const char *p = line_at(d, i, &n);

	if (p)
		snprintf(out, len, "'%.*s%s'", (int)(n > 60 ? 60 : n), p, n > 60 ? "..." : "");
	return p != NULL;
}

bool pcost_outcheck_differs(const struct pcost_outcheck *oc, size_t key,
			    const struct pcost_outdigest *d, const char *plain, char *why,
			    size_t len)
{
	const struct plain_out *ref = first_of(oc, key);
	const struct pcost_outdigest *r;
	const char *pa, *pb;
	size_t i;

	if (!ref || seen(oc, key, d->hash))
		return false;
	r = &ref->first;
	pa = d->text;
	pb = r->text;
	/* The first kept line that differs, within what both hold as text. */
	for (i = 0; i < d->ntext && i < r->ntext; i++) {
		size_t na = strcspn(pa, "\n"), nb = strcspn(pb, "\n");

		if (na != nb || memcmp(pa, pb, na))
			break;
		pa += na + 1;
		pb += nb + 1;
	}
	if (i < d->ntext || i < r->ntext) {
		char a[80] = "nothing more", b[80] = "nothing more";
		bool own = quote_line(d, i, a, sizeof(a));

		quote_line(r, i, b, sizeof(b));
		snprintf(why, len, "stdout differs from the %s runs' at line %zu: %s (%s: %s)",
			 plain, own ? d->lineno[i] : r->lineno[i], a, plain, b);
	} else {
		/* Their kept text is the same: the difference is past what either holds. */
		snprintf(why, len, "stdout differs from the %s runs' after its first %zu lines",
			 plain, d->ntext ? d->lineno[d->ntext - 1] : 0);
	}
	return true;
}
