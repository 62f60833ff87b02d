// SPDX-License-Identifier: MIT
/*
 * test_plot: the figures show the session's values.  Each SVG is read back:
 * its axes (data-pcost-x/-y on the root) map every drawn bar, whisker, point
 * and fitted line to a value, and those values must be the analysis layer's
 * (pcost_analyze, pcost_summarize) within the SVG's rounding, one mark per row.
 * PNG and PDF: the same drawing through another cairo surface; their headers.
 */
#include <cairo.h>
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "report/plot.h"
#include "stats/analyze.h"
#include "stats/compare.h"
#include "synth_rich.h"

static char tmpdir[64];

/* Pictures go to a private directory removed at the end, or to $PCOST_PLOT_DIR (kept, to look at). */
static const char *out(const char *name, char *buf, size_t len)
{
	const char *d = getenv("PCOST_PLOT_DIR");

	snprintf(buf, len, "%s/pcost-test-%s", d ? d : tmpdir, name);
	return buf;
}

static int setup(void **st)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/pcost-plot-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **st)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) ? -1 : 0;
}

/* ---- reading an SVG back ---------------------------------------------------------- */

struct axis {
	bool ok, log;
	double px0, px1, v0, v1, unit;
};

/* The root's data-pcost-x / data-pcost-y: "PX0 PX1 V0 V1 lin|log UNIT". */
static struct axis axis_of(const char *svg, const char *attr)
{
	struct axis a = { 0 };
	const char *p = strstr(svg, attr);
	char scale[8];

	if (p && sscanf(p + strlen(attr) + 2, "%lf %lf %lf %lf %7s %lf", &a.px0, &a.px1, &a.v0,
			&a.v1, scale, &a.unit) == 6) {
		a.ok = true;
		a.log = !strcmp(scale, "log");
	}
	return a;
}

/* The value (in the session's unit) that pixel px shows on axis a. */
static double value_at(const struct axis *a, double px)
{
	double f = (px - a->px0) / (a->px1 - a->px0), v;

	if (a->log)
		v = pow(10, log10(a->v0) + f * (log10(a->v1) - log10(a->v0)));
	else
		v = a->v0 + f * (a->v1 - a->v0);
	return v * a->unit;
}

/* The pixel that shows value v (in the session's unit) on axis a. */
static double pixel_of(const struct axis *a, double v)
{
	double f;

	v /= a->unit;
	if (a->log)
		f = (log10(v) - log10(a->v0)) / (log10(a->v1) - log10(a->v0));
	else
		f = (v - a->v0) / (a->v1 - a->v0);
	return a->px0 + f * (a->px1 - a->px0);
}

/* cairo writes coordinates in 1/256 of a pixel: got and want land on the same one. */
#define PX_ROUND (1.0 / 256)

static bool near(const struct axis *a, double got, double want)
{
	return fabs(pixel_of(a, got) - pixel_of(a, want)) <= PX_ROUND;
}

#define MAX_PTS 64

/* One drawn <path>: filled or stroked, its colour, width, opacity and points. */
struct mark {
	bool fill, curve;
	char colour[48];
	double width, opacity;
	size_t n;
	double x[MAX_PTS], y[MAX_PTS];
};

static double style_num(const char *style, const char *key, double dflt)
{
	const char *p = strstr(style, key);

	return p ? atof(p + strlen(key)) : dflt;
}

static void parse_d(const char *d, struct mark *m)
{
	char *end;

	while (*d) {
		if (*d == 'C')
			m->curve = true;
		if (strchr("MLCZ ", *d)) {
			d++;
			continue;
		}
		double x = strtod(d, &end), y;

		if (end == d)
			break;
		y = strtod(end, &end);
		if (m->n < MAX_PTS) {
			m->x[m->n] = x;
			m->y[m->n] = y;
			m->n++;
		}
		d = end;
	}
}

/* Every <path> of the drawing (the glyph definitions before it left out); caller frees. */
static struct mark *marks_of(const char *svg, size_t *n)
{
	const char *p = strstr(svg, "id=\"surface");
	struct mark *m = NULL;
	size_t cap = 0;

