// SPDX-License-Identifier: MIT
/*
 * stanford kernels: perm, towers, queens, intmm, puzzle, quick, bubble, tree
 * after Hennessy's Stanford benchmark (as in seed 002), plus an iterative
 * radix-2 fft; one SDT probe per hot path.  Built once per variant
 * (-DSTANFORD_VARIANT_<v>, see mk/probes.mk); never compiled plain.
 *
 * Stanford's globals live in one struct per call of the entry point (struct
 * sk, reached through a pointer every kernel takes), so threads running the
 * kernels at once each work on their own data and count their own hits.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/site_nops.h"
#include "workloads/stanford/kernels.h"

/*
 * PROBE(UPPER, lower, a, b): the probe site of one variant.
 *   none          nothing at all (the no-probe build)
 *   plain         STAP_PROBE2 with the values as they are
 *   volatile      the arguments go through volatile locals first (a store and
 *                 a load each, what "volatile probe arguments" cost in seed 002)
 *   *_sem         guarded by the semaphore of the dtrace -h generated header,
 *                 which a tracer increments when it arms the probe
 */
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define SDT2(prov, name, a, b) STAP_PROBE2(prov, name, a, b)
#define VOL2(prov, name, a, b)                                                                     \
	do {                                                                                       \
		volatile long va_ = (long)(a), vb_ = (long)(b);                                    \
		SDT2(prov, name, va_, vb_);                                                        \
	} while (0)

/*
 * The probe-site encoding (-DSTANFORD_SITE_<s>, none: sdt.h's one-byte nop).
 * SITE_() names the build's provider and entry point after it
 * (stanford_plain_nop5, pcost_stanford_plain_nop5), SITE_UP_() its dtrace -h
 * macros (STANFORD_PLAIN_SEM_NOP5_PERM_ENABLED).  SITE_NOP replaces sdt.h's
 * _SDT_NOP below (the bytes: site_nops.h).  nop5 is what Linux 6.18 turns
 * into a call through [uprobes-trampoline], which pushes into the red zone:
 * fft keeps data there across its site.  nop5_nrz (site nop5-nrz) is the same
 * nop in a build with -mno-red-zone: nothing is kept below rsp, so the call
 * overwrites nothing.
 */
#define STR_(x) #x
#define STR(x) STR_(x)
#if defined(STANFORD_SITE_nop5)
#define SITE_(x) x##_nop5
#define SITE_UP_(x) x##_NOP5
#define SITE_NOP PCOST_SITE_NOP5
#elif defined(STANFORD_SITE_nop5_nrz)
#define SITE_(x) x##_nop5_nrz
#define SITE_UP_(x) x##_NOP5_NRZ
#define SITE_NOP PCOST_SITE_NOP5
#elif defined(STANFORD_SITE_nop10)
#define SITE_(x) x##_nop10
#define SITE_UP_(x) x##_NOP10
#define SITE_NOP PCOST_SITE_NOP10
#else
#define SITE_(x) x
#define SITE_UP_(x) x
#endif

#if defined(STANFORD_VARIANT_none)
#define ENTRY pcost_stanford_none
#define PROBE(U, l, a, b) ((void)0)
#elif defined(STANFORD_VARIANT_plain)
#include <sys/sdt.h>
#define ENTRY SITE_(pcost_stanford_plain)
#define PROBE(U, l, a, b) SDT2(SITE_(stanford_plain), l, a, b)
#elif defined(STANFORD_VARIANT_volatile)
#include <sys/sdt.h>
#define ENTRY SITE_(pcost_stanford_volatile)
#define PROBE(U, l, a, b) VOL2(SITE_(stanford_volatile), l, a, b)
#elif defined(STANFORD_VARIANT_plain_sem)
#include STR(SITE_(stanford_plain_sem).h)
#define ENTRY SITE_(pcost_stanford_plain_sem)
#define PROBE(U, l, a, b)                                                                          \
	do {                                                                                       \
		if (CAT(SITE_UP_(STANFORD_PLAIN_SEM), CAT(_, CAT(U, _ENABLED)))())                 \
			SDT2(SITE_(stanford_plain_sem), l, a, b);                                  \
	} while (0)
#elif defined(STANFORD_VARIANT_volatile_sem)
#include STR(SITE_(stanford_volatile_sem).h)
#define ENTRY SITE_(pcost_stanford_volatile_sem)
#define PROBE(U, l, a, b)                                                                          \
	do {                                                                                       \
		if (CAT(SITE_UP_(STANFORD_VOLATILE_SEM), CAT(_, CAT(U, _ENABLED)))())              \
			VOL2(SITE_(stanford_volatile_sem), l, a, b);                               \
	} while (0)
