// SPDX-License-Identifier: MIT
/* metric: --metric specs (a user's regex or a preset) and their values in a command's output. */
#include "run/metric.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

struct pcost_metric_re {
	regex_t re;
	unsigned vgroup, ugroup;
};

/* ---- units ----------------------------------------------------------------------------- */

enum unit_kind { KIND_TIME = 1, KIND_SIZE, KIND_RATE };

static const struct unit {
	const char *name;
	enum unit_kind kind;
	double factor; /* to the kind's base: seconds, bytes, bytes per second */
} units[] = {
	{ "ns", KIND_TIME, 1e-9 },
	{ "nsec", KIND_TIME, 1e-9 },
	{ "us", KIND_TIME, 1e-6 },
	{ "usec", KIND_TIME, 1e-6 },
	{ "\xc2\xb5s", KIND_TIME, 1e-6 }, /* U+00B5 micro sign */
	{ "\xce\xbcs", KIND_TIME, 1e-6 }, /* U+03BC small mu */
	{ "ms", KIND_TIME, 1e-3 },
	{ "msec", KIND_TIME, 1e-3 },
	{ "s", KIND_TIME, 1 },
	{ "sec", KIND_TIME, 1 },
	{ "B", KIND_SIZE, 1 },
	{ "kB", KIND_SIZE, 1e3 },
	{ "KB", KIND_SIZE, 1e3 },
	{ "MB", KIND_SIZE, 1e6 },
	{ "GB", KIND_SIZE, 1e9 },
	{ "TB", KIND_SIZE, 1e12 },
	{ "KiB", KIND_SIZE, 1024.0 },
	{ "MiB", KIND_SIZE, 1048576.0 },
	{ "GiB", KIND_SIZE, 1073741824.0 },
	{ "TiB", KIND_SIZE, 1099511627776.0 },
	{ "%", 0, 1 },
};

/* A known unit: a size per second ("MiB/s", "MB/sec") is a rate of that size. */
static bool unit_lookup(const char *name, enum unit_kind *kind, double *factor)
{
	char base[PCOST_METRIC_UNIT_MAX];
	const char *slash = strchr(name, '/');
	bool rate = false;

	snprintf(base, sizeof(base), "%s", name);
	if (slash && (!strcmp(slash, "/s") || !strcmp(slash, "/sec"))) {
		base[slash - name] = '\0';
		rate = true;
	}
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcmp(units[i].name, base) || (rate && units[i].kind != KIND_SIZE))
			continue;
		*kind = rate ? KIND_RATE : units[i].kind;
		*factor = units[i].factor;
		return true;
	}
	return false;
}

int pcost_metric_convert(double v, const char *from, const char *to, double *out)
{
	enum unit_kind kf, kt;
	double ff, ft;

	if (!strcmp(from, to)) {
		*out = v;
		return 0;
	}
	if (!unit_lookup(from, &kf, &ff) || !unit_lookup(to, &kt, &ft) || kf != kt || !kf)
		return -EINVAL;
	*out = v * ff / ft;
	return 0;
}

static bool is_time(const char *unit)
{
	enum unit_kind k;
	double f;

	return unit_lookup(unit, &k, &f) && k == KIND_TIME;
}

/* ---- numbers --------------------------------------------------------------------------- */

static size_t digits(const char *s, size_t i, size_t len)
{
	while (i < len && isdigit((unsigned char)s[i]))
		i++;
	return i;
}

/* Copy s[a..b) less blanks at both ends into buf (len > 0), a NUL byte as a blank. */
static void trimmed(const char *s, size_t a, size_t b, char *buf, size_t len)
{
	size_t n = 0;

	while (a < b && (isspace((unsigned char)s[a]) || !s[a]))
		a++;
	while (b > a && (isspace((unsigned char)s[b - 1]) || !s[b - 1]))
		b--;
	for (; a < b && n + 1 < len; a++)
		buf[n++] = s[a] ? s[a] : ' ';
	buf[n] = '\0';
}