	*n = 0;
	assert_non_null(p);
	while ((p = strstr(p, "<path style=\""))) {
		const char *st = p + 13, *se = strchr(st, '"'), *d = strstr(se, "d=\"");
		char style[512];
		struct mark *k;

		xgrow((void **)&m, &cap, *n + 1, sizeof(*m));
		k = &m[(*n)++];
		memset(k, 0, sizeof(*k));
		snprintf(style, sizeof(style), "%.*s", (int)(se - st), st);
		k->fill = !strstr(style, "fill:none");
		sscanf(strstr(style, k->fill ? "fill:rgb(" : "stroke:rgb(") ?: "",
		       "%*[a-z]:%47[^;]", k->colour);
		k->width = style_num(style, "stroke-width:", 0);
		k->opacity = style_num(style, k->fill ? "fill-opacity:" : "stroke-opacity:", 1);
		parse_d(d + 3, k);
		p = d;
	}
	return m;
}

static void bbox(const struct mark *m, double *x0, double *x1, double *y0, double *y1)
{
	*x0 = *y0 = INFINITY;
	*x1 = *y1 = -INFINITY;
	for (size_t i = 0; i < m->n; i++) {
		*x0 = fmin(*x0, m->x[i]);
		*x1 = fmax(*x1, m->x[i]);
		*y0 = fmin(*y0, m->y[i]);
		*y1 = fmax(*y1, m->y[i]);
	}
}

/* A data point: a small filled circle (cairo draws arcs as curves). */
static bool is_point(const struct mark *m)
{
	double x0, x1, y0, y1;

	bbox(m, &x0, &x1, &y0, &y1);
	return m->fill && m->curve && m->opacity > 0.5 && x1 - x0 < 12 && y1 - y0 < 12;
}

/* A bar: a filled rectangle one end of which stands on base (the pixel of value 0). */
static bool is_bar(const struct mark *m, double base, double *top)
{
	double x0, x1, y0, y1;

	if (!m->fill || m->curve || m->n != 5 || strstr(m->colour, "100%,100%,100%"))
		return false;
	bbox(m, &x0, &x1, &y0, &y1);
	if (fabs(y1 - base) < 1e-3)
		*top = y0;
	else if (fabs(y0 - base) < 1e-3)
		*top = y1;
	else
		return false;
	return true;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t n = 0, cap = 0, got;

	assert_non_null(f);
	do {
		xgrow((void **)&buf, &cap, n + 4097, 1);
		got = fread(buf + n, 1, 4096, f);
		n += got;
	} while (got);
	buf[n] = 0;
	fclose(f);
	return buf;
}

/* Each wanted value is one mark's (matched once), and there are as many marks as values. */
static void assert_same_values(const struct axis *a, const double *got, size_t ngot,
			       const double *want, size_t nwant)
{
	bool used[MAX_PTS] = { false };

	assert_int_equal(ngot, nwant);
	for (size_t i = 0; i < nwant; i++) {
		size_t j = 0;

		while (j < ngot && (used[j] || !near(a, got[j], want[i])))
			j++;
		if (j == ngot)
			fail_msg("value %g is not drawn", want[i]);
		used[j] = true;
	}
}

/* ---- the figures ------------------------------------------------------------------ */

static void assert_png_960x560(const char *path)
{
	cairo_surface_t *img = cairo_image_surface_create_from_png(path);

	assert_int_equal(cairo_surface_status(img), CAIRO_STATUS_SUCCESS);
	assert_int_equal(cairo_image_surface_get_width(img), 960);
	assert_int_equal(cairo_image_surface_get_height(img), 560);
	cairo_surface_destroy(img);
}

