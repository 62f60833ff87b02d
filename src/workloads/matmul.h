/* SPDX-License-Identifier: MIT */
/* matmul: the 128x128 kernel of seed 001, shared by the matmul workload and `counters --matmul`. */
#ifndef PCOST_MATMUL_H
#define PCOST_MATMUL_H

/*
 * matmul: c = a x b, n x n doubles, naive i-j-k order; after each outer
 * iteration calls each_row(ctx, i) when non-NULL.  Returns a checksum so
 * the compiler keeps the work.
 */
double pcost_matmul(unsigned n, const double *a, const double *b, double *c,
		    void (*each_row)(void *ctx, unsigned i), void *ctx);

#endif