int pcost_metric_number(const char *s, size_t len, double *v, char *unit, size_t unitlen)
{
	char num[64];
	size_t i = 0, n = 0, intd;
	double mult = 1;

	while (i < len && isspace((unsigned char)s[i]))
		i++;
	if (i < len && (s[i] == '-' || s[i] == '+'))
		num[n++] = s[i++];
	intd = i;
	/* Digits, with commas only between groups of exactly three (1,234,567). */
	for (;;) {
		size_t e = digits(s, i, len);

		if (n + (e - i) >= sizeof(num) - 24)
			return -EINVAL;
		memcpy(num + n, s + i, e - i);
		n += e - i;
		i = e;
		if (i < len && s[i] == ',' && i > intd && digits(s, i + 1, len) == i + 4)
			i++;
		else
			break;
	}
	if (i + 1 < len && s[i] == '.' && isdigit((unsigned char)s[i + 1])) {
		size_t e = digits(s, i + 1, len);

		if (n + (e - i) >= sizeof(num) - 12)
			return -EINVAL;
		memcpy(num + n, s + i, e - i);
		n += e - i;
		i = e;
	}
	if (n == 0 || !isdigit((unsigned char)num[n - 1]))
		return -EINVAL;
	/* An exponent: e, a sign maybe, digits. */
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		size_t j = i + 1, e;

		if (j < len && (s[j] == '-' || s[j] == '+'))
			j++;
		e = digits(s, j, len);
		if (e > j && e - j < 5) {
			memcpy(num + n, s + i, e - i);
			n += e - i;
			i = e;
		}
	}
	num[n] = '\0';
	/* An SI multiplier glued on, with no letter after it (22.5k, not 5ms or 3MiB). */
	if (i < len && s[i] && strchr("kKMG", s[i]) &&
	    (i + 1 == len || !isalpha((unsigned char)s[i + 1]))) {
		mult = s[i] == 'M' ? 1e6 : s[i] == 'G' ? 1e9 : 1e3;
		i++;
	}
	/* 1,5 or 1.2.3 is no number of ours (a decimal comma, a version). */
	if (i + 1 < len && (s[i] == ',' || s[i] == '.') && isdigit((unsigned char)s[i + 1]))
		return -EINVAL;
	*v = strtod(num, NULL) * mult;
	if (!isfinite(*v))
		return -EINVAL;
	if (unit)
		trimmed(s, i, len, unit, unitlen);
	return 0;
}

/* ---- parsing ----------------------------------------------------------------------------- */

static void set_add(struct pcost_metric_set *set, struct pcost_metric *m)
{
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): set->m is an array of pointers */
	xgrow((void **)&set->m, &set->cap, set->n + 1, sizeof(*set->m));
	set->m[set->n++] = m;
}

static void metric_free(struct pcost_metric *m)
{
	for (size_t i = 0; i < m->npat; i++) {
		regfree(&m->pat[i]->re);
		free(m->pat[i]);
	}
	if (m->den) {
		regfree(&m->den->re);
		free(m->den);
	}
	free(m->regex);
	free(m);
}

void pcost_metric_set_release(struct pcost_metric_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		metric_free(set->m[i]);
	free(set->m);
	memset(set, 0, sizeof(*set));
}

/* Compile re into *out; 0, or regcomp's code with its message in why. */
static int compile(const char *re, int cflags, unsigned vgroup, unsigned ugroup,
		   struct pcost_metric_re **out, char *why, size_t len)
{
	struct pcost_metric_re *r = xcalloc(1, sizeof(*r));
	int rc = regcomp(&r->re, re, REG_EXTENDED | cflags);

	if (rc) {
		regerror(rc, &r->re, why, len);
		free(r);
		return rc;
	}
	r->vgroup = vgroup;
	r->ugroup = ugroup;
	*out = r;
	return 0;
}

static const struct pcost_metric *set_find(const struct pcost_metric_set *set, const char *name)
{
	for (size_t i = 0; i < set->n; i++)
		if (!strcmp(set->m[i]->name, name))
			return set->m[i];
	return NULL;
}

/* A name already in set: -EINVAL and the line. */
static int name_taken(const struct pcost_metric_set *set, const char *arg, const char *name,
		      char *err, size_t errlen)
{
	const struct pcost_metric *o = set_find(set, name);

	if (!o)
		return 0;
	snprintf(err, errlen,
		 "--metric '%s': a metric named '%s' is given already%s%s%s; give "
		 "each metric its own name",
		 arg, name, o->preset ? " (by --metric " : "", o->preset ? o->preset : "",
		 o->preset ? ")" : "");
	return -EINVAL;
}

