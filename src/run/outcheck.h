/* SPDX-License-Identifier: MIT */
/*
 * outcheck: --check-output, what a run printed on stdout as a digest (FNV-1a
 * 64 over its lines, less those --output-filter matches) and its first lines,
 * and the plain (or dormant) runs' outputs a monitored or armed run of the
 * same target is compared with (run/verdict.h: a difference is the program's).
 */
#ifndef PCOST_OUTCHECK_H
#define PCOST_OUTCHECK_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

/* The most of a run's kept lines held as text, to name the first one that differs. */
#define PCOST_OUTCHECK_TEXT (64u * 1024)

/* One run's stdout, fed while it runs (pcost_outdigest_feed) and ended once (_end). */
struct pcost_outdigest {
	const regex_t *filter; /* a line it matches is dropped (NULL: none) */
	uint64_t hash;	       /* over the kept lines, each with its end */
	size_t lines;	       /* lines read, dropped ones included */
	size_t kept;	       /* lines kept */
	char *text;	       /* the first kept lines, '\n'-ended, PCOST_OUTCHECK_TEXT at most */
	size_t len;
	size_t *lineno; /* the 1-based line number of each line in text */
	size_t ntext, cap_lineno;
	bool cut;   /* a kept line did not fit in text */
	char *line; /* the line being read (NUL-terminated), PCOST_OUTCHECK_TEXT at most */
	size_t llen;
};

struct pcost_outcheck;

/*
 * The check, with filter an extended regex (NULL or "": none); NULL with the
 * reason in why when it does not compile.  _free: with every output kept.
 */
struct pcost_outcheck *pcost_outcheck_new(const char *filter, char *why, size_t len);
void pcost_outcheck_free(struct pcost_outcheck *oc);

/* An empty digest through oc's filter; fed with what the run wrote, in order. */
void pcost_outdigest_init(struct pcost_outdigest *d, const struct pcost_outcheck *oc);
void pcost_outdigest_feed(struct pcost_outdigest *d, const char *buf, size_t n);
/* After the run's last byte: an unended last line counts as a line. */
void pcost_outdigest_end(struct pcost_outdigest *d);
void pcost_outdigest_release(struct pcost_outdigest *d);

/* A plain run of target key that ended well: its output is one the program may print. */
void pcost_outcheck_plain(struct pcost_outcheck *oc, size_t key, const struct pcost_outdigest *d);
/*
 * Does d differ from every plain output of target key?  Then true, and why
 * names the first line that differs from the first plain output ("stdout
 * differs from the plain runs' at line 2: 'traced: yes' (plain: 'traced:
 * no')"; plain: the word for them, "plain" or "dormant").  False when it
 * matches one, or no plain run has ended well yet.
 */
bool pcost_outcheck_differs(const struct pcost_outcheck *oc, size_t key,
			    const struct pcost_outdigest *d, const char *plain, char *why,
			    size_t len);

/* Into a session's options: "check_output": true and "output_filter" when asked (else nothing). */
void pcost_outcheck_json(bool check_output, const char *filter, cJSON *options);

#endif
