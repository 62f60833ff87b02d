/* SPDX-License-Identifier: MIT */
/*
 * emit: the one JSON envelope and the one CSV dialect of every renderer
 * (run, probes, counters), and how an unmeasured figure is written in each.
 *
 * JSON: {"probecost": VERSION, "kind": "run"|"probes"|"counters",
 *        "complete": bool, "env": {...}|null, "options": {...}|null,
 *        "session": {the exchange format of `export`, raw samples included},
 *        "statistics": [one object per configuration or counter series],
 *        "warnings": ["...", ...]}
 * A figure with an interval is NAME, NAME_lo, NAME_hi; unmeasured is null.
 *
 * CSV (RFC 4180): one header row of snake_case names, then one row per
 * configuration or series; a text field is quoted only when it holds a comma,
 * a quote or a line break (quotes doubled); numbers are plain decimals;
 * unmeasured is an empty field; booleans are true/false.
 *
 * Text: an unmeasured figure is "n/a".
 */
#ifndef PCOST_EMIT_H
#define PCOST_EMIT_H

#include <stdbool.h>
#include <stdio.h>

#include "core/result.h"

struct cJSON;
struct pcost_config_stats;

/* The envelope with every member but statistics and warnings; caller owns. */
struct cJSON *pcost_json_envelope(const struct pcost_session *s);
/* Add the envelope's "statistics" array (returned) and "warnings" (n strings). */
struct cJSON *pcost_json_statistics(struct cJSON *root);
/* The longest warning, NUL included (report/warnings.h). */
#define PCOST_WARNING_LEN 512
void pcost_json_warnings(struct cJSON *root, const char (*msg)[PCOST_WARNING_LEN], size_t n);
/* Print root (then a newline) and free it. */
void pcost_json_print(struct cJSON *root, FILE *out);

/* A number, or null when NaN or infinite. */
struct cJSON *pcost_json_num(double v);
/* NAME, NAME_lo, NAME_hi. */
void pcost_json_ci(struct cJSON *o, const char *name, double v, double lo, double hi);
/* An integer count, or null when unknown (known false). */
void pcost_json_count(struct cJSON *o, const char *name, double v, bool known);
/*
 * carry_over, _lo, _hi, _p, carry_over_runs (runs right after this
 * configuration's) and carry_clean_runs (after a baseline run or first).
 */
void pcost_json_carry_over(struct cJSON *o, const struct pcost_config_stats *x);

struct pcost_csv {
	FILE *out;
	bool started; /* a field was written on this row */
};

void pcost_csv_str(struct pcost_csv *c, const char *s);
/* fmt (a printf double format) of v, or an empty field when NaN or infinite. */
void pcost_csv_num(struct pcost_csv *c, const char *fmt, double v);
/* A count, or an empty field when unknown. */
void pcost_csv_count(struct pcost_csv *c, double v, bool known);
void pcost_csv_bool(struct pcost_csv *c, bool v);
/* v, v_lo, v_hi. */
void pcost_csv_ci(struct pcost_csv *c, const char *fmt, double v, double lo, double hi);
/* End the row. */
void pcost_csv_end(struct pcost_csv *c);
/* carry_over, carry_over_lo, carry_over_hi, carry_over_p. */
void pcost_csv_carry_over(struct pcost_csv *c, const struct pcost_config_stats *x);

/*
 * Text: "8.10 [7.20, 9.00] ms" (one unit for the three, from the largest),
 * "127 [120, 134] ns/syscall" with per; "n/a" when v is NaN; no brackets
 * without an interval.
 */
void pcost_text_ns_ci(double v, double lo, double hi, const char *per, char *buf, size_t len);
/* The same with the unit chosen as if at (a magnitude) were among the three: two figures side by side in one unit. */
void pcost_text_ns_ci_at(double v, double lo, double hi, double at, const char *per, char *buf,
			 size_t len);
/* "+1.8% [+1.2, +2.4]", then "?" when not sig. */
void pcost_text_pct_ci(double v, double lo, double hi, bool sig, char *buf, size_t len);

struct pcost_config_stats;

/*
 * Text: the one line a session with changed-program rows (stats/outcome.h)
 * has before its table, nothing otherwise: "# CHANGED PROGRAM in 2 of 5 rows
 * (uprobe, ftrace): the workload failed UNDER (armed, under a monitor) and
 * not in its BASE (dormant, plain) runs: see each row's outcome".
 */
void pcost_text_changed(const struct pcost_session *s, const struct pcost_config_stats *st,
			const char *under, const char *base, FILE *out);

/*
 * Markdown: the first cells of a row, "| A | B | ", from session text (a user's
 * command, a custom monitor): '|' escaped as "\|", line breaks as spaces.
 */
void pcost_md_cells(FILE *out, const char *a, const char *b);

/*
 * The session's options (what the command was asked, options_json): a string
 * or number as text in buf ("" when absent), and a number (NAN when absent).
 */
const char *pcost_option_text(const struct pcost_session *s, const char *key, char *buf,
			      size_t len);
double pcost_option_number(const struct pcost_session *s, const char *key);

#endif
