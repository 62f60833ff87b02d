// SPDX-License-Identifier: MIT
/*
 * plot_draw: grouped bar and line charts with cairo: title, axes with units,
 * grid, whiskers or sd bars, legend.  One look for every probecost plot.
 */
#include "report/plot_chart.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>
#include <errno.h>
#include <fontconfig/fontconfig.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "report/escape.h"
#include "report/plot.h"
#include "core/safepath.h"
#include "core/util.h"

#define W 960.0
#define H 560.0
#define M_LEFT 92.0
#define M_RIGHT 24.0
#define M_TOP 82.0 /* title, then the legend row */
#define M_BOTTOM 120.0

/* Tableau 10 (Stone 2007): distinct in colour and in greyscale. */
static const double palette[][3] = {
	{ 0.122, 0.467, 0.706 }, { 1.000, 0.498, 0.055 }, { 0.173, 0.627, 0.173 },
	{ 0.839, 0.153, 0.157 }, { 0.580, 0.404, 0.741 }, { 0.549, 0.337, 0.294 },
	{ 0.890, 0.467, 0.761 }, { 0.498, 0.498, 0.498 }, { 0.737, 0.741, 0.133 },
	{ 0.090, 0.745, 0.812 },
};

int pcost_plot_format_of(const char *path)
{
	const char *dot = path ? strrchr(path, '.') : NULL;

	if (!dot)
		return -1;
	if (!strcasecmp(dot, ".png"))
		return PCOST_PLOT_PNG;
	if (!strcasecmp(dot, ".svg"))
		return PCOST_PLOT_SVG;
	if (!strcasecmp(dot, ".pdf"))
		return PCOST_PLOT_PDF;
	return -1;
}

struct canvas {
	cairo_surface_t *surf;
	cairo_t *cr;
	int fmt;
	struct pcost_plot_out *out;
	struct pcost_outfile file; /* out->path's temporary file, renamed into place at the end */
	FILE *mem;		   /* SVG: cairo writes here, then the axes go on the root */
	char *buf;
	size_t len;
	const char *title;
	double h;	  /* height: H, or more for rows of panels */
	char attrs[4096]; /* data-pcost-* attributes for the SVG root */
};

static cairo_status_t mem_write(void *closure, const unsigned char *data, unsigned int len)
{
	struct canvas *cv = closure;

	return fwrite(data, 1, len, cv->mem) == len ? CAIRO_STATUS_SUCCESS
						    : CAIRO_STATUS_WRITE_ERROR;
}

static int canvas_open_h(struct canvas *cv, struct pcost_plot_out *o, const char *title, double h,
			 char *err, size_t errlen)
{
	const char *why = pcost_cairo_load();
	int rc;

	memset(cv, 0, sizeof(*cv));
	if (why) {
		snprintf(err, errlen, "%s", why);
		return -ENOENT;
	}
	cv->h = h;
	cv->fmt = o->path ? pcost_plot_format_of(o->path) : PCOST_PLOT_SVG;
	cv->out = o;
	cv->title = title;
	if (o->path && cv->fmt >= 0 && (rc = pcost_outfile_reserve(&cv->file, o->path)) < 0) {
		snprintf(err, errlen, "%s", strerror(-rc));
		return rc;
	}
	switch (cv->fmt) {
	case PCOST_PLOT_PNG:
		cv->surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)W, (int)h);
		break;
	case PCOST_PLOT_SVG:
		cv->mem = open_memstream(&cv->buf, &cv->len);
		if (!cv->mem) {
			rc = -errno;
			snprintf(err, errlen, "%s", strerror(-rc));
			pcost_outfile_commit(&cv->file, false);
			return rc;
		}
		cv->surf = cairo_svg_surface_create_for_stream(mem_write, cv, W, h);
		break;
	case PCOST_PLOT_PDF:
		cv->surf = cairo_pdf_surface_create(cv->file.name, W, h);
		break;
	default:
		snprintf(err, errlen, "the file name must end in .png, .svg or .pdf");
		return -EINVAL;
	}
	if (cairo_surface_status(cv->surf) != CAIRO_STATUS_SUCCESS) {
		snprintf(err, errlen, "%s", cairo_status_to_string(cairo_surface_status(cv->surf)));
		cairo_surface_destroy(cv->surf);
		if (cv->mem)
			fclose(cv->mem);
		free(cv->buf);
		pcost_outfile_commit(&cv->file, false);
		return -EIO;
	}
	cv->cr = cairo_create(cv->surf);
	cairo_set_source_rgb(cv->cr, 1, 1, 1);
	cairo_paint(cv->cr);
	cairo_select_font_face(cv->cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
			       CAIRO_FONT_WEIGHT_NORMAL);
	return 0;
}

