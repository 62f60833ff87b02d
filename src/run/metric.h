/* SPDX-License-Identifier: MIT */
/*
 * metric: the figures a user watches, parsed from a command's output
 * (`--metric NAME[:higher|lower]=REGEX`, or a preset: pgbench, redis-benchmark,
 * fio, sysbench).  Pure functions: no process is started, nothing printed.
 *
 * Use (the runner, per run):
 *   struct pcost_metric_set set = { 0 };
 *   pcost_metric_parse("tps:higher=^tps = ([0-9.]+)", &set, err, len);  per --metric;
 *                                          -EINVAL: one line in err, exit 2
 *   pcost_metric_extract(set.m[i], out, outlen, err, len, &value);       per run and metric:
 *                                          out = the command's stdout and stderr
 *   or pcost_metric_extract_set(&set, out, outlen, values, found, err, len);
 *   pcost_metric_set_release(&set);
 *
 * Matching.  A user's REGEX is a POSIX extended regex with exactly one capture
 * group, compiled with REG_NEWLINE (^ and $ match at every line, . stops at a
 * newline, as grep does).  The whole output is searched, matches taken one
 * after the other without overlapping, and the LAST one wins (a final summary
 * after progress lines).  out is searched as one text: give stdout and stderr
 * captured into one file (both descriptors on one open file keep the order in
 * which the command wrote them), or one after the other.
 *
 * Numbers.  The group's text, after blanks: 1234.5, -3, 1,234,567.8 (commas
 * between groups of three digits), 1.2e3, and an SI multiplier glued to the
 * number when no letter follows it (fio's IOPS=22.5k: 22500).  What follows
 * the number inside the group is its unit (`([0-9.]+ ?ms)`); else a known unit
 * that follows the group inside the match (`= ([0-9.]+) ms`).  Known units:
 * times (ns, nsec, us, usec, µs, ms, msec, s, sec), sizes (B, kB, KiB, MB, MiB,
 * ...), rates of those (MiB/s, MB/sec, ...) and %.
 *
 * Units.  A preset's metric has a declared unit: a value found in another unit
 * of the same kind is converted to it (fio's clat percentiles in nsec or usec
 * -> us; bandwidth in KiB/s or MiB/s -> KiB/s).  A user's metric has none: the
 * value keeps the unit found, and the runner must refuse a unit that changes
 * between runs unless pcost_metric_convert() converts it.
 */
#ifndef PCOST_METRIC_H
#define PCOST_METRIC_H

#include <stdbool.h>
#include <stddef.h>

enum pcost_metric_better {
	PCOST_METRIC_AUTO,   /* not said: lower for a time (latency), higher for the rest */
	PCOST_METRIC_HIGHER, /* throughput, tps, IOPS */
	PCOST_METRIC_LOWER,  /* latency */
};

#define PCOST_METRIC_NAME_MAX 48
#define PCOST_METRIC_UNIT_MAX 16
#define PCOST_METRIC_PATTERNS 3

struct pcost_metric_re; /* a compiled pattern: private */

struct pcost_metric {
	char name[PCOST_METRIC_NAME_MAX]; /* [A-Za-z][A-Za-z0-9_]*: a JSON key, a CSV column */
	enum pcost_metric_better better;  /* as said, or a preset's */
	char unit[PCOST_METRIC_UNIT_MAX]; /* declared (presets): values are converted to it; "" */
	bool optional;			  /* a preset's figure the output need not print */
	const char *preset;		  /* the preset it comes from, or NULL */
	char *regex;			  /* the user's REGEX, or the preset's first pattern */
	size_t npat;			  /* patterns: the last match of any of them wins */
	struct pcost_metric_re *pat[PCOST_METRIC_PATTERNS];
	struct pcost_metric_re *den; /* when set, value = match / this match (seconds) */
};

struct pcost_metric_set {
	size_t n, cap;
	struct pcost_metric **m; /* owned; stable pointers */
};

struct pcost_metric_value {
	double value;			  /* in unit */
	char unit[PCOST_METRIC_UNIT_MAX]; /* the metric's declared unit, else the one found, else ""
					   */
	enum pcost_metric_better better;  /* resolved: HIGHER or LOWER */
};

/*
 * One --metric argument into set: a preset's name adds its metrics, else
 * NAME[:higher|lower]=REGEX adds one (the first '=' ends NAME; the REGEX may
 * hold more).  0, or -EINVAL with one line in err naming the argument and the
 * fix (not NAME=REGEX nor a preset, a bad name or direction, a regex that does
 * not compile, none or more than one capture group, a name given twice).
 */
int pcost_metric_parse(const char *arg, struct pcost_metric_set *set, char *err, size_t errlen);
void pcost_metric_set_release(struct pcost_metric_set *set);

/*
 * The value of metric m in out[0..outlen) (may hold NUL bytes).  0 and *v; or
 * -ENOENT (no match), -EINVAL (the match is not a number, or its unit is not
 * the declared unit's kind), with one line in err naming the metric, and, for
 * -ENOENT, the output's last lines ("a | b | c").
 */
int pcost_metric_extract(const struct pcost_metric *m, const char *out, size_t outlen, char *err,
			 size_t errlen, struct pcost_metric_value *v);

/*
 * Every metric of set: v[i] and found[i] (arrays of set->n).  An optional
 * metric may be missing (found false); a required one missing, or a preset of
 * which no metric is found, fails (-ENOENT), as does any -EINVAL; err as above.
 */
int pcost_metric_extract_set(const struct pcost_metric_set *set, const char *out, size_t outlen,
			     struct pcost_metric_value *v, bool *found, char *err, size_t errlen);

/*
 * The number at the start of s[0..len) (after blanks), as described above;
 * unit gets what follows it, trimmed ("" when nothing does).  0 or -EINVAL.
 */
int pcost_metric_number(const char *s, size_t len, double *v, char *unit, size_t unitlen);

/*
 * v in unit from converted to unit to: equal names, or two known units of one
 * kind (ms -> us, MiB/s -> KiB/s).  0, or -EINVAL when they do not convert.
 */
int pcost_metric_convert(double v, const char *from, const char *to, double *out);

/* ---- presets (metric_presets.c) ---------------------------------------------------- */

struct pcost_metric_pattern {
	const char *re;	 /* POSIX extended */
	int cflags;	 /* REG_NEWLINE or 0 (a pattern that spans lines) */
	unsigned vgroup; /* the number's group */
	unsigned ugroup; /* the unit's group, 0: none */
};

struct pcost_metric_row {
	const char *name;
	enum pcost_metric_better better;
	const char *unit;
	bool optional;
	struct pcost_metric_pattern pat[PCOST_METRIC_PATTERNS]; /* re NULL: no more */
	struct pcost_metric_pattern den;			/* re NULL: none */
};

struct pcost_metric_preset {
	const char *name;
	const char *summary;
	const struct pcost_metric_row *rows; /* terminated by a row with name NULL */
};

/* The preset called name, or NULL. */
const struct pcost_metric_preset *pcost_metric_preset_find(const char *name);
/* The presets, terminated by a NULL name. */
extern const struct pcost_metric_preset pcost_metric_presets[];

#endif
