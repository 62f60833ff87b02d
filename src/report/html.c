// SPDX-License-Identifier: MIT
/*
 * html: one self-contained page per session.  The headline is the text
 * report's, the tables are the markdown report's (laid out as HTML tables),
 * the figures are plot.c's SVG inlined, the environment is the stored
 * fingerprint.  Every byte from the session goes through pcost_xml_escape.
 */
#include "report/html.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/escape.h"
#include "report/plot.h"

/* Escape n bytes of s. */
static void escape_n(FILE *out, const char *s, size_t n)
{
	char *t = strndup(s, n);

	pcost_xml_escape(out, t);
	free(t);
}

static const char css[] =
	"body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:0;color:#1b1f24;"
	"background:#f6f7f9}"
	"main,header{max-width:1200px;margin:0 auto;padding:0 24px}"
	"header{padding-top:18px}"
	"h1{font-size:1.45em;margin:.2em 0}h2{font-size:1.2em;margin:1.4em 0 .5em;"
	"border-bottom:1px solid #d6d9de;padding-bottom:.2em}h3{font-size:1em;margin:1.2em 0 .4em}"
	".headline p{margin:.1em 0;color:#3c444d}"
	"dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:.8em 0;"
	"font-size:.92em}dl.meta dt{color:#59636e}dl.meta dd{margin:0;overflow-wrap:anywhere}"
	"code{font:13px ui-monospace,'DejaVu Sans Mono',monospace;background:#eceef1;padding:1px 4px;"
	"border-radius:3px}"
	".warnings{background:#fff8e1;border-left:4px solid #e0a800;padding:.5em 1em .5em 2em;"
	"margin:.8em 0}.warnings li{margin:.15em 0}"
	"table{border-collapse:collapse;background:#fff;margin:.4em 0 1em;font-size:.9em;"
	"box-shadow:0 1px 2px rgba(0,0,0,.08)}"
	"th,td{border:1px solid #dde1e6;padding:3px 8px;text-align:left;vertical-align:top}"
	"th{background:#eef1f4}td.num{text-align:right;font-variant-numeric:tabular-nums;"
	"white-space:nowrap}tbody tr:nth-child(even){background:#fafbfc}"
	"table.env td{overflow-wrap:anywhere}table.env th{white-space:nowrap;font-weight:normal}"
	"figure{background:#fff;margin:0 0 1.2em;padding:8px;box-shadow:0 1px 2px rgba(0,0,0,.08);"
	"max-width:980px}"
	"figure svg{width:100%;height:auto;display:block}figcaption{color:#59636e;font-size:.9em;"
	"padding:4px 6px}"
	"footer{max-width:1200px;margin:2em auto;padding:0 24px;color:#7a838c;font-size:.85em}";

/* A cell that is a figure ("1.2 ms", "+3.4% [..]", "128") is right-aligned. */
static bool numeric(const char *s, size_t n)
{
	return n && strchr("0123456789+-.[", s[0]) && !(s[0] == '-' && n == 1);
}

/* A cell's n bytes at c, "\|" read as '|' (the markdown's escape), as HTML text. */
static void cell(FILE *out, const char *c, size_t n)
{
	char *t = strndup(c, n), *w = t;

	for (const char *r = t; *r; r++)
		if (!(r[0] == '\\' && r[1] == '|'))
			*w++ = *r;
	*w = 0;
	pcost_xml_escape(out, t);
	free(t);
}

/* One markdown table row: cells between unescaped '|', trimmed. */
static void table_row(FILE *out, const char *line, bool head)
{
	const char *bar = strchr(line, '|');
	size_t i = bar ? (size_t)(bar - line) : strlen(line); /* at a '|', or at the end */

	fputs("<tr>", out);
	while (line[i] == '|' && line[i + 1]) {
		size_t c = i + 1, e = c, n;

		while (line[e] && !(line[e] == '|' && line[e - 1] != '\\'))
			e++;
		if (!line[e])
			break;
		while (c < e && line[c] == ' ')
			c++;
		n = e - c;
		while (n && line[c + n - 1] == ' ')
			n--;
		fputs(head ? "<th>" : numeric(line + c, n) ? "<td class=\"num\">" : "<td>", out);
		cell(out, line + c, n);
		fputs(head ? "</th>" : "</td>", out);
		i = e;
	}
	fputs("</tr>\n", out);
}

