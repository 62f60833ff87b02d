/* SPDX-License-Identifier: MIT */
/* plot_chart: the two chart shapes plot.c fills (grouped bars, lines with error bars). */
#ifndef PCOST_PLOT_CHART_H
#define PCOST_PLOT_CHART_H

#include <stddef.h>

/* Grouped bars: ncats groups of nseries bars; value arrays are [cat * nseries + series]. */
struct pcost_chart_bars {
	const char *title, *ylabel, *note;
	size_t ncats, nseries;
	const char *const *cats;	/* group labels */
	const char *const *series;	/* legend names; NULL for one unnamed series */
	const double *v, *lo, *hi;	/* lo/hi NULL: no whiskers; NAN: that bar absent */
	int log;			/* 1 log, 0 linear, -1 log when positives span >= 2 decades */
};

struct pcost_chart_line_series {
	const char *name;
	size_t n;
	const double *x, *y, *err;	/* err: half length of the bar (sd), may be NULL */
};

struct pcost_chart_lines {
	const char *title, *xlabel, *ylabel, *note;
	size_t nseries;
	const struct pcost_chart_line_series *series;
};

/* Draw to path (format by extension).  0 or -errno with err. */
int pcost_chart_bars_draw(const struct pcost_chart_bars *c, const char *path, char *err,
			  size_t errlen);
int pcost_chart_lines_draw(const struct pcost_chart_lines *c, const char *path, char *err,
			   size_t errlen);

#endif