static int canvas_open(struct canvas *cv, struct pcost_plot_out *o, const char *title, char *err,
		       size_t errlen)
{
	return canvas_open_h(cv, o, title, H, err, errlen);
}

/* Record an axis for the SVG root: name="PX0 PX1 V0 V1 lin|log UNIT" (see plot_chart.h). */
static void canvas_axis(struct canvas *cv, const char *name, double px0, double px1, double v0,
			double v1, bool log, double unit)
{
	size_t n = strlen(cv->attrs);

	snprintf(cv->attrs + n, sizeof(cv->attrs) - n, " %s=\"%.6f %.6f %.17g %.17g %s %.17g\"",
		 name, px0, px1, v0, v1, log ? "log" : "lin", unit);
}

/* The SVG cairo wrote, with the axes and the title on its root element. */
static char *svg_annotated(const struct canvas *cv, size_t *len)
{
	const char *root = strstr(cv->buf, "<svg ");
	char *out = NULL;
	size_t n = 0;
	FILE *f;

	if (!root || !(f = open_memstream(&out, &n)))
		return NULL;
	root += 4;
	fwrite(cv->buf, 1, (size_t)(root - cv->buf), f);
	fputs(" role=\"img\" aria-label=\"", f);
	pcost_xml_escape(f, cv->title ? cv->title : "");
	fputc('"', f);
	fputs(cv->attrs, f);
	fputs(root, f);
	fclose(f);
	*len = n;
	return out;
}

static int write_file(const char *path, const char *buf, size_t len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "w");
	int rc = 0;

	if (!f || fwrite(buf, 1, len, f) != len)
		rc = -errno;
	if (f && fclose(f) && !rc)
		rc = -errno;
	if (rc)
		snprintf(err, errlen, "%s", strerror(-rc));
	return rc;
}

static int canvas_close(struct canvas *cv, char *err, size_t errlen)
{
	cairo_status_t st;
	int rc = 0;

	cairo_destroy(cv->cr);
	cairo_surface_flush(cv->surf);
	if (cv->fmt == PCOST_PLOT_PNG)
		st = cairo_surface_write_to_png(cv->surf, cv->file.name);
	else {
		cairo_surface_finish(cv->surf);
		st = cairo_surface_status(cv->surf);
	}
	cairo_surface_destroy(cv->surf);
	/*
	 * Drop cairo's and fontconfig's caches: a plot is drawn once per process,
	 * and otherwise LeakSanitizer reports fontconfig's cache at exit.
	 */
	cairo_debug_reset_static_data();
	FcFini();
	if (st != CAIRO_STATUS_SUCCESS) {
		snprintf(err, errlen, "%s", cairo_status_to_string(st));
		rc = -EIO;
	}
	if (cv->mem) {
		char *svg = NULL;
		size_t n = 0;

		fclose(cv->mem);
		if (!rc && !(svg = svg_annotated(cv, &n))) {
			snprintf(err, errlen, "cairo wrote no <svg> element");
			rc = -EIO;
		}
		if (!rc && cv->out->path)
			rc = write_file(cv->file.name, svg, n, err, errlen);
		if (!rc && !cv->out->path) {
			cv->out->svg = svg;
			cv->out->svglen = n;
			svg = NULL;
		}
		free(svg);
		free(cv->buf);
	}
	if (cv->out->path) {
		int crc = pcost_outfile_commit(&cv->file, !rc);

		if (!rc && crc) {
			snprintf(err, errlen, "%s", strerror(-crc));
			rc = crc;
		}
	}
	return rc;
}

/* Text anchored at (x, y): ax 0 left, 0.5 centre, 1 right; baseline at y + ay * height. */
static void text(cairo_t *cr, double x, double y, double size, double ax, double ay, const char *s)
{
	cairo_text_extents_t e;

	cairo_set_font_size(cr, size);
	cairo_text_extents(cr, s, &e);
	cairo_move_to(cr, x - ax * e.x_advance, y + ay * e.height);
	cairo_show_text(cr, s);
}

static void title_and_note(cairo_t *cr, const char *title, const char *note, double h)
{
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_text_extents_t e;
	double size = 18;

	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
	/* A long title (a user's command line) shrinks to the width, down to 11 points. */
	cairo_set_font_size(cr, size);
	cairo_text_extents(cr, title ? title : "", &e);
	if (e.x_advance > W - 24)
		size = fmax(11, size * (W - 24) / e.x_advance);
	text(cr, W / 2, 30, size, 0.5, 0.5, title ? title : "");
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	if (note) {
		cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
		text(cr, 12, h - 12, 11, 0, 0, note);
	}
}

/* A step of 1, 2 or 5 x 10^k giving about n ticks over span. */
static double nice_step(double span, int n)
{
	double raw = span / n, mag = pow(10, floor(log10(raw))), f = raw / mag;

	return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
}