enum block { NONE, TABLE, LIST };

static enum block close_block(FILE *out, enum block b)
{
	if (b == TABLE)
		fputs("</tbody></table>\n", out);
	else if (b == LIST)
		fputs("</ul>\n", out);
	return NONE;
}

/* "**Reads inside a matmul** (...)" and "# dormant probes ..." become headings. */
static void heading(FILE *out, const char *line)
{
	const char *p = line + strspn(line, "#* ");
	char *t = xstrdup(p), *star;

	while ((star = strstr(t, "**")))
		memmove(star, star + 2, strlen(star + 2) + 1);
	fputs("<h3>", out);
	pcost_xml_escape(out, t);
	fputs("</h3>\n", out);
	free(t);
}

/*
 * The markdown report as HTML: tables (header row, then body rows), lists
 * (warnings get their own class), headings and paragraphs; lines of the
 * headline (head, one a line) are left out.  Nothing else is
 * interpreted: every character of a cell is text.
 */
static bool in_headline(const char *head, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = strstr(head, line); p; p = strstr(p + 1, line))
		if ((p == head || p[-1] == '\n') && p[n] == '\n')
			return true;
	return false;
}

static void markdown_to_html(FILE *out, const char *md, const char *head)
{
	enum block b = NONE;
	bool after_head = false;
	char *copy = xstrdup(md), *save = copy;

	for (char *line = strsep(&save, "\n"); line; line = strsep(&save, "\n")) {
		const char *t = line + strspn(line, " ");

		if (*t == '|') {
			if (b != TABLE) {
				close_block(out, b);
				fputs("<table>\n<thead>", out);
				table_row(out, t, true);
				fputs("</thead>\n<tbody>\n", out);
				b = TABLE;
				after_head = true;
			} else if (after_head && strspn(t, "|-: ") == strlen(t)) {
				after_head = false;
			} else {
				after_head = false;
				table_row(out, t, false);
			}
			continue;
		}
		if (!strncmp(t, "- ", 2)) {
			bool warn = !strncmp(t, "- warning: ", 11);

			if (b != LIST) {
				close_block(out, b);
				fputs(warn ? "<ul class=\"warnings\">\n" : "<ul>\n", out);
				b = LIST;
			}
			fputs("<li>", out);
			pcost_xml_escape(out,
					 t + (warn ? 11 : 2)); /* the list's class says "warning" */
			fputs("</li>\n", out);
			continue;
		}
		b = close_block(out, b);
		/* The headline is the page's header already. */
		if (!*t || in_headline(head, t + strspn(t, "# ")))
			continue;
		if (*t == '#' || !strncmp(t, "**", 2)) {
			heading(out, t);
			continue;
		}
		fputs("<p>", out);
		pcost_xml_escape(out, t);
		fputs("</p>\n", out);
	}
	close_block(out, b);
	free(copy);
}

/* The text report's leading "# " lines: the headline as the live command printed it. */
static char *headline_of(const char *txt)
{
	char *out = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&out, &n);

	for (const char *l = txt, *e; l && !strncmp(l, "# ", 2); l = e ? e + 1 : NULL) {
		e = strchr(l, '\n');
		fprintf(m, "%.*s\n", (int)(e ? e - l - 2 : (long)strlen(l + 2)), l + 2);
	}
	fclose(m);
	return out;
}

static void headline(FILE *out, const struct pcost_session *s, const char *head)
{
	const char *l = head;

	fputs("<div class=\"headline\">\n", out);
	if (!*head)
		fprintf(out, "<h1>probecost %s session %lld</h1>\n",
			pcost_session_kind_name(s->kind), (long long)s->id);
	for (bool first = true; *l; first = false) {
		const char *e = strchr(l, '\n');

		fputs(first ? "<h1>" : "<p>", out);
		escape_n(out, l, (size_t)(e - l));
		fputs(first ? "</h1>\n" : "</p>\n", out);
		l = e + 1;
	}
	fputs("</div>\n", out);
}

