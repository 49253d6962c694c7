/*
 * kernels.c - the validation suite's native kernels: pointer-chase latency
 * (ns per hop) per working set and order, and the blocked DGEMM's GFLOP/s
 * beside the system BLAS (dgemm_ of OpenBLAS or the reference BLAS, chosen
 * by configure) on the same matrices, one thread each.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "../../validate/kern.h"

void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
	    const double *alpha, const double *a, const int *lda, const double *b, const int *ldb,
	    const double *beta, double *c, const int *ldc);

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1Dull;
}

/* A random single cycle (Sattolo) over n lines, or page by page. */
static void build(struct chase_el *x, size_t n, int page)
{
	size_t *ord = malloc(n * sizeof(*ord)), *s = malloc(n * sizeof(*s));
	uint64_t seed = 12345;
	for (size_t i = 0; i < n; i++)
		s[i] = i;
	if (!page) {
		for (size_t i = n - 1; i > 0; i--) {
			size_t j = rnd(&seed) % i, t = s[i];
			s[i] = s[j];
			s[j] = t;
		}
		for (size_t k = 0, e = 0; k < n; k++, e = s[e])
			ord[k] = e;
	} else {
		size_t np = n / 64, k = 0, in[64];
		for (size_t i = np - 1; i > 0; i--) {
			size_t j = rnd(&seed) % i, t = s[i];
			s[i] = s[j];
			s[j] = t;
		}
		for (size_t p = 0, i = 0; i < np; i++, p = s[p]) {
			for (size_t l = 0; l < 64; l++)
				in[l] = l;
			for (size_t l = 63; l > 0; l--) {
				size_t j = rnd(&seed) % l, t = in[l];
				in[l] = in[j];
				in[j] = t;
			}
			for (size_t l = 0, m = 0; m < 64; m++, l = in[l])
				ord[k++] = p * 64 + l;
		}
	}
	for (size_t k = 0; k < n; k++)
		x[ord[k]].next = &x[ord[(k + 1) % n]];
	free(ord);
	free(s);
}

static void bench_chase(void)
{
	long l1 = sysconf(_SC_LEVEL1_DCACHE_SIZE), l2 = sysconf(_SC_LEVEL2_CACHE_SIZE),
	     l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
	if (l1 <= 0) l1 = 32 << 10;
	if (l2 <= 0) l2 = 512 << 10;
	/* A virtual machine may report a huge LLC: the sets stay below 8 x 32 MiB. */
	if (l3 <= 0 || l3 > 32 << 20) l3 = 32 << 20;
	struct { const char *name; size_t bytes; } ws[] = {
		{ "L1/2", (size_t)l1 / 2 }, { "L2/2", (size_t)l2 / 2 },
		{ "LLC/4", (size_t)l3 / 4 }, { "8xLLC", (size_t)l3 * 8 },
	};
	printf("pointer chase on this host (L1 %ld KiB, L2 %ld KiB, LLC %ld KiB), one thread\n",
	       l1 >> 10, l2 >> 10, l3 >> 10);
	printf("%-7s %12s %14s %14s\n", "set", "bytes", "line ns/hop", "page ns/hop");
	for (size_t w = 0; w < sizeof(ws) / sizeof(ws[0]); w++) {
		size_t n = ws[w].bytes / 64;
		struct chase_el *x = aligned_alloc(4096, (n * 64 + 4095) & ~(size_t)4095);
		struct karr k = { x, 0, n * 64 };
		double ns[2];
		for (int page = 0; page < 2; page++) {
			struct kfeed f;
			build(x, n, page);
			uint64_t hops = n < 4000000 ? 4000000 : n;
			chase_native(&f, &k, x, n);                 /* warm-up pass */
			uint64_t t0 = bench_ns();
			struct chase_el *end = chase_native(&f, &k, x, hops);
			ns[page] = (double)(bench_ns() - t0) / (double)hops;
			if (end == NULL)
				printf("?");
		}
		printf("%-7s %12zu %14.2f %14.2f\n", ws[w].name, n * 64, ns[0], ns[1]);
		free(x);
	}
}

static void bench_dgemm(int n)
{
	size_t nn = (size_t)n * n;
	double *a = aligned_alloc(4096, nn * 8), *b = aligned_alloc(4096, nn * 8),
	       *c = aligned_alloc(4096, nn * 8);
	struct karr ka = { a, 0, nn * 8 }, kb = { b, 0, nn * 8 }, kc = { c, 0, nn * 8 };
	struct kfeed f;
	for (size_t i = 0; i < nn; i++) {
		a[i] = (double)(i % 17) - 8;
		b[i] = (double)(i % 13) - 6;
	}
	memset(c, 0, nn * 8);
	uint64_t t0 = bench_ns();
	dgemm_blocked_native(&f, &kc, &ka, &kb, (size_t)n, 64, 0, (size_t)n, 0, (size_t)n);
	double mine = 2.0 * n * n * n / (double)(bench_ns() - t0);
	memset(c, 0, nn * 8);
	const double one = 1, zero = 0;
	t0 = bench_ns();
	/* Row-major C = A B is column-major C^T = B^T A^T. */
	dgemm_("N", "N", &n, &n, &n, &one, b, &n, a, &n, &zero, c, &n);
	double blas = 2.0 * n * n * n / (double)(bench_ns() - t0);
	printf("%-6d %14.2f %14.2f %8.3f\n", n, mine, blas, mine / blas);
	free(a);
	free(b);
	free(c);
}

int main(void)
{
	bench_chase();
	printf("\nDGEMM, one thread: pmon's blocked kernel (validate/kern_dgemm.c) and the system BLAS\n");
	printf("%-6s %14s %14s %8s\n", "n", "pmon GFLOP/s", "BLAS GFLOP/s", "ratio");
	bench_dgemm(512);
	bench_dgemm(1024);
	return 0;
}