struct yaxis {
	double lo, hi; /* data range (log: the exponents' range in 10^) */
	bool log;
	double top, bottom; /* pixels */
};

static double ypx(const struct yaxis *a, double v)
{
	double f;

	if (a->log)
		f = (log10(fmax(v, pow(10, a->lo))) - a->lo) / (a->hi - a->lo);
	else
		f = (v - a->lo) / (a->hi - a->lo);
	return a->bottom - f * (a->bottom - a->top);
}

static void tick_label(double v, char *buf, size_t len)
{
	if (fabs(v) >= 1e6 || (fabs(v) < 1e-3 && v != 0))
		snprintf(buf, len, "%.0e", v);
	else
		snprintf(buf, len, "%g", v);
}

static void draw_yaxis(cairo_t *cr, const struct yaxis *a, double left, double right,
		       const char *label)
{
	char buf[32];

	cairo_set_line_width(cr, 1);
	if (a->log) {
		for (double e = a->lo; e <= a->hi + 1e-9; e++) {
			double y = ypx(a, pow(10, e));

			cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
			cairo_move_to(cr, left, y);
			cairo_line_to(cr, right, y);
			cairo_stroke(cr);
			cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
			tick_label(pow(10, e), buf, sizeof(buf));
			text(cr, left - 6, y, 12, 1, 0.35, buf);
		}
	} else {
		double step = nice_step(a->hi - a->lo, 6);

		for (double v = ceil(a->lo / step) * step; v <= a->hi + step * 1e-9; v += step) {
			double y = ypx(a, v), vv = fabs(v) < step * 1e-9 ? 0 : v;

			cairo_set_source_rgb(cr, vv == 0 ? 0.4 : 0.88, vv == 0 ? 0.4 : 0.88,
					     vv == 0 ? 0.4 : 0.88);
			cairo_move_to(cr, left, y);
			cairo_line_to(cr, right, y);
			cairo_stroke(cr);
			cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
			tick_label(vv, buf, sizeof(buf));
			text(cr, left - 6, y, 12, 1, 0.35, buf);
		}
	}
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	cairo_move_to(cr, left, a->top);
	cairo_line_to(cr, left, a->bottom);
	cairo_stroke(cr);
	cairo_save(cr);
	cairo_translate(cr, left - 70, (a->top + a->bottom) / 2);
	cairo_rotate(cr, -M_PI / 2);
	text(cr, 0, 0, 13, 0.5, 0.5, label ? label : "");
	cairo_restore(cr);
}

static void yaxis_record(struct canvas *cv, const char *name, const struct yaxis *a, double unit)
{
	canvas_axis(cv, name, a->bottom, a->top, a->log ? pow(10, a->lo) : a->lo,
		    a->log ? pow(10, a->hi) : a->hi, a->log, unit);
}

/* A vertical bar from y0 to y1 at x with caps half wide, in the current colour and width. */
static void error_bar(cairo_t *cr, double x, double y0, double y1, double half)
{
	cairo_move_to(cr, x, y0);
	cairo_line_to(cr, x, y1);
	cairo_move_to(cr, x - half, y0);
	cairo_line_to(cr, x + half, y0);
	cairo_move_to(cr, x - half, y1);
	cairo_line_to(cr, x + half, y1);
	cairo_stroke(cr);
}

/* Rows of swatches and names, centred under the title, clear of the data; returns its bottom. */
static double legend(cairo_t *cr, const char *const *names, size_t n, bool lines)
{
	double y = 60, bottom = 40;
	cairo_text_extents_t e;
	size_t i = 0;

	cairo_set_font_size(cr, 12);
	while (i < n) {
		double total = 0, x;
		size_t j = i;

		/* As many as fit in the width, at least one. */
		for (; j < n; j++) {
			cairo_text_extents(cr, names[j] ? names[j] : "", &e);
			if (j > i && total + 28 + e.x_advance > W - 16)
				break;
			total += 28 + e.x_advance + 18;
		}
		x = fmax(8, (W - total) / 2);
		for (; i < j; i++) {
			const double *c = palette[i % ARRAY_SIZE(palette)];

			cairo_set_source_rgb(cr, c[0], c[1], c[2]);
			if (lines) {
				cairo_set_line_width(cr, 2.5);
				cairo_move_to(cr, x, y - 4);
				cairo_line_to(cr, x + 22, y - 4);
				cairo_stroke(cr);
				cairo_arc(cr, x + 11, y - 4, 3.5, 0, 2 * M_PI);
				cairo_fill(cr);
			} else {
				cairo_rectangle(cr, x, y - 11, 20, 12);
				cairo_fill(cr);
			}
			cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
			text(cr, x + 28, y, 12, 0, 0, names[i] ? names[i] : "");
			cairo_text_extents(cr, names[i] ? names[i] : "", &e);
			x += 28 + e.x_advance + 18;
		}
		bottom = y + 4;
		y += 18;
	}
	return bottom;
}