static void meta_row(FILE *out, const char *key, const char *value, bool code)
{
	fprintf(out, "<dt>%s</dt><dd>%s", key, code ? "<code>" : "");
	pcost_xml_escape(out, value);
	fprintf(out, "%s</dd>\n", code ? "</code>" : "");
}

static void meta(FILE *out, const struct pcost_session *s)
{
	char when[64] = "unknown", buf[64];
	time_t t = (time_t)s->started;
	struct tm tm;

	if (s->started > 0 && gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	fputs("<dl class=\"meta\">\n", out);
	snprintf(buf, sizeof(buf), "%lld (%s)", (long long)s->id, pcost_session_kind_name(s->kind));
	meta_row(out, "session", buf, false);
	meta_row(out, "command", s->cmdline && *s->cmdline ? s->cmdline : "unknown", true);
	meta_row(out, "started", when, false);
	meta_row(out, "probecost", s->version ? s->version : "unknown", false);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)s->seed);
	meta_row(out, "seed", buf, false);
	meta_row(out, "complete", s->complete ? "yes" : "no: interrupted, partial results", false);
	fputs("</dl>\n", out);
}

/* The stored fingerprint: warnings first, then every field (unknown ones with why). */
static void environment(FILE *out, const cJSON *env, bool warnings_only)
{
	const cJSON *w = cJSON_GetObjectItemCaseSensitive(env, "warnings");
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(env, "fields");
	const cJSON *unk = cJSON_GetObjectItemCaseSensitive(env, "unknown");
	const cJSON *it;

	if (warnings_only) {
		if (cJSON_GetArraySize(w) <= 0)
			return;
		fputs("<ul class=\"warnings\" id=\"env-warnings\">\n", out);
		cJSON_ArrayForEach(it, w) if (cJSON_IsString(it))
		{
			fputs("<li>", out);
			pcost_xml_escape(out, it->valuestring);
			fputs("</li>\n", out);
		}
		fputs("</ul>\n", out);
		return;
	}
	fputs("<table class=\"env\"><tbody>\n", out);
	cJSON_ArrayForEach(it, f)
	{
		const cJSON *why = cJSON_GetObjectItemCaseSensitive(unk, it->string);

		fputs("<tr><th>", out);
		pcost_xml_escape(out, it->string);
		fputs("</th><td>", out);
		pcost_xml_escape(out, cJSON_IsString(it) ? it->valuestring : "");
		if (cJSON_IsString(why)) {
			fputs(" (", out);
			pcost_xml_escape(out, why->valuestring);
			fputc(')', out);
		}
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody></table>\n", out);
}

/* Copy s to out with every occurrence of from replaced by to. */
static void replace_all(FILE *out, const char *s, const char *from, const char *to)
{
	size_t n = strlen(from);
	const char *p;

	while ((p = strstr(s, from))) {
		fwrite(s, 1, (size_t)(p - s), out);
		fputs(to, out);
		s = p + n;
	}
	fputs(s, out);
}

/*
 * cairo's SVG made fit to inline: no XML declaration, no namespace URLs (the
 * HTML parser knows svg), sized by CSS, and its ids (glyph0-1, clip1, ...)
 * prefixed with the figure's number so several figures share one page.
 */
static void inline_svg(FILE *out, const char *svg, unsigned nr)
{
	static const char *const drop[] = {
		" xmlns=\"http://www.w3.org/2000/svg\"",
		" xmlns:xlink=\"http://www.w3.org/1999/xlink\"",
		" width=\"960pt\" height=\"560pt\"",
	};
	const char *p = strstr(svg, "<svg ");
	char *a = xstrdup(p ? p : ""), *b = NULL, *c = NULL, pre[32], href[40], url[40];
	size_t n = 0;
	FILE *m;

	for (size_t i = 0; i < ARRAY_SIZE(drop); i++) {
		char *hit = strstr(a, drop[i]);

		if (hit)
			memmove(hit, hit + strlen(drop[i]), strlen(hit + strlen(drop[i])) + 1);
	}
	snprintf(pre, sizeof(pre), "id=\"f%u-", nr);
	snprintf(href, sizeof(href), "href=\"#f%u-", nr);
	snprintf(url, sizeof(url), "url(#f%u-", nr);
	m = open_memstream(&b, &n);
	replace_all(m, a, "id=\"", pre);
	fclose(m);
	m = open_memstream(&c, &n);
	replace_all(m, b, "href=\"#", href);
	fclose(m);
	replace_all(out, c, "url(#", url);
	free(a);
	free(b);
	free(c);
}

static void figures(FILE *out, const struct pcost_session *s)
{
	struct pcost_figure *f;
	size_t n;
	char err[256];
	int rc = pcost_plot_figures(s, &f, &n, err, sizeof(err));

	if (rc) {
		fputs("<p class=\"warnings\">no figures: ", out);
		pcost_xml_escape(out, err);
		fputs("</p>\n", out);
		return;
	}
	if (!n)
		fputs("<p>This session has nothing to draw.</p>\n", out);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "<figure data-figure=\"%s\">\n", f[i].name);
		inline_svg(out, f[i].svg, (unsigned)i + 1);
		fputs("<figcaption>", out);
		pcost_xml_escape(out, f[i].caption);
		fputs("</figcaption>\n</figure>\n", out);
	}
	pcost_figures_free(f, n);
}

