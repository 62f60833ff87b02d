/* SPDX-License-Identifier: MIT */
/*
 * plot: charts of stored sessions with cairo, as PNG, SVG or PDF by the file's
 * extension.  run -> overhead per monitor with 95% CI whiskers (log axis when
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

/* Plot s to path.  0, or -errno with one line in err (nothing to plot: -ENODATA). */
int pcost_plot_session(const struct pcost_session *s, const char *path, char *err, size_t errlen);
/* Plot a comparison of a and b to path as paired bars. */
int pcost_plot_compare(const struct pcost_session *a, const struct pcost_session *b,
		       const struct pcost_compare *c, const char *path, char *err, size_t errlen);

#endif