/* The y axis of a bar chart: log when asked, or auto (-1) when values span 100x; -ENODATA when empty. */
static int bars_yaxis(const struct pcost_chart_bars *c, struct yaxis *ax, char *err, size_t errlen)
{
	double minpos = INFINITY, vmin = 0, vmax = 0;
	size_t nb = c->ncats * c->nseries;

	for (size_t i = 0; i < nb; i++) {
		double v[3] = { c->v[i], c->lo ? c->lo[i] : NAN, c->hi ? c->hi[i] : NAN };

		for (int k = 0; k < 3; k++) {
			if (!isfinite(v[k]))
				continue;
			vmin = fmin(vmin, v[k]);
			vmax = fmax(vmax, v[k]);
			if (v[k] > 0)
				minpos = fmin(minpos, v[k]);
		}
	}
	if (!nb || vmax <= vmin) {
		snprintf(err, errlen, "nothing to plot: no finite values");
		return -ENODATA;
	}
	ax->log = c->log == 1 || (c->log < 0 && isfinite(minpos) && vmax / minpos >= 100);
	if (ax->log && !isfinite(minpos))
		ax->log = false;
	if (ax->log) {
		ax->lo = floor(log10(minpos));
		ax->hi = ceil(log10(vmax));
		if (ax->hi <= ax->lo)
			ax->hi = ax->lo + 1;
	} else {
		double step = nice_step(vmax - vmin, 6);

		ax->lo = vmin < 0 ? floor(vmin / step) * step : 0;
		ax->hi = ceil(vmax * 1.04 / step) * step;
	}
	return 0;
}

/* Bar i of width bw at x, from the base line, with its interval when there is one. */
static void draw_bar(cairo_t *cr, const struct pcost_chart_bars *c, const struct yaxis *ax,
		     size_t i, double x, double bw, const double *col)
{
	double base = ax->log ? ax->bottom : ypx(ax, 0), v = c->v[i];

	cairo_set_source_rgb(cr, col[0], col[1], col[2]);
	if (ax->log && v <= 0) {
		/* Not drawable on a log axis: an outline at the floor, labelled. */
		cairo_set_line_width(cr, 1.5);
		cairo_rectangle(cr, x + 2, base - 3, bw - 4, 3);
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
		text(cr, x + bw / 2, base - 8, 10, 0.5, 0, "<=0");
		return;
	}
	cairo_rectangle(cr, x + 2, fmin(base, ypx(ax, v)), bw - 4, fabs(base - ypx(ax, v)));
	cairo_fill(cr);
	if (c->lo && c->hi && isfinite(c->lo[i]) && isfinite(c->hi[i])) {
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		cairo_set_line_width(cr, 1.3);
		error_bar(cr, x + bw / 2, ypx(ax, c->lo[i]), ypx(ax, c->hi[i]), bw / 5);
	}
}

/* A category's name under its group, slanted when any name is wider than a group. */
static void category_label(cairo_t *cr, const char *name, double gx, double y, bool rotate)
{
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	if (rotate) {
		cairo_save(cr);
		cairo_translate(cr, gx, y + 14);
		cairo_rotate(cr, -M_PI / 7);
		text(cr, 0, 0, 12, 1, 0.5, name);
		cairo_restore(cr);
	} else {
		text(cr, gx, y + 18, 12, 0.5, 0, name);
	}
}

int pcost_chart_bars_draw(const struct pcost_chart_bars *c, struct pcost_plot_out *o, char *err,
			  size_t errlen)
{
	double left = M_LEFT, right = W - M_RIGHT;
	struct yaxis ax = { .top = M_TOP, .bottom = H - M_BOTTOM };
	struct canvas cv;
	cairo_t *cr;
	int rc;

	if ((rc = bars_yaxis(c, &ax, err, errlen)))
		return rc;
	if ((rc = canvas_open(&cv, o, c->title, err, errlen)))
		return rc;
	cr = cv.cr;
	title_and_note(cr, c->title, c->note, H);
	if (c->series && c->nseries > 1)
		ax.top = fmax(M_TOP, legend(cr, c->series, c->nseries, false) + 18);
	draw_yaxis(cr, &ax, left, right, c->ylabel);
	yaxis_record(&cv, "data-pcost-y", &ax, 1);

	double gw = (right - left) / (double)c->ncats, bw = fmin(60, gw * 0.8 / (double)c->nseries);
	bool rotate = false;
	cairo_text_extents_t e;

	cairo_set_font_size(cr, 12);
	for (size_t g = 0; g < c->ncats; g++) {
		cairo_text_extents(cr, c->cats[g], &e);
		rotate |= e.x_advance > gw - 6;
	}
	for (size_t g = 0; g < c->ncats; g++) {
		double gx = left + gw * ((double)g + 0.5);

		for (size_t s = 0; s < c->nseries; s++) {
			size_t i = g * c->nseries + s;
			const double *col = palette[(c->nseries > 1 ? s : g) % ARRAY_SIZE(palette)];

			if (isfinite(c->v[i]))
				draw_bar(cr, c, &ax, i,
					 gx - bw * (double)c->nseries / 2 + bw * (double)s, bw,
					 col);
		}
		category_label(cr, c->cats[g], gx, ax.bottom, rotate);
	}
	return canvas_close(&cv, err, errlen);
}