/* Counted by the browser, for a reader of the DOM: table rows of the results, figures. */
static const char summary_js[] =
	"<script>(function(){var b=document.body;"
	"b.dataset.rows=document.querySelectorAll('#results tbody tr').length;"
	"b.dataset.figures=document.querySelectorAll('#figures figure svg').length;"
	"b.dataset.envRows=document.querySelectorAll('#environment tbody tr').length;})();</script>\n";

int pcost_report_html(const struct pcost_session *s, const char *md, const char *text, FILE *out)
{
	char *head = headline_of(text);
	cJSON *env = s->env_json ? cJSON_Parse(s->env_json) : NULL;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
	      out);
	fprintf(out,
		"<title>probecost %s session %lld</title>\n<style>%s</style>\n</head>\n<body>\n",
		pcost_session_kind_name(s->kind), (long long)s->id, css);
	fputs("<header>\n", out);
	headline(out, s, head ? head : "");
	meta(out, s);
	environment(out, env, true);
	fputs("</header>\n<main>\n<section id=\"figures\">\n<h2>Figures</h2>\n", out);
	figures(out, s);
	fputs("</section>\n<section id=\"results\">\n<h2>Results</h2>\n", out);
	markdown_to_html(out, md, head ? head : "");
	fputs("</section>\n<section id=\"environment\">\n<h2>Environment</h2>\n", out);
	if (env)
		environment(out, env, false);
	else
		fputs("<p>No environment was stored with this session.</p>\n", out);
	fputs("</section>\n</main>\n<footer>Written by probecost ", out);
	pcost_xml_escape(out, PCOST_VERSION);
	fputs(" from the stored session; the same figures as <code>probecost report ID</code>."
	      "</footer>\n",
	      out);
	fputs(summary_js, out);
	fputs("</body>\n</html>\n", out);
	free(head);
	cJSON_Delete(env);
	return ferror(out) ? -EIO : 0;
}

int pcost_html_markdown_page(const char *title, const char *md, FILE *out)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
	      out);
	pcost_xml_escape(out, title);
	fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n<header>\n<h1>", css);
	pcost_xml_escape(out, title);
	fputs("</h1>\n</header>\n<main>\n<section id=\"results\">\n", out);
	markdown_to_html(out, md, "");
	fputs("</section>\n</main>\n<footer>Written by probecost ", out);
	pcost_xml_escape(out, PCOST_VERSION);
	fputs(".</footer>\n</body>\n</html>\n", out);
	return ferror(out) ? -EIO : 0;
}