#elif defined(STANFORD_VARIANT_lttng)
/* An LTTng-UST tracepoint per site instead of an SDT probe (build/lttng/pcost-lttng.so). */
#include "workloads/stanford/lttng_tp.h"
#define ENTRY pcost_stanford_lttng
#define PROBE(U, l, a, b) lttng_ust_tracepoint(pcost_stanford, l, (long)(a), (long)(b))
#else
#error "build kernels.c with -DSTANFORD_VARIANT_<none|plain|volatile|plain_sem|volatile_sem|lttng>"
#endif

#ifdef SITE_NOP
#undef _SDT_NOP
#define _SDT_NOP SITE_NOP
#endif

/* A code-layout copy (mk/probes.mk): the same variant at other alignments, entry suffixed. */
#ifdef STANFORD_LAYOUT
#define ENTRY_FN CAT(ENTRY, STANFORD_LAYOUT)
#else
#define ENTRY_FN ENTRY
#endif

#define TOWER_DISCS 14
#define ROWSIZE 40
#define PZ_SIZE 511
#define PZ_CLASSMAX 3
#define PZ_TYPEMAX 12
#define PZ_D 8
#define SORTELEMENTS 5000
#define SRTELEMENTS 500
#define FFT_N 256
#define FFT_LOG2N 8

struct node {
	struct node *left, *right;
	int val;
};

/* What Stanford keeps in globals, one per run of the kernels (about 200 KB). */
struct sk {
	uint64_t hits[PCOST_SK_N]; /* every site counts itself: the exact number of hits */
	volatile long sink;	   /* results land here so the compiler cannot drop the work */
	long seed;		   /* Stanford's Rand() */
	int permarray[11];	   /* perm */
	unsigned pctr;
	int stack[4][TOWER_DISCS + 1], top[4]; /* towers */
	long movesdone;
	int tower_bad;
	int ima[ROWSIZE + 1][ROWSIZE + 1], imb[ROWSIZE + 1][ROWSIZE + 1],
		imr[ROWSIZE + 1][ROWSIZE + 1]; /* intmm */
	int piececount[PZ_CLASSMAX + 1], class_[PZ_TYPEMAX + 1], piecemax[PZ_TYPEMAX + 1];
	int puzzl[PZ_SIZE + 1], p[PZ_TYPEMAX + 1][PZ_SIZE + 1], kount; /* puzzle */
	int sortlist[SORTELEMENTS + 1], biggest, littlest;	       /* quick, bubble, tree */
	struct node pool[SORTELEMENTS + 1];
	int npool;
	double zr[FFT_N], zi[FFT_N], orig[FFT_N], wr[FFT_N / 2], wi[FFT_N / 2]; /* fft */
};