/* The x axis of a line chart: data from x0 to x1 drawn between left and right pixels. */
struct xaxis {
	double x0, x1, left, right;
};

static double xpx(const struct xaxis *a, double v)
{
	return a->left + (v - a->x0) / (a->x1 - a->x0) * (a->right - a->left);
}

/* The upper end of point i's bar: the interval's, or y + err. */
static double bar_top(const struct pcost_chart_line_series *l, size_t i)
{
	double e = l->err ? l->err[i] : 0;

	if (l->hi)
		return isfinite(l->hi[i]) ? l->hi[i] : l->y[i];
	return l->y[i] + (isfinite(e) ? e : 0);
}

/*
 * The data's x range and the top of its y axis, and (for a log axis) its least
 * positive value; -ENODATA when nothing is finite.
 */
static int lines_range(const struct pcost_chart_lines *c, double *xmin, double *xmax, double *ymax,
		       double *yminpos, char *err, size_t errlen)
{
	double ymean_max = 0;

	*xmin = INFINITY, *xmax = -INFINITY, *ymax = 0, *yminpos = INFINITY;
	for (size_t s = 0; s < c->nseries; s++)
		for (size_t i = 0; i < c->series[s].n; i++) {
			double y = c->series[s].y[i];

			if (!isfinite(y) || (c->ylog && y <= 0))
				continue;
			*xmin = fmin(*xmin, c->series[s].x[i]);
			*xmax = fmax(*xmax, c->series[s].x[i]);
			*ymax = fmax(*ymax, bar_top(&c->series[s], i));
			ymean_max = fmax(ymean_max, y);
			if (y > 0)
				*yminpos = fmin(*yminpos, y);
			if (c->series[s].lo && c->series[s].lo[i] > 0)
				*yminpos = fmin(*yminpos, c->series[s].lo[i]);
		}
	if (!isfinite(*xmin) || *ymax <= 0) {
		snprintf(err, errlen, "nothing to plot: no finite values");
		return -ENODATA;
	}
	if (*xmax <= *xmin)
		*xmax = *xmin + 1;
	/* One wild sample's sd must not squash every mean to the floor: 2.5x the top mean. */
	*ymax = fmin(*ymax, 2.5 * ymean_max);
	return 0;
}

/* The x axis line, its ticks every step from xmin to xmax, and its label, at y. */
static void draw_xaxis(cairo_t *cr, const struct xaxis *xa, double y, double xmin, double xmax,
		       double step, const char *label)
{
	char buf[32];

	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, xa->left, y);
	cairo_line_to(cr, xa->right, y);
	cairo_stroke(cr);
	for (double v = ceil(xmin / step) * step; v <= xmax + 1e-9; v += step) {
		cairo_move_to(cr, xpx(xa, v), y);
		cairo_line_to(cr, xpx(xa, v), y + 5);
		cairo_stroke(cr);
		snprintf(buf, sizeof(buf), "%g", v);
		text(cr, xpx(xa, v), y + 20, 12, 0.5, 0, buf);
	}
	text(cr, (xa->left + xa->right) / 2, y + 44, 13, 0.5, 0, label ? label : "");
}

/* The named x ticks of c at y, their grid lines up to top, and the axis label. */
static void draw_xticks(cairo_t *cr, const struct pcost_chart_lines *c, const struct xaxis *xa,
			double y, double top)
{
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, xa->left, y);
	cairo_line_to(cr, xa->right, y);
	cairo_stroke(cr);
	for (size_t i = 0; i < c->nxticks; i++) {
		cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
		cairo_move_to(cr, xpx(xa, c->xticks[i]), y);
		cairo_line_to(cr, xpx(xa, c->xticks[i]), top);
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		cairo_move_to(cr, xpx(xa, c->xticks[i]), y);
		cairo_line_to(cr, xpx(xa, c->xticks[i]), y + 5);
		cairo_stroke(cr);
		text(cr, xpx(xa, c->xticks[i]), y + 20, 12, 0.5, 0, c->xtick_labels[i]);
	}
	text(cr, (xa->left + xa->right) / 2, y + 44, 13, 0.5, 0, c->xlabel ? c->xlabel : "");
}