static int parse_preset(const struct pcost_metric_preset *p, struct pcost_metric_set *set,
			char *err, size_t errlen)
{
	char why[256];

	for (const struct pcost_metric_row *r = p->rows; r->name; r++)
		if (name_taken(set, p->name, r->name, err, errlen))
			return -EINVAL;
	for (const struct pcost_metric_row *r = p->rows; r->name; r++) {
		struct pcost_metric *m = xcalloc(1, sizeof(*m));
		const struct pcost_metric_pattern *d = &r->den;
		int rc = 0;

		snprintf(m->name, sizeof(m->name), "%s", r->name);
		snprintf(m->unit, sizeof(m->unit), "%s", r->unit);
		m->better = r->better;
		m->optional = r->optional;
		m->preset = p->name;
		m->regex = xstrdup(r->pat[0].re);
		for (size_t i = 0; i < PCOST_METRIC_PATTERNS && r->pat[i].re && !rc; i++) {
			const struct pcost_metric_pattern *q = &r->pat[i];

			rc = compile(q->re, q->cflags, q->vgroup, q->ugroup, &m->pat[i], why,
				     sizeof(why));
			m->npat += !rc;
		}
		if (!rc && d->re)
			rc = compile(d->re, d->cflags, d->vgroup, d->ugroup, &m->den, why,
				     sizeof(why));
		if (rc) {
			/* A preset that does not compile is a bug here, not the user's. */
			snprintf(err, errlen,
				 "--metric %s: BUG: the pattern of '%s' does not "
				 "compile: %s",
				 p->name, r->name, why);
			metric_free(m);
			return -EINVAL;
		}
		set_add(set, m);
	}
	return 0;
}

static void presets_list(char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (const struct pcost_metric_preset *p = pcost_metric_presets; p->name && off < len; p++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "", p->name);
}

static bool name_ok(const char *name)
{
	if (!isalpha((unsigned char)name[0]))
		return false;
	for (const char *c = name; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '_')
			return false;
	return true;
}

