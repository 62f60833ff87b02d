/* SPDX-License-Identifier: MIT */
/*
 * plot: charts of stored sessions with cairo, as PNG, SVG or PDF by the file's
 * extension, or as SVG text for the HTML page.  --scale -> extra time against
 * events with the fitted line; run -> overhead per monitor with 95% CI whiskers (log axis when
 * the overheads span two decades or more); probes -> per-hit cost per method
 * and variant; counters -> cost against the number of events per interface,
 * mean with sd bars; compare -> paired bars.
 */
#ifndef PCOST_PLOT_H
#define PCOST_PLOT_H

#include <stddef.h>

#include "stats/compare.h"
#include "core/result.h"

enum pcost_plot_format { PCOST_PLOT_PNG, PCOST_PLOT_SVG, PCOST_PLOT_PDF };

/* The format named by path's extension (.png, .svg, .pdf; any case), or -1. */
int pcost_plot_format_of(const char *path);

/*
 * A session's figures: --scale fit (time against events per monitor, fitted
 * line and band), run overhead per monitor, probes per-hit cost per method and
 * build, counters cost against k per interface; each applies or not.
 */
struct pcost_figure {
	const char *name; /* "fit", "overhead", "per-hit", "counters" */
	const char *caption;
	char *svg; /* the SVG document (cairo's, axes on the root element) */
	size_t len;
};

/* Every figure of s as SVG text, in order; free with pcost_figures_free.  0 or -errno. */
int pcost_plot_figures(const struct pcost_session *s, struct pcost_figure **out, size_t *n,
		       char *err, size_t errlen);
void pcost_figures_free(struct pcost_figure *f, size_t n);

/*
 * Plot s's first figure (the fit for --scale sessions) to path.  0, or -errno
 * with one line in err (nothing to plot: -ENODATA).
 */
int pcost_plot_session(const struct pcost_session *s, const char *path, char *err, size_t errlen);
/* Plot a comparison of a and b to path as paired bars. */
int pcost_plot_compare(const struct pcost_session *a, const struct pcost_session *b,
		       const struct pcost_compare *c, const char *path, char *err, size_t errlen);

#endif
