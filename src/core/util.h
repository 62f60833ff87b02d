/* SPDX-License-Identifier: MIT */
/* util: error reporting, allocation, number parsing and the monotonic clock. */
#ifndef PCOST_UTIL_H
#define PCOST_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdnoreturn.h>

/* Nanoseconds of CLOCK_MONOTONIC (or a difference of two). Never mixed with cycles. */
typedef uint64_t pcost_ns;
/* TSC cycles. */
typedef uint64_t pcost_cycles;

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member) ((type *)((char *)(ptr)-offsetof(type, member)))

/* Exit codes: 0 success, 1 runtime failure, 2 bad usage or bad input. */
enum { PCOST_EXIT_OK = 0, PCOST_EXIT_FAIL = 1, PCOST_EXIT_USAGE = 2 };

/* -q / -v: 0 quiet, 1 normal, 2 verbose. */
extern int pcost_verbosity;

/*
 * "probecost: error: MSG" on stderr; returns -1 so commands can
 * `return error(...)`.  Lower case, what failed first, subject in quotes,
 * the fix where one is known.
 */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "probecost: warning: MSG" on stderr (suppressed by -q). */
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "probecost: MSG" when verbose (-v). */
void info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* error() then exit(1).  Only in cmd/ and forked children. */
noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Bad usage or input: prints "probecost: MSG" and returns PCOST_EXIT_USAGE (2). */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Grow *p (of *cap elements of size sz) so that it holds at least want. */
void xgrow(void **p, size_t *cap, size_t want, size_t sz);

/*
 * Parse a whole decimal unsigned integer (k/M/G suffixes allowed: 1k = 1000)
 * within [min, max].  Returns 0, -EINVAL (not a number) or -ERANGE.
 */
int pcost_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
/* Parse a whole floating point number within [min, max]; 0, -EINVAL or -ERANGE. */
int pcost_parse_double(const char *s, double min, double max, double *out);
/*
 * Parse a CPU list "0", "0,2", "0-3" into a bitmask of up to 64 CPUs.
 * Returns 0 or -EINVAL.
 */
int pcost_parse_cpulist(const char *s, uint64_t *mask);
/* The mask back as a list ("0,2,5"), what pcost_parse_cpulist reads. */
void pcost_format_cpumask(uint64_t mask, char *buf, size_t len);

/* CLOCK_MONOTONIC now, in ns. */
pcost_ns pcost_now_ns(void);

/* Read a small file whole into buf (NUL-terminated, trailing newline stripped).
 * Returns the length or -errno. */
ssize_t pcost_read_file(const char *path, char *buf, size_t len);

/* Is there an executable named name on $PATH?  Fills path (may be NULL). */
bool pcost_which(const char *name, char *path, size_t len);

/* Pin the calling thread to the CPUs in mask; 0 or -errno. */
int pcost_pin_mask(uint64_t mask);

#endif