int pcost_metric_parse(const char *arg, struct pcost_metric_set *set, char *err, size_t errlen)
{
	const struct pcost_metric_preset *p = pcost_metric_preset_find(arg);
	const char *eq = strchr(arg, '='), *colon;
	char *shown = pcost_text_escape(arg), presets[128], name[PCOST_METRIC_NAME_MAX], why[256];
	struct pcost_metric *m = NULL;
	size_t nlen;
	int rc = -EINVAL;

	if (p) {
		rc = parse_preset(p, set, err, errlen);
		goto out;
	}
	presets_list(presets, sizeof(presets));
	if (!eq) {
		snprintf(err, errlen,
			 "--metric '%s': expected NAME[:higher|lower]=REGEX or a preset "
			 "(%s)",
			 shown, presets);
		goto out;
	}
	colon = memchr(arg, ':', (size_t)(eq - arg));
	nlen = (size_t)((colon ? colon : eq) - arg);
	if (nlen == 0 || nlen >= sizeof(name)) {
		snprintf(err, errlen,
			 "--metric '%s': the name before '=' must be 1 to %zu "
			 "characters",
			 shown, sizeof(name) - 1);
		goto out;
	}
	snprintf(name, sizeof(name), "%.*s", (int)nlen, arg);
	if (!name_ok(name)) {
		snprintf(err, errlen,
			 "--metric '%s': name '%s' must be a letter then letters, "
			 "digits or _ (it names a JSON key and a CSV column)",
			 shown, name);
		goto out;
	}
	m = xcalloc(1, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", name);
	if (colon) {
		size_t dlen = (size_t)(eq - colon - 1);

		if (dlen == 6 && !strncmp(colon + 1, "higher", 6)) {
			m->better = PCOST_METRIC_HIGHER;
		} else if (dlen == 5 && !strncmp(colon + 1, "lower", 5)) {
			m->better = PCOST_METRIC_LOWER;
		} else {
			snprintf(err, errlen,
				 "--metric '%s': after '%s:' give higher or lower "
				 "(which way is better), then =REGEX",
				 shown, name);
			goto out;
		}
	}
	if (!eq[1]) {
		snprintf(err, errlen,
			 "--metric '%s': the regex after '=' is empty; give one with "
			 "a group around the number: '%s=value: ([0-9.]+)'",
			 shown, name);
		goto out;
	}
	m->regex = xstrdup(eq + 1);
	m->pat[0] = NULL;
	if (compile(m->regex, REG_NEWLINE, 1, 0, &m->pat[0], why, sizeof(why))) {
		snprintf(err, errlen, "--metric '%s': the regex does not compile: %s", shown, why);
		goto out;
	}
	m->npat = 1;
	if (m->pat[0]->re.re_nsub != 1) {
		snprintf(err, errlen,
			 "--metric '%s': the regex has %zu capture groups, it needs "
			 "exactly one, around the number (POSIX has no (?:...): write a|b "
			 "alternatives around the group)",
			 shown, m->pat[0]->re.re_nsub);
		goto out;
	}
	if (name_taken(set, shown, name, err, errlen))
		goto out;
	set_add(set, m);
	m = NULL;
	rc = 0;
out:
	if (m)
		metric_free(m);
	free(shown);
	return rc;
}

/* ---- extraction ----------------------------------------------------------------------- */

#define MAX_GROUPS 8

/* The last of the non-overlapping matches of r in out[0..len): 1 and its groups, or 0. */
static int last_match(const struct pcost_metric_re *r, const char *out, size_t len,
		      regmatch_t g[MAX_GROUPS])
{
	regmatch_t cur[MAX_GROUPS];
	size_t off = 0;
	int found = 0;

	while (off <= len) {
		cur[0].rm_so = (regoff_t)off;
		cur[0].rm_eo = (regoff_t)len;
		if (regexec(&r->re, out, MAX_GROUPS, cur, REG_STARTEND))
			break;
		memcpy(g, cur, sizeof(cur));
		found = 1;
		off = (size_t)(cur[0].rm_eo > cur[0].rm_so ? cur[0].rm_eo : cur[0].rm_so + 1);
	}
	return found;
}

static bool blank(const char *s, size_t a, size_t b)
{
	while (a < b && isspace((unsigned char)s[a]))
		a++;
	return a == b;
}

/* The last 3 lines of out that are not blank: "a | b | c", for a metric that never matched. */
static void tail_lines(const char *out, size_t len, char *buf, size_t buflen)
{
	const char *line[3];
	size_t llen[3], n = 0, end = len, off = 0;

	while (end > 0 && n < 3) {
		size_t b = end;

		while (b > 0 && out[b - 1] != '\n' && out[b - 1] != '\r')
			b--;
		if (!blank(out, b, end)) {
			line[n] = out + b;
			llen[n++] = end - b;
		}
		end = b ? b - 1 : 0;
	}
	buf[0] = '\0';
	if (!n)
		snprintf(buf, buflen, "%s", len ? "(blank)" : "(none)");
	while (n-- > 0 && off < buflen) {
		char piece[101], *esc;

		trimmed(line[n], 0, llen[n] > 100 ? 100 : llen[n], piece, sizeof(piece));
		esc = pcost_text_escape(piece);
		off += (size_t)snprintf(buf + off, buflen - off, "%s%s", off ? " | " : "", esc);
		free(esc);
	}
}

/* The number of group vg of a match, its unit from group ug or the text around. */
static int match_value(const struct pcost_metric *m, const struct pcost_metric_re *r,
		       const char *out, const regmatch_t *g, double *v, char *unit, size_t ulen,
		       char *err, size_t errlen)
{
	const regmatch_t *vg = &g[r->vgroup];
	char text[64];

	if (vg->rm_so < 0 || pcost_metric_number(out + vg->rm_so, (size_t)(vg->rm_eo - vg->rm_so),
						 v, unit, ulen) < 0) {
		trimmed(out, vg->rm_so < 0 ? 0 : (size_t)vg->rm_so,
			vg->rm_so < 0 ? 0 : (size_t)vg->rm_eo, text, sizeof(text));
		snprintf(err, errlen, "metric '%s': the match '%s' is not a number", m->name, text);
		return -EINVAL;
	}
	if (r->ugroup && g[r->ugroup].rm_so >= 0) {
		trimmed(out, (size_t)g[r->ugroup].rm_so, (size_t)g[r->ugroup].rm_eo, unit, ulen);
	} else if (!unit[0]) {
		/* A known unit right after the group, inside the match: "= ([0-9.]+) ms". */
		size_t a = (size_t)vg->rm_eo, b;
		enum unit_kind k;
		double f;

		while (a < (size_t)g[0].rm_eo && out[a] == ' ')
			a++;
		b = a;
		while (b < (size_t)g[0].rm_eo && !isspace((unsigned char)out[b]) && out[b] != ',' &&
		       out[b] != ')' && out[b] != ';')
			b++;
		trimmed(out, a, b, text, sizeof(text));
		if (text[0] && unit_lookup(text, &k, &f))
			snprintf(unit, ulen, "%s", text);
	}
	return 0;
}

/* The value of the last match among m's patterns (or of r alone); 0, -ENOENT, -EINVAL. */
static int pattern_value(const struct pcost_metric *m, struct pcost_metric_re *const *pats,
			 size_t npat, const char *out, size_t outlen, double *v, char *unit,
			 size_t ulen, char *err, size_t errlen)
{
	regmatch_t g[MAX_GROUPS], best[MAX_GROUPS];
	const struct pcost_metric_re *which = NULL;

	for (size_t i = 0; i < npat; i++) {
		if (last_match(pats[i], out, outlen, g) && (!which || g[0].rm_so > best[0].rm_so)) {
			memcpy(best, g, sizeof(g));
			which = pats[i];
		}
	}
	if (!which)
		return -ENOENT;
	unit[0] = '\0';
	return match_value(m, which, out, best, v, unit, ulen, err, errlen);
}

int pcost_metric_extract(const struct pcost_metric *m, const char *out, size_t outlen, char *err,
			 size_t errlen, struct pcost_metric_value *v)
{
	char found[PCOST_METRIC_UNIT_MAX], dunit[PCOST_METRIC_UNIT_MAX], tail[400];
	double x, secs;
	int rc;

	memset(v, 0, sizeof(*v));
	if (!out)
		out = "", outlen = 0;
	rc = pattern_value(m, m->pat, m->npat, out, outlen, &x, found, sizeof(found), err, errlen);
	if (rc == 0 && m->den) {
		rc = pattern_value(m, &m->den, 1, out, outlen, &secs, dunit, sizeof(dunit), err,
				   errlen);
		if (rc == 0 && !(secs > 0)) {
			snprintf(err, errlen, "metric '%s': the time it is divided by is %g",
				 m->name, secs);
			return -EINVAL;
		}
		if (rc == 0) /* no match leaves secs unset */
			x /= secs;
	}
	if (rc == -ENOENT) {
		char *re = pcost_text_escape(m->regex);

		tail_lines(out, outlen, tail, sizeof(tail));
		snprintf(err, errlen,
			 "metric '%s': no match for /%.120s/ in the output; its last "
			 "lines: %s",
			 m->name, re, tail);
		free(re);
	}
	if (rc)
		return rc;
	if (m->unit[0] && found[0]) {
		if (pcost_metric_convert(x, found, m->unit, &v->value) < 0) {
			snprintf(err, errlen,
				 "metric '%s': the output gives it in '%s', which is no "
				 "'%s'",
				 m->name, found, m->unit);
			return -EINVAL;
		}
	} else {
		v->value = x;
	}
	snprintf(v->unit, sizeof(v->unit), "%s", m->unit[0] ? m->unit : found);
	v->better = m->better != PCOST_METRIC_AUTO ? m->better
		    : is_time(v->unit)		   ? PCOST_METRIC_LOWER
						   : PCOST_METRIC_HIGHER;
	return 0;
}

int pcost_metric_extract_set(const struct pcost_metric_set *set, const char *out, size_t outlen,
			     struct pcost_metric_value *v, bool *found, char *err, size_t errlen)
{
	for (size_t i = 0; i < set->n; i++) {
		int rc = pcost_metric_extract(set->m[i], out, outlen, err, errlen, &v[i]);

		found[i] = rc == 0;
		if (rc && (rc != -ENOENT || !set->m[i]->optional))
			return rc;
	}
	/* A preset of optional metrics, none of them found: the output is not that tool's. */
	for (size_t i = 0; i < set->n; i++) {
		const char *p = set->m[i]->preset;
		bool any = false;
		char tail[400];

		if (!p || (i > 0 && set->m[i - 1]->preset == p))
			continue;
		for (size_t j = i; j < set->n && set->m[j]->preset == p; j++)
			any = any || found[j];
		if (!any) {
			tail_lines(out, outlen, tail, sizeof(tail));
			snprintf(err, errlen,
				 "metric preset '%s': none of its figures in the "
				 "output; its last lines: %s",
				 p, tail);
			return -ENOENT;
		}
	}
	return 0;
}