/* One series: its line (broken where a value is missing), its points and their sd bars. */
static void draw_line_series(cairo_t *cr, const struct pcost_chart_line_series *l,
			     const struct xaxis *xa, const struct yaxis *ax, const double *col)
{
	bool pen = false;

	cairo_set_source_rgb(cr, col[0], col[1], col[2]);
	cairo_set_line_width(cr, 2);
	for (size_t i = 0; i < l->n; i++) {
		if (!isfinite(l->y[i])) {
			pen = false;
			continue;
		}
		if (pen)
			cairo_line_to(cr, xpx(xa, l->x[i]), ypx(ax, l->y[i]));
		else
			cairo_move_to(cr, xpx(xa, l->x[i]), ypx(ax, l->y[i]));
		pen = true;
	}
	cairo_stroke(cr);
	cairo_set_line_width(cr, 1.2);
	for (size_t i = 0; i < l->n; i++) {
		double x = xpx(xa, l->x[i]), y = ypx(ax, l->y[i]);
		double e = l->err && isfinite(l->err[i]) ? l->err[i] : 0;

		if (!isfinite(l->y[i]) || (ax->log && l->y[i] <= 0))
			continue;
		cairo_arc(cr, x, y, 3.5, 0, 2 * M_PI);
		cairo_fill(cr);
		if (l->lo && l->hi && isfinite(l->lo[i]) && isfinite(l->hi[i]))
			/* ypx floors a log axis's value at its bottom: a bound <= 0 ends there. */
			error_bar(cr, x, ypx(ax, l->lo[i]), ypx(ax, l->hi[i]), 4);
		else if (e > 0)
			error_bar(cr, x, ypx(ax, fmax(0, l->y[i] - e)), ypx(ax, l->y[i] + e), 4);
	}
}

int pcost_chart_lines_draw(const struct pcost_chart_lines *c, struct pcost_plot_out *o, char *err,
			   size_t errlen)
{
	struct xaxis xa = { .left = M_LEFT, .right = W - M_RIGHT - 10 };
	struct yaxis ax = { .top = M_TOP, .bottom = H - M_BOTTOM + 40 };
	const char *names[ARRAY_SIZE(palette) * 4];
	double xmin, xmax, ymax, yminpos, step;
	struct canvas cv;
	cairo_t *cr;
	int rc;

	if ((rc = lines_range(c, &xmin, &xmax, &ymax, &yminpos, err, errlen)))
		return rc;
	ax.log = c->ylog;
	ax.lo = c->ylog ? floor(log10(yminpos)) : 0;
	ax.hi = c->ylog ? fmax(ax.lo + 1, ceil(log10(ymax)))
			: ceil(ymax * 1.04 / nice_step(ymax, 6)) * nice_step(ymax, 6);
	if ((rc = canvas_open(&cv, o, c->title, err, errlen)))
		return rc;
	cr = cv.cr;
	title_and_note(cr, c->title, c->note, H);
	for (size_t s = 0; s < c->nseries && s < ARRAY_SIZE(names); s++)
		names[s] = c->series[s].name;
	ax.top = fmax(M_TOP, legend(cr, names,
				    c->nseries < ARRAY_SIZE(names) ? c->nseries : ARRAY_SIZE(names),
				    true) +
				     18);
	draw_yaxis(cr, &ax, xa.left, xa.right, c->ylabel);
	yaxis_record(&cv, "data-pcost-y", &ax, 1);

	/* x: a margin of half a step either side so end points and their bars show. */
	for (size_t i = 0; i < c->nxticks; i++) {
		xmin = fmin(xmin, c->xticks[i]);
		xmax = fmax(xmax, c->xticks[i]);
	}
	step = c->nxticks ? (xmax - xmin) / 8 : fmax(1, nice_step(xmax - xmin, 8));
	xa.x0 = xmin - step / 2;
	xa.x1 = xmax + step / 2;
	canvas_axis(&cv, "data-pcost-x", xa.left, xa.right, xa.x0, xa.x1, false, 1);
	if (c->nxticks)
		draw_xticks(cr, c, &xa, ax.bottom, ax.top);
	else
		draw_xaxis(cr, &xa, ax.bottom, xmin, xmax, step, c->xlabel);
	/* Clip the data (sd bars past the top) to the plot area; points on the axes stay whole. */
	cairo_save(cr);
	cairo_rectangle(cr, xa.left - 6, ax.top, xa.right - xa.left + 12, ax.bottom - ax.top + 6);
	cairo_clip(cr);
	for (size_t s = 0; s < c->nseries; s++)
		draw_line_series(cr, &c->series[s], &xa, &ax, palette[s % ARRAY_SIZE(palette)]);
	cairo_restore(cr);
	return canvas_close(&cv, err, errlen);
}