#define SITE(U, l, a, b)                                                                           \
	do {                                                                                       \
		s->hits[PCOST_SK_##U]++;                                                           \
		PROBE(U, l, a, b);                                                                 \
	} while (0)

/* Stanford's Rand(): a 16-bit LCG, seeded 74755. */
static void initrand(struct sk *s)
{
	s->seed = 74755L;
}
static int rand16(struct sk *s)
{
	s->seed = (s->seed * 1309L + 13849L) & 65535L;
	return (int)s->seed;
}

/* ---- perm: recursive permutations of 7 elements, 5 times (43300 calls) ---- */

static void swap_int(int *a, int *b)
{
	int t = *a;

	*a = *b;
	*b = t;
}

static void permute(struct sk *s, int n)
{
	SITE(PERM, perm, n, s->pctr);
	s->pctr++;
	if (n != 1) {
		permute(s, n - 1);
		for (int k = n - 1; k >= 1; k--) {
			swap_int(&s->permarray[n], &s->permarray[k]);
			permute(s, n - 1);
			swap_int(&s->permarray[n], &s->permarray[k]);
		}
	}
}

static int perm(struct sk *s)
{
	s->pctr = 0;
	for (int i = 1; i <= 5; i++) {
		for (int j = 1; j <= 7; j++)
			s->permarray[j] = j - 1;
		permute(s, 7);
	}
	return s->pctr == 43300;
}

/* ---- towers: hanoi with 14 discs on three array stacks (16383 moves) ---- */
static void move(struct sk *s, int from, int to)
{
	int disc;

	SITE(TOWERS, towers, from, to);
	if (s->top[from] == 0) {
		s->tower_bad = 1;
		return;
	}
	disc = s->stack[from][--s->top[from]];
	if (s->top[to] && s->stack[to][s->top[to] - 1] < disc)
		s->tower_bad = 1;
	s->stack[to][s->top[to]++] = disc;
	s->movesdone++;
}

static void tower(struct sk *s, int i, int j, int k)
{
	if (k == 1) {
		move(s, i, j);
	} else {
		int other = 6 - i - j;

		tower(s, i, other, k - 1);
		move(s, i, j);
		tower(s, other, j, k - 1);
	}
}

static int towers(struct sk *s)
{
	memset(s->top, 0, sizeof(s->top));
	for (int d = TOWER_DISCS; d >= 1; d--)
		s->stack[1][s->top[1]++] = d;
	s->movesdone = 0;
	s->tower_bad = 0;
	tower(s, 1, 2, TOWER_DISCS);
	return !s->tower_bad && s->movesdone == (1L << TOWER_DISCS) - 1 && s->top[2] == TOWER_DISCS;
}

/* ---- queens: first solution of 8 queens, 50 times ---- */
static void try_(struct sk *s, int i, int *q, int a[], int b[], int c[], int x[])
{
	int j = 0;

	SITE(QUEENS, queens, i, 0);
	*q = 0;
	while (!*q && j != 8) {
		j++;
		*q = 0;
		if (b[j] && a[i + j] && c[i - j + 7]) {
			x[i] = j;
			b[j] = 0;
			a[i + j] = 0;
			c[i - j + 7] = 0;
			if (i < 8) {
				try_(s, i + 1, q, a, b, c, x);
				if (!*q) {
					b[j] = 1;
					a[i + j] = 1;
					c[i - j + 7] = 1;
				}
			} else {
				*q = 1;
			}
		}
	}
}

static int queens(struct sk *s)
{
	for (int n = 1; n <= 50; n++) {
		int a[17] = { 0 }, b[17] = { 0 }, c[15] = { 0 }, x[9] = { 0 }, q;

		for (int i = -7; i <= 16; i++) {
			if (i >= 1 && i <= 8)
				a[i] = 1;
			if (i >= 2)
				b[i] = 1;
			if (i <= 7)
				c[i + 7] = 1;
		}
		/* Stanford passes (b, a, c): columns indexed by j, diagonals by i+j. */
		try_(s, 1, &q, b, a, c, x);
		if (!q)
			return 0;
	}
	return 1;
}

/* ---- intmm: 40x40 integer matrix multiply, one probe per inner product ---- */
static void innerproduct(struct sk *s, int *result, int row, int column)
{
	SITE(INTMM, intmm, row, column);
	*result = 0;
	for (int i = 1; i <= ROWSIZE; i++)
		*result += s->ima[row][i] * s->imb[i][column];
}

static int intmm(struct sk *s)
{
	long sum = 0;

	initrand(s);
	for (int i = 1; i <= ROWSIZE; i++)
		for (int j = 1; j <= ROWSIZE; j++)
			s->ima[i][j] = rand16(s) % 120 - 60;
	for (int i = 1; i <= ROWSIZE; i++)
		for (int j = 1; j <= ROWSIZE; j++)
			s->imb[i][j] = rand16(s) % 120 - 60;
	for (int i = 1; i <= ROWSIZE; i++)
		for (int j = 1; j <= ROWSIZE; j++) {
			innerproduct(s, &s->imr[i][j], i, j);
			sum += s->imr[i][j];
		}
	s->sink = sum;
	/* Check one cell the slow way. */
	{
		int r = 0;

		for (int k = 1; k <= ROWSIZE; k++)
			r += s->ima[7][k] * s->imb[k][13];
		return r == s->imr[7][13];
	}
}

/* ---- puzzle: Forest Baskett's packing puzzle; Trial() runs 2005 times ---- */
static int fit(const struct sk *s, int i, int j)
{
	for (int k = 0; k <= s->piecemax[i]; k++)
		if (s->p[i][k] && s->puzzl[j + k])
			return 0;
	return 1;
}

static int place(struct sk *s, int i, int j)
{
	for (int k = 0; k <= s->piecemax[i]; k++)
		if (s->p[i][k])
			s->puzzl[j + k] = 1;
	s->piececount[s->class_[i]]--;
	for (int k = j; k <= PZ_SIZE; k++)
		if (!s->puzzl[k])
			return k;
	return 0;
}

static void remove_(struct sk *s, int i, int j)
{
	for (int k = 0; k <= s->piecemax[i]; k++)
		if (s->p[i][k])
			s->puzzl[j + k] = 0;
	s->piececount[s->class_[i]]++;
}

static int trial(struct sk *s, int j)
{
	SITE(PUZZLE, puzzle, j, s->kount);
	s->kount++;
	for (int i = 0; i <= PZ_TYPEMAX; i++) {
		if (s->piececount[s->class_[i]] != 0 && fit(s, i, j)) {
			int k = place(s, i, j);

			if (trial(s, k) || k == 0)
				return 1;
			remove_(s, i, j);
		}
	}
	return 0;
}

/* Piece `t` of class `cl` is an (x+1) x (y+1) x (z+1) box. */
static void piece(struct sk *s, int t, int cl, int x, int y, int z)
{
	for (int i = 0; i <= x; i++)
		for (int j = 0; j <= y; j++)
			for (int k = 0; k <= z; k++)
				s->p[t][i + PZ_D * (j + PZ_D * k)] = 1;
	s->class_[t] = cl;
	s->piecemax[t] = x + PZ_D * y + PZ_D * PZ_D * z;
}

static int puzzle(struct sk *s)
{
	/* Stanford's pieces: type, class and the box's extent in x, y, z. */
	static const signed char pieces[PZ_TYPEMAX + 1][5] = {
		{ 0, 0, 3, 1, 0 },  { 1, 0, 1, 0, 3 }, { 2, 0, 0, 3, 1 },  { 3, 0, 1, 3, 0 },
		{ 4, 0, 3, 0, 1 },  { 5, 0, 0, 1, 3 }, { 6, 1, 2, 0, 0 },  { 7, 1, 0, 2, 0 },
		{ 8, 1, 0, 0, 2 },  { 9, 2, 1, 1, 0 }, { 10, 2, 1, 0, 1 }, { 11, 2, 0, 1, 1 },
		{ 12, 3, 1, 1, 1 },
	};
	int m, n;

	for (m = 0; m <= PZ_SIZE; m++)
		s->puzzl[m] = 1;
	for (int i = 1; i <= 5; i++)
		for (int j = 1; j <= 5; j++)
			for (int k = 1; k <= 5; k++)
				s->puzzl[i + PZ_D * (j + PZ_D * k)] = 0;
	memset(s->p, 0, sizeof(s->p));
	for (int t = 0; t <= PZ_TYPEMAX; t++)
		piece(s, pieces[t][0], pieces[t][1], pieces[t][2], pieces[t][3], pieces[t][4]);
	s->piececount[0] = 13;
	s->piececount[1] = 3;
	s->piececount[2] = 1;
	s->piececount[3] = 1;
	m = 1 + PZ_D * (1 + PZ_D * 1);
	s->kount = 0;
	if (!fit(s, 0, m))
		return 0;
	n = place(s, 0, m);
	return trial(s, n) && s->kount == 2005;
}

/* ---- quick, bubble, tree: sorting Stanford's pseudo-random list ---- */
static void initarr(struct sk *s, int n)
{
	initrand(s);
	s->biggest = -100000;
	s->littlest = 100000;
	for (int i = 1; i <= n; i++) {
		long temp = rand16(s);

		/* Stanford's mapping of the 16-bit value into [-50000, 50000). */
		s->sortlist[i] = (int)(temp - (temp / 100000L) * 100000L - 50000L);
		if (s->sortlist[i] > s->biggest)
			s->biggest = s->sortlist[i];
		if (s->sortlist[i] < s->littlest)
			s->littlest = s->sortlist[i];
	}
}

static void quicksort(struct sk *s, int a[], int l, int r)
{
	int i = l, j = r, x = a[(l + r) / 2];

	SITE(QUICK, quick, l, r);
	do {
		while (a[i] < x)
			i++;
		while (x < a[j])
			j--;
		if (i <= j) {
			swap_int(&a[i], &a[j]);
			i++;
			j--;
		}
	} while (i <= j);
	if (l < j)
		quicksort(s, a, l, j);
	if (i < r)
		quicksort(s, a, i, r);
}

/* Is s->sortlist[1..n] sorted, from the smallest to the biggest element drawn? */
static int sorted(const struct sk *s, int n)
{
	for (int i = 1; i < n; i++)
		if (s->sortlist[i] > s->sortlist[i + 1])
			return 0;
	return s->sortlist[1] == s->littlest && s->sortlist[n] == s->biggest;
}

static int quick(struct sk *s)
{
	initarr(s, SORTELEMENTS);
	quicksort(s, s->sortlist, 1, SORTELEMENTS);
	return sorted(s, SORTELEMENTS);
}

static int bubble(struct sk *s)
{
	int *a = s->sortlist;

	initarr(s, SRTELEMENTS);
	for (int top = SRTELEMENTS; top > 1; top--) {
		for (int i = 1; i < top; i++) {
			SITE(BUBBLE, bubble, i, top);
			if (a[i] > a[i + 1])
				swap_int(&a[i], &a[i + 1]);
		}
	}
	return sorted(s, SRTELEMENTS);
}

static struct node *newnode(struct sk *s, int n)
{
	struct node *t = &s->pool[s->npool++];

	t->left = t->right = NULL;
	t->val = n;
	return t;
}

static void insert(struct sk *s, int n, struct node *t)
{
	SITE(TREE, tree, n, t->val);
	if (n > t->val) {
		if (!t->right)
			t->right = newnode(s, n);
		else
			insert(s, n, t->right);
	} else if (n < t->val) {
		if (!t->left)
			t->left = newnode(s, n);
		else
			insert(s, n, t->left);
	}
}

static int checktree(const struct node *t)
{
	int ok = 1;

	if (t->left)
		ok = t->left->val <= t->val && checktree(t->left);
	if (ok && t->right)
		ok = t->right->val >= t->val && checktree(t->right);
	return ok;
}

static int tree(struct sk *s)
{
	struct node *root;

	initarr(s, SORTELEMENTS);
	s->npool = 0;
	root = newnode(s, s->sortlist[1]);
	for (int i = 2; i <= SORTELEMENTS; i++)
		insert(s, s->sortlist[i], root);
	return checktree(root);
}

/*
 * ---- fft: 256 points, forward then inverse, 10 times; one probe per butterfly ----
 * Stanford's Oscar() ran a 256-point FFT 20 times; this is a plain iterative
 * radix-2 transform checked by the round trip.
 */
static void fft(struct sk *s, int inverse)
{
	double *zr = s->zr, *zi = s->zi;
	const double *wr = s->wr, *wi = s->wi;

	for (int i = 1, j = 0; i < FFT_N; i++) {
		int bit = FFT_N >> 1;

		for (; j & bit; bit >>= 1)
			j ^= bit;
		j ^= bit;
		if (i < j) {
			double t = zr[i];

			zr[i] = zr[j];
			zr[j] = t;
			t = zi[i];
			zi[i] = zi[j];
			zi[j] = t;
		}
	}
	for (int len = 2; len <= FFT_N; len <<= 1) {
		int step = FFT_N / len;

		for (int i = 0; i < FFT_N; i += len) {
			for (int k = 0; k < len / 2; k++) {
				double cr = wr[k * step],
				       ci = inverse ? -wi[k * step] : wi[k * step];
				int u = i + k, v = i + k + len / 2;
				double tr = zr[v] * cr - zi[v] * ci, ti = zr[v] * ci + zi[v] * cr;

				SITE(FFT, fft, u, v);
				zr[v] = zr[u] - tr;
				zi[v] = zi[u] - ti;
				zr[u] += tr;
				zi[u] += ti;
			}
		}
	}
	if (inverse)
		for (int i = 0; i < FFT_N; i++) {
			zr[i] /= FFT_N;
			zi[i] /= FFT_N;
		}
}

static int fft_kernel(struct sk *s)
{
	double err = 0;

	for (int k = 0; k < FFT_N / 2; k++) {
		s->wr[k] = cos(-2 * M_PI * k / FFT_N);
		s->wi[k] = sin(-2 * M_PI * k / FFT_N);
	}
	initrand(s);
	for (int i = 0; i < FFT_N; i++) {
		s->orig[i] = s->zr[i] = (rand16(s) - 32768) / 32768.0;
		s->zi[i] = 0;
	}
	for (int n = 0; n < 10; n++) {
		fft(s, 0);
		fft(s, 1);
	}
	for (int i = 0; i < FFT_N; i++)
		err += fabs(s->zr[i] - s->orig[i]) + fabs(s->zi[i]);
	return err < 1e-6;
}

static int (*const kernels[PCOST_SK_N])(struct sk *) = {
	perm, towers, queens, intmm, puzzle, quick, bubble, tree, fft_kernel,
};

int ENTRY_FN(unsigned mask, uint64_t reps, uint64_t out[PCOST_SK_N])
{
	struct sk *s = calloc(1, sizeof(*s));
	int bad = -1;

	if (!s)
		return -ENOMEM;
	for (uint64_t r = 0; r < reps; r++)
		for (int k = 0; k < PCOST_SK_N; k++)
			if ((mask & (1u << k)) && !kernels[k](s) && bad < 0)
				bad = k;
	memcpy(out, s->hits, sizeof(s->hits));
	free(s);
	return bad;
}