/* run: a bar per monitored row at its overhead (%), whiskers at its 95% interval. */
static void test_run_plot_values(void **unused)
{
	struct pcost_session s;
	struct pcost_config_stats *st;
	double got[MAX_PTS], lo[MAX_PTS], hi[MAX_PTS], want[MAX_PTS], wlo[MAX_PTS], whi[MAX_PTS];
	size_t nm, nb = 0, nw = 0, nwant = 0;
	char path[256], err[256], head[6] = { 0 };
	struct mark *m;
	struct axis y;
	char *svg;
	FILE *f;

	synth_rich_run(&s, 1, "6.18.0");
	s.id = 1;
	assert_int_equal(pcost_analyze(&s, &st), 0);
	assert_int_equal(
		pcost_plot_session(&s, out("run.svg", path, sizeof(path)), err, sizeof(err)), 0);
	svg = slurp(path);
	y = axis_of(svg, "data-pcost-y");
	assert_true(y.ok);
	assert_true(y.log); /* 2% to 4800%: two decades and more */
	m = marks_of(svg, &nm);
	for (size_t i = 0; i < nm; i++) {
		double top;

		if (is_bar(&m[i], y.px0, &top))
			got[nb++] = value_at(&y, top);
		else if (!m[i].fill && m[i].width == 1.3 && m[i].n == 6) {
			lo[nw] = value_at(&y, m[i].y[0]);
			hi[nw++] = value_at(&y, m[i].y[1]);
		}
	}
	for (size_t i = 0; i < s.nconfigs; i++)
		if (st[i].baseline >= 0) {
			want[nwant] = 100 * st[i].overhead;
			wlo[nwant] = 100 * st[i].overhead_lo;
			whi[nwant++] = 100 * st[i].overhead_hi;
		}
	assert_int_equal(nwant, 4);
	assert_same_values(&y, got, nb, want, nwant);
	assert_same_values(&y, lo, nw, wlo, nwant);
	assert_same_values(&y, hi, nw, whi, nwant);
	free(m);
	free(svg);

	assert_int_equal(
		pcost_plot_session(&s, out("run.png", path, sizeof(path)), err, sizeof(err)), 0);
	assert_png_960x560(path);
	assert_int_equal(
		pcost_plot_session(&s, out("run.pdf", path, sizeof(path)), err, sizeof(err)), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(fread(head, 1, 5, f), 5);
	fclose(f);
	assert_string_equal(head, "%PDF-");
	assert_int_equal(pcost_plot_session(&s, out("x.gif", path, sizeof(path)), err, sizeof(err)),
			 -EINVAL);
	free(st);
	pcost_session_release(&s);
}

/* probes: a bar per armed row at its cost per hit, whiskers at its 95% interval. */
static void test_probes_plot_values(void **unused)
{
	struct pcost_session s;
	struct pcost_config_stats *st;
	double got[MAX_PTS], want[MAX_PTS], lo[MAX_PTS], hi[MAX_PTS], wlo[MAX_PTS], whi[MAX_PTS];
	size_t nm, nb = 0, nw = 0, nwant = 0;
	char path[256], err[256];
	struct mark *m;
	struct axis y;
	char *svg;

	synth_rich_probes(&s);
	assert_int_equal(pcost_analyze(&s, &st), 0);
	assert_int_equal(
		pcost_plot_session(&s, out("probes.svg", path, sizeof(path)), err, sizeof(err)), 0);
	svg = slurp(path);
	y = axis_of(svg, "data-pcost-y");
	assert_true(y.ok);
	m = marks_of(svg, &nm);
	for (size_t i = 0; i < nm; i++) {
		double top;

		if (is_bar(&m[i],
			   y.log ? y.px0 : y.px0 - (0 - y.v0) / (y.v1 - y.v0) * (y.px0 - y.px1),
			   &top))
			got[nb++] = value_at(&y, top);
		else if (!m[i].fill && m[i].width == 1.3 && m[i].n == 6) {
			lo[nw] = value_at(&y, m[i].y[0]);
			hi[nw++] = value_at(&y, m[i].y[1]);
		}
	}
	for (size_t i = 0; i < s.nconfigs; i++)
		if (st[i].baseline >= 0) {
			want[nwant] = st[i].per_event_ns;
			wlo[nwant] = st[i].per_event_ns_lo;
			whi[nwant++] = st[i].per_event_ns_hi;
		}
	assert_int_equal(nwant, 6);
	assert_same_values(&y, got, nb, want, nwant);
	assert_same_values(&y, lo, nw, wlo, nwant);
	assert_same_values(&y, hi, nw, whi, nwant);
	free(m);
	free(svg);
	assert_int_equal(
		pcost_plot_session(&s, out("probes.png", path, sizeof(path)), err, sizeof(err)), 0);
	assert_png_960x560(path);
	free(st);
	pcost_session_release(&s);
}

/* counters: a point per series at (k, mean ns). */
static void test_counters_plot_values(void **unused)
{
	struct pcost_session s;
	double gx[MAX_PTS], gy[MAX_PTS], wx[MAX_PTS], wy[MAX_PTS];
	size_t nm, np = 0, nwant = 0;
	char path[256], err[256];
	struct mark *m;
	struct axis x, y;
	char *svg;

	synth_rich_counters(&s, 1);
	assert_int_equal(
		pcost_plot_session(&s, out("counters.svg", path, sizeof(path)), err, sizeof(err)),
		0);
	svg = slurp(path);
	x = axis_of(svg, "data-pcost-x");
	y = axis_of(svg, "data-pcost-y");
	assert_true(x.ok && y.ok);
	m = marks_of(svg, &nm);
	for (size_t i = 0; i < nm; i++) {
		double x0, x1, y0, y1;

		if (!is_point(&m[i]))
			continue;
		bbox(&m[i], &x0, &x1, &y0, &y1);
		/* Legend swatches sit above the plot area. */
		if ((y0 + y1) / 2 < y.px1)
			continue;
		gx[np] = value_at(&x, (x0 + x1) / 2);
		gy[np++] = value_at(&y, (y0 + y1) / 2);
	}
	for (size_t i = 0; i < s.nseries; i++) {
		struct pcost_summary sum;

		pcost_summarize(s.series[i].ns, s.series[i].n, &sum);
		wx[nwant] = s.series[i].nevents;
		wy[nwant++] = sum.mean;
	}
	assert_int_equal(nwant, 17);
	assert_same_values(&x, gx, np, wx, nwant);
	assert_same_values(&y, gy, np, wy, nwant);
	free(m);
	free(svg);
	assert_int_equal(
		pcost_plot_session(&s, out("counters.png", path, sizeof(path)), err, sizeof(err)),
		0);
	assert_png_960x560(path);
	pcost_session_release(&s);
}

struct panel {
	double left, top, right, bottom;
	struct axis x, y;
};

/* The panels of a fit figure: data-pcost-panel-N and its axes, N from 1. */
static size_t panels_of(const char *svg, struct panel *p, size_t max)
{
	size_t n = 0;
	char attr[48];
	const char *a;

	for (; n < max; n++) {
		snprintf(attr, sizeof(attr), "data-pcost-panel-%zu=\"", n + 1);
		if (!(a = strstr(svg, attr)) ||
		    sscanf(a + strlen(attr), "%lf %lf %lf %lf", &p[n].left, &p[n].top, &p[n].right,
			   &p[n].bottom) != 4)
			break;
		snprintf(attr, sizeof(attr), "data-pcost-x-%zu", n + 1);
		p[n].x = axis_of(svg, attr);
		snprintf(attr, sizeof(attr), "data-pcost-y-%zu", n + 1);
		p[n].y = axis_of(svg, attr);
		assert_true(p[n].x.ok && p[n].y.ok);
	}
	return n;
}

/* The panel holding pixel (x, y), or -1. */
static int panel_at(const struct panel *p, size_t n, double x, double y)
{
	for (size_t k = 0; k < n; k++)
		if (x >= p[k].left - 1 && x <= p[k].right + 1 && y >= p[k].top - 1 &&
		    y <= p[k].bottom + 1)
			return (int)k;
	return -1;
}

/*
 * --scale: a panel per monitor; in it a point per row of that monitor at
 * (events, extra time), the line through (0, fixed) with the fitted cost per
 * event as its slope, the band of the cost per event's interval fanning out
 * from (0, fixed), and a bar at 0 events over the fixed cost's interval.
 */
static void test_fit_plot_values(void **unused)
{
	struct pcost_session s;
	struct pcost_config_stats *st;
	struct panel pn[4];
	double gx[2][MAX_PTS], gy[2][MAX_PTS], wx[2][MAX_PTS], wy[2][MAX_PTS];
	size_t nm, np[2] = { 0 }, nw[2] = { 0 }, nl = 0, nband = 0, nbar = 0, npanels;
	char path[256], err[256];
	struct mark *m;
	char *svg;

	synth_rich_scale(&s);
	assert_int_equal(pcost_analyze(&s, &st), 0);
	assert_int_equal(
		pcost_plot_session(&s, out("fit.svg", path, sizeof(path)), err, sizeof(err)), 0);
	svg = slurp(path);
	npanels = panels_of(svg, pn, 4);
	assert_int_equal(npanels, 2);
	m = marks_of(svg, &nm);
	for (size_t i = 0; i < nm; i++) {
		double x0, x1, y0, y1;
		int k;

		bbox(&m[i], &x0, &x1, &y0, &y1);
		if ((k = panel_at(pn, npanels, (x0 + x1) / 2, (y0 + y1) / 2)) < 0)
			continue;
		if (is_point(&m[i])) {
			gx[k][np[k]] = value_at(&pn[k].x, (x0 + x1) / 2);
			gy[k][np[k]++] = value_at(&pn[k].y, (y0 + y1) / 2);
		} else if (!m[i].fill && m[i].width == 2 && m[i].n == 2 &&
			   m[i].x[0] == pn[k].left) {
			/* Row k + 1 is the first of monitor k (perf-stat, then strace). */
			const struct pcost_config_stats *f = &st[k + 1];
			double ya = value_at(&pn[k].y, m[i].y[0]),
			       yb = value_at(&pn[k].y, m[i].y[1]);
			double xa = value_at(&pn[k].x, m[i].x[0]),
			       xb = value_at(&pn[k].x, m[i].x[1]);
			double ns_per_px = fabs((pn[k].y.v1 - pn[k].y.v0) * pn[k].y.unit /
						(pn[k].y.px1 - pn[k].y.px0));

			assert_true(near(&pn[k].x, xa, 0));
			assert_true(near(&pn[k].y, ya, f->fit_fixed_ns));
			/* The slope from two rounded ends: off by at most two roundings over the run. */
			assert_true(fabs((yb - ya) / (xb - xa) - f->fit_per_event_ns) <=
				    2 * PX_ROUND * ns_per_px / (xb - xa));
			nl++;
		} else if (m[i].fill && m[i].opacity < 0.5 && m[i].n == 4) {
			/* The band, a triangle: from (0, fixed) out to the per-event interval at the last point. */
			const struct pcost_config_stats *f = &st[k + 1];
			double top = value_at(&pn[k].x, m[i].x[1]);

			assert_true(near(&pn[k].x, value_at(&pn[k].x, m[i].x[0]), 0));
			assert_true(near(&pn[k].y, value_at(&pn[k].y, m[i].y[0]), f->fit_fixed_ns));
			assert_true(near(&pn[k].y, value_at(&pn[k].y, m[i].y[1]),
					 f->fit_fixed_ns + f->fit_per_event_ns_hi * top));
			assert_true(near(&pn[k].y, value_at(&pn[k].y, m[i].y[2]),
					 f->fit_fixed_ns + f->fit_per_event_ns_lo * top));
			assert_true(near(&pn[k].x, top, 4 * 20000));
			nband++;
		} else if (!m[i].fill && m[i].width == 1.5 && m[i].n == 6) {
			/* The bar at 0 events: the fixed cost's interval. */
			const struct pcost_config_stats *f = &st[k + 1];

			assert_true(near(&pn[k].x, value_at(&pn[k].x, m[i].x[0]), 0));
			assert_true(
				near(&pn[k].y, value_at(&pn[k].y, m[i].y[0]), f->fit_fixed_ns_lo));
			assert_true(
				near(&pn[k].y, value_at(&pn[k].y, m[i].y[1]), f->fit_fixed_ns_hi));
			nbar++;
		}
	}
	for (size_t i = 0; i < s.nconfigs; i++)
		if (st[i].baseline >= 0) {
			size_t k = strcmp(s.configs[i].monitor, "perf-stat") ? 1 : 0;

			assert_true(st[i].has_fit);
			wx[k][nw[k]] = (double)st[i].events;
			wy[k][nw[k]++] = st[i].extra_ns;
		}
	assert_int_equal(nl, 2);
	assert_int_equal(nband, 2);
	assert_int_equal(nbar, 2);
	for (size_t k = 0; k < 2; k++) {
		assert_int_equal(nw[k], 3);
		assert_same_values(&pn[k].x, gx[k], np[k], wx[k], nw[k]);
		assert_same_values(&pn[k].y, gy[k], np[k], wy[k], nw[k]);
	}
	/* And the fit is the one the session was made with (8 ms + 90 ns, 140 ms + 13 us). */
	assert_true(fabs(st[2].fit_per_event_ns - 13000) < 1000);
	assert_true(fabs(st[1].fit_fixed_ns - 8e6) < 1e6);
	free(m);
	free(svg);
	free(st);
	pcost_session_release(&s);
}

/* The HTML figures: the same SVG, in memory, one per figure of the session. */
static void test_figures_in_memory(void **unused)
{
	struct pcost_session s;
	struct pcost_figure *f;
	size_t n;
	char err[256];

	synth_rich_scale(&s);
	assert_int_equal(pcost_plot_figures(&s, &f, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_string_equal(f[0].name, "fit");
	assert_string_equal(f[1].name, "overhead");
	for (size_t i = 0; i < n; i++) {
		assert_non_null(strstr(f[i].svg, "<svg "));
		assert_non_null(strstr(f[i].svg, " data-pcost-y"));
		assert_int_equal(strlen(f[i].svg), f[i].len);
	}
	pcost_figures_free(f, n);
	pcost_session_release(&s);
}

static void test_compare_plot(void **unused)
{
	struct pcost_session a, b;
	struct pcost_compare c;
	char path[256], err[256];

	synth_rich_run(&a, 1, "6.1.0");
	synth_rich_run(&b, 1.5, "6.18.0");
	a.id = 1;
	b.id = 2;
	assert_int_equal(pcost_compare_sessions(&a, &b, 5, &c), 0);
	assert_int_equal(pcost_plot_compare(&a, &b, &c, out("compare.png", path, sizeof(path)), err,
					    sizeof(err)),
			 0);
	assert_png_960x560(path);
	pcost_compare_release(&c);
	pcost_session_release(&a);
	pcost_session_release(&b);
}

static void test_nothing_to_plot(void **unused)
{
	struct pcost_session s;
	char path[256], err[256];

	pcost_session_init(&s, PCOST_SESSION_RUN);
	pcost_session_add_config(&s, "null", "", "none", NULL, "run");
	assert_int_equal(
		pcost_plot_session(&s, out("empty.png", path, sizeof(path)), err, sizeof(err)),
		-ENODATA);
	assert_non_null(strstr(err, "no monitored configuration"));
	assert_int_equal(access(path, F_OK), -1);
	pcost_session_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_plot_values),
		cmocka_unit_test(test_probes_plot_values),
		cmocka_unit_test(test_counters_plot_values),
		cmocka_unit_test(test_fit_plot_values),
		cmocka_unit_test(test_figures_in_memory),
		cmocka_unit_test(test_compare_plot),
		cmocka_unit_test(test_nothing_to_plot),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