/* 2500000 -> "2.5M": tick labels of event counts. */
static void si_label(double v, char *buf, size_t len)
{
	double a = fabs(v);

	if (a >= 1e9)
		snprintf(buf, len, "%gG", v / 1e9);
	else if (a >= 1e6)
		snprintf(buf, len, "%gM", v / 1e6);
	else if (a >= 1e3)
		snprintf(buf, len, "%gk", v / 1e3);
	else
		snprintf(buf, len, "%g", v);
}

/* ns per displayed unit for times up to max_ns, and its name. */
static double time_unit(double max_ns, const char **name)
{
	static const struct {
		double ns;
		const char *name;
	} u[] = {
		{ 1e9, "s" },
		{ 1e6, "ms" },
		{ 1e3, "us" },
		{ 1, "ns" },
	};
	size_t i = 0;

	while (i < ARRAY_SIZE(u) - 1 && max_ns < u[i].ns)
		i++;
	*name = u[i].name;
	return u[i].ns;
}

/* x and y ranges of a series' points, line ends and band edges, 0 included; the last point's x. */
static void fit_range(const struct pcost_chart_fit_series *l, double *xmax, double *ymin,
		      double *ymax)
{
	*xmax = *ymin = *ymax = 0;
	for (size_t i = 0; i < l->n; i++) {
		if (!isfinite(l->x[i]) || !isfinite(l->y[i]))
			continue;
		*xmax = fmax(*xmax, l->x[i]);
		*ymin = fmin(*ymin, l->y[i]);
		*ymax = fmax(*ymax, l->y[i]);
	}
	for (int e = 0; e < 2 && isfinite(l->a) && isfinite(l->b); e++) {
		*ymin = fmin(*ymin, l->a + l->b * *xmax * e);
		*ymax = fmax(*ymax, l->a + l->b * *xmax * e);
	}
	if (isfinite(l->a_lo) && isfinite(l->a_hi)) {
		*ymin = fmin(*ymin, l->a_lo);
		*ymax = fmax(*ymax, l->a_hi);
	}
	for (size_t i = 0; i < l->nband; i++) {
		if (isfinite(l->band_lo[i]))
			*ymin = fmin(*ymin, l->band_lo[i]);
		if (isfinite(l->band_hi[i]))
			*ymax = fmax(*ymax, l->band_hi[i]);
	}
}

struct panel {
	double left, top, right, bottom; /* the plot area, pixels */
	double x1;			 /* x axis: 0 .. x1 */
	double unit;			 /* ns per displayed y unit */
	struct yaxis ax;
};

static double panel_x(const struct panel *p, double v)
{
	return p->left + v / p->x1 * (p->right - p->left);
}

/* ax in displayed units; v in ns. */
static double panel_y(const struct panel *p, double v)
{
	return ypx(&p->ax, v / p->unit);
}

/* The band (translucent), the fitted line from x = 0 to the last point, the points. */
static void fit_marks(cairo_t *cr, const struct panel *p, const struct pcost_chart_fit_series *l,
		      const double *col, double xlast)
{
	cairo_save(cr);
	cairo_rectangle(cr, p->left, p->top, p->right - p->left, p->bottom - p->top);
	cairo_clip(cr);
	if (l->nband) {
		cairo_set_source_rgba(cr, col[0], col[1], col[2], 0.2);
		for (size_t i = 0; i < l->nband; i++)
			cairo_line_to(cr, panel_x(p, l->band_x[i]), panel_y(p, l->band_hi[i]));
		for (size_t i = l->nband; i-- > 0;)
			cairo_line_to(cr, panel_x(p, l->band_x[i]), panel_y(p, l->band_lo[i]));
		cairo_close_path(cr);
		cairo_fill(cr);
	}
	cairo_set_source_rgb(cr, col[0], col[1], col[2]);
	if (isfinite(l->a) && isfinite(l->b)) {
		cairo_set_line_width(cr, 2);
		cairo_move_to(cr, panel_x(p, 0), panel_y(p, l->a));
		cairo_line_to(cr, panel_x(p, xlast), panel_y(p, l->a + l->b * xlast));
		cairo_stroke(cr);
	}
	cairo_restore(cr);
	cairo_set_source_rgb(cr, col[0], col[1], col[2]);
	if (isfinite(l->a_lo) && isfinite(l->a_hi)) {
		double x = panel_x(p, 0), y0 = panel_y(p, l->a_lo), y1 = panel_y(p, l->a_hi);

		cairo_set_line_width(cr, 1.5);
		error_bar(cr, x, y0, y1, 5);
	}
	for (size_t i = 0; i < l->n; i++) {
		if (!isfinite(l->x[i]) || !isfinite(l->y[i]))
			continue;
		cairo_arc(cr, panel_x(p, l->x[i]), panel_y(p, l->y[i]), 4, 0, 2 * M_PI);
		cairo_fill(cr);
	}
}

