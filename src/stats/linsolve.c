// SPDX-License-Identifier: MIT
/*
 * linsolve: the inverse of a small square matrix, for least squares on the
 * normal equations (X'X of a few hundred columns at most): Gauss-Jordan
 * elimination with partial pivoting (Golub & Van Loan, Matrix Computations,
 * 4th ed., 3.4); a rank deficiency is reported rather than divided by.
 */
#include "stats/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* Row operations on a and its companion inv together. */
static void swap_rows(double *a, double *inv, size_t p, size_t r, size_t q)
{
	for (size_t k = 0; k < p && r != q; k++) {
		double t = a[r * p + k], u = inv[r * p + k];

		a[r * p + k] = a[q * p + k];
		a[q * p + k] = t;
		inv[r * p + k] = inv[q * p + k];
		inv[q * p + k] = u;
	}
}

int pcost_matrix_inverse(double *a, size_t p)
{
	double *inv = xcalloc(p * p + 1, sizeof(*inv)), scale = 0;
	int rc = 0;

	for (size_t i = 0; i < p; i++) {
		inv[i * p + i] = 1;
		for (size_t k = 0; k < p; k++)
			scale = fmax(scale, fabs(a[i * p + k]));
	}
	for (size_t c = 0; c < p; c++) {
		size_t piv = c;
		double f;

		for (size_t r = c + 1; r < p; r++)
			if (fabs(a[r * p + c]) > fabs(a[piv * p + c]))
				piv = r;
		/* A pivot this small next to the entries: the columns are dependent. */
		if (!(fabs(a[piv * p + c]) > 1e-12 * scale)) {
			rc = -EDOM;
			break;
		}
		swap_rows(a, inv, p, c, piv);
		f = a[c * p + c];
		for (size_t k = 0; k < p; k++) {
			a[c * p + k] /= f;
			inv[c * p + k] /= f;
		}
		for (size_t r = 0; r < p; r++) {
			f = a[r * p + c];
			if (r == c || f == 0)
				continue;
			for (size_t k = 0; k < p; k++) {
				a[r * p + k] -= f * a[c * p + k];
				inv[r * p + k] -= f * inv[c * p + k];
			}
		}
	}
	if (!rc)
		memcpy(a, inv, p * p * sizeof(*a));
	free(inv);
	return rc;
}
