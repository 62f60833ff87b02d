/* SPDX-License-Identifier: MIT */
/*
 * plot_chart: the chart shapes plot.c fills (grouped bars, lines with error
 * bars, points with fitted lines and their bands) and where a chart goes.
 *
 * Every SVG carries its axes on the root element, so a reader (the tests, a
 * script) maps any drawn coordinate back to the value it shows:
 *   data-pcost-x / data-pcost-y = "PX0 PX1 V0 V1 SCALE UNIT"
 * where pixel PX0 shows value V0 and PX1 shows V1, SCALE is "lin" or "log"
 * (log: linear in log10 of the value), and UNIT is what one displayed unit is
 * in the session's own unit (1e6 for an axis in ms of a figure kept in ns).
 * Bar charts have no x mapping (categories); panel charts name each panel's.
 */
#ifndef PCOST_PLOT_CHART_H
#define PCOST_PLOT_CHART_H

#include <stdbool.h>
#include <stddef.h>

/* Where a chart goes: path (format by extension), or path NULL: SVG text in svg (malloc'd). */
struct pcost_plot_out {
	const char *path;
	char *svg;
	size_t svglen;
};

/* Grouped bars: ncats groups of nseries bars; value arrays are [cat * nseries + series]. */
struct pcost_chart_bars {
	const char *title, *ylabel, *note;
	size_t ncats, nseries;
	const char *const *cats;   /* group labels */
	const char *const *series; /* legend names; NULL for one unnamed series */
	const double *v, *lo, *hi; /* lo/hi NULL: no whiskers; NAN: that bar absent */
	int log;		   /* 1 log, 0 linear, -1 log when positives span >= 2 decades */
};

struct pcost_chart_line_series {
	const char *name;
	size_t n;
	const double *x, *y, *err; /* err: half length of the bar (sd), may be NULL */
	const double *lo, *hi;	   /* or a bar from lo to hi (an interval); NULL: none */
};

struct pcost_chart_lines {
	const char *title, *xlabel, *ylabel, *note;
	size_t nseries;
	const struct pcost_chart_line_series *series;
	/* Optional: a log y axis (powers of ten; values <= 0 not drawn), and the x ticks named. */
	bool ylog;
	size_t nxticks;
	const double *xticks;
	const char *const *xtick_labels;
};

/* Points (one per configuration), the fitted line y = a + b x, and its band; y in ns. */
struct pcost_chart_fit_series {
	const char *name;
	size_t n;
	const double *x, *y; /* the points */
	double a, b;	     /* the fitted line, drawn from x = 0 to the last point */
	double a_lo, a_hi;   /* a's interval, a bar at x = 0; NaN: none */
	size_t nband;	     /* 0: no band; else band_lo/hi at band_x[0..nband) */
	const double *band_x, *band_lo, *band_hi;
};

/*
 * A panel per series (its own time axis, in s, ms, us or ns as its values
 * need), two to a row.  The SVG root carries, for panel N (from 1),
 * data-pcost-panel-N="LEFT TOP RIGHT BOTTOM" and data-pcost-x-N / -y-N.
 */
struct pcost_chart_fits {
	const char *title, *xlabel, *yname, *note; /* yname: "extra time" (the unit is added) */
	size_t nseries;
	const struct pcost_chart_fit_series *series;
};

/* Draw to o.  0 or -errno with err. */
/* Load cairo (report/cairo_dl.c): NULL, or one line saying why it could not be, and the fix. */
const char *pcost_cairo_load(void);

int pcost_chart_bars_draw(const struct pcost_chart_bars *c, struct pcost_plot_out *o, char *err,
			  size_t errlen);
int pcost_chart_lines_draw(const struct pcost_chart_lines *c, struct pcost_plot_out *o, char *err,
			   size_t errlen);
int pcost_chart_fits_draw(const struct pcost_chart_fits *c, struct pcost_plot_out *o, char *err,
			  size_t errlen);

#endif