/* Panel k (0-based) of chart c in the cell at (cx, cy), cw x ch pixels. */
static void fit_panel(struct canvas *cv, const struct pcost_chart_fits *c, size_t k, double cx,
		      double cy, double cw, double ch)
{
	const struct pcost_chart_fit_series *l = &c->series[k];
	const double *col = palette[k % ARRAY_SIZE(palette)];
	struct panel p = {
		.left = cx + 86, .top = cy + 30, .right = cx + cw - 24, .bottom = cy + ch - 50
	};
	double xmax, ymin, ymax, step;
	const char *uname;
	char buf[64], name[48];
	cairo_t *cr = cv->cr;

	fit_range(l, &xmax, &ymin, &ymax);
	if (xmax <= 0 || ymax <= ymin)
		return;
	p.unit = time_unit(fmax(fabs(ymin), fabs(ymax)), &uname);
	step = nice_step((ymax - ymin) / p.unit, 5);
	p.ax = (struct yaxis){ .lo = floor(ymin / p.unit / step) * step,
			       .hi = ceil(ymax / p.unit * 1.04 / step) * step,
			       .top = p.top,
			       .bottom = p.bottom };
	step = nice_step(xmax, 5);
	p.x1 = ceil(xmax * 1.04 / step) * step;

	cairo_set_source_rgb(cr, col[0], col[1], col[2]);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
	text(cr, (p.left + p.right) / 2, cy + 16, 13, 0.5, 0, l->name ? l->name : "");
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	snprintf(buf, sizeof(buf), "%s (%s)", c->yname ? c->yname : "time", uname);
	draw_yaxis(cr, &p.ax, p.left, p.right, buf);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	cairo_set_line_width(cr, 1);
	for (double v = 0; v <= p.x1 + step * 1e-9; v += step) {
		cairo_move_to(cr, panel_x(&p, v), p.bottom);
		cairo_line_to(cr, panel_x(&p, v), p.bottom + 5);
		cairo_stroke(cr);
		si_label(v, buf, sizeof(buf));
		text(cr, panel_x(&p, v), p.bottom + 18, 11, 0.5, 0, buf);
	}
	text(cr, (p.left + p.right) / 2, p.bottom + 38, 12, 0.5, 0, c->xlabel ? c->xlabel : "");
	fit_marks(cr, &p, l, col, xmax);

	snprintf(name, sizeof(name), "data-pcost-panel-%zu", k + 1);
	snprintf(cv->attrs + strlen(cv->attrs), sizeof(cv->attrs) - strlen(cv->attrs),
		 " %s=\"%.6f %.6f %.6f %.6f\"", name, p.left, p.top, p.right, p.bottom);
	snprintf(name, sizeof(name), "data-pcost-x-%zu", k + 1);
	canvas_axis(cv, name, p.left, p.right, 0, p.x1, false, 1);
	snprintf(name, sizeof(name), "data-pcost-y-%zu", k + 1);
	yaxis_record(cv, name, &p.ax, p.unit);
}

int pcost_chart_fits_draw(const struct pcost_chart_fits *c, struct pcost_plot_out *o, char *err,
			  size_t errlen)
{
	size_t ncols = c->nseries > 1 ? 2 : 1, nrows = (c->nseries + ncols - 1) / ncols, drawn = 0;
	double top = 46, h = nrows > 1 ? top + 270.0 * (double)nrows + 30 : H;
	double cw = W / (double)ncols, ch = (h - 30 - top) / (double)(nrows ? nrows : 1);
	struct canvas cv;
	int rc;

	for (size_t k = 0; k < c->nseries; k++) {
		double xmax, ymin, ymax;

		fit_range(&c->series[k], &xmax, &ymin, &ymax);
		drawn += xmax > 0 && ymax > ymin;
	}
	if (!drawn) {
		snprintf(err, errlen, "nothing to plot: no finite values");
		return -ENODATA;
	}
	if ((rc = canvas_open_h(&cv, o, c->title, h, err, errlen)))
		return rc;
	title_and_note(cv.cr, c->title, c->note, h);
	for (size_t k = 0; k < c->nseries; k++) {
		size_t row = k / ncols, col = k % ncols;

		fit_panel(&cv, c, k, cw * (double)col, top + ch * (double)row, cw, ch);
	}
	return canvas_close(&cv, err, errlen);
}
