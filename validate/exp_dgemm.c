/*
 * exp_dgemm.c - blocked DGEMM (kern_dgemm.c) at a size whose matrices fit
 * in the LLC and one whose matrices exceed it, run for the generation's
 * expectations (gen_dgemm.c: the home socket's DRAM reads and writes
 * against dgemm_expect()), counted by the runner (vx_run).  The product is
 * checked against a naive triple loop on a small case first.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vgen.h"

#define BK 64

struct darg {
	struct karr *a, *b, *c;
	size_t n;
};

static void dgemm_work(struct vctx *c, int t, int n, struct kfeed *f, void *arg)
{
	struct darg *d = arg;
	size_t blocks = d->n / BK, per = blocks / (size_t)n, extra = blocks % (size_t)n;
	size_t b0 = per * (size_t)t + ((size_t)t < extra ? (size_t)t : extra);
	size_t b1 = b0 + per + ((size_t)t < extra ? 1 : 0);
	/* One panel at a time, the threads meeting at the barrier between
	 * panels: B's panel is shared by all.  Inside a panel the threads are
	 * not in step, so C's reuse distance lies between a thread's own
	 * rows and the whole of C (dgemm_expect). */
	for (size_t kk = 0; kk < d->n; kk += BK) {
		KCALL(c, dgemm_blocked, f, d->c, d->a, d->b, d->n, BK, kk, kk + BK, b0 * BK, b1 * BK);
		vbarrier(c, f);
	}
}

static double elem_a(size_t i, size_t k) { return (double)((i * 7 + k * 3) % 17) - 8.0; }
static double elem_b(size_t k, size_t j) { return (double)((k * 5 + j * 11) % 13) - 6.0; }

static int dgemm_alloc(struct vctx *c, struct darg *d, struct karr *arr, size_t n)
{
	int rc;
	d->a = &arr[0];
	d->b = &arr[1];
	d->c = &arr[2];
	d->n = n;
	memset(arr, 0, 3 * sizeof(*arr));    /* the caller frees all three on failure */
	for (int i = 0; i < 3; i++)
		if ((rc = varr_alloc(c, &arr[i], n * n * 8, VP_SOCKET, vhome(c))) != 0)
			return rc;
	double *a = arr[0].host, *b = arr[1].host, *cc = arr[2].host;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			a[i * n + j] = elem_a(i, j);
			b[i * n + j] = elem_b(i, j);
			cc[i * n + j] = 0;
		}
	return 0;
}

/* The emulated machine sees the arrays' first touch: stores of all lines. */
static void touch_work(struct vctx *c, int t, int n, struct kfeed *f, void *arg)
{
	struct darg *d = arg;
	size_t lo, hi;
	vchunk(d->n * d->n, t, n, &lo, &hi);
	KCALL(c, stream_init, f, d->a, 0, lo, hi);
	KCALL(c, stream_init, f, d->b, 0, lo, hi);
	KCALL(c, stream_init, f, d->c, 0, lo, hi);
}

/* Blocked product == naive product, exactly (small integers: no rounding). */
static int dgemm_selftest(struct vctx *c)
{
	const size_t n = 128;
	struct karr arr[3];
	struct darg d;
	int rc = dgemm_alloc(c, &d, arr, n);
	if (rc == 0)
		rc = vpar(c, c->nthreads, c->cpus, dgemm_work, &d);
	if (rc == 0 && !c->planning) {
		const double *cc = arr[2].host;
		for (size_t i = 0; i < n && rc == 0; i++)
			for (size_t j = 0; j < n; j++) {
				double s = 0;
				for (size_t k = 0; k < n; k++)
					s += elem_a(i, k) * elem_b(k, j);
				if (cc[i * n + j] != s) {
					snprintf(c->err, sizeof(c->err),
						 "dgemm: C[%zu][%zu] = %g, naive product %g", i, j,
						 cc[i * n + j], s);
					rc = -1;
					break;
				}
			}
	}
	for (int i = 0; i < 3; i++)
		varr_free(c, &arr[i]);
	return rc;
}

/* A window of DGEMM: the whole product. */
static int dgemm_window(struct vctx *c, void *arg, const struct vxwin *w)
{
	(void)w;
	return vpar(c, c->nthreads, c->cpus, dgemm_work, arg);
}

static int dgemm_one(struct vctx *c, size_t n)
{
	const char *tag = 3.0 * n * n * 8 <= (double)c->g.llc_bytes ? "fits" : "exceeds";
	struct karr arr[3];
	struct karr *arrs[3] = { &arr[0], &arr[1], &arr[2] };
	struct darg d;
	struct dgemm_expect x;
	struct vxres res;
	char kname[40];
	int rc;
	double w0 = vnow_ns();
	struct vxset *xs = malloc(sizeof(*xs));

	if (!xs) {
		snprintf(c->err, sizeof(c->err), "dgemm: out of memory");
		return -1;
	}
	snprintf(kname, sizeof(kname), "dgemm-%zu-%s%s", n, tag, c->o.place_remote ? "-remote" : "");
	if ((rc = dgemm_alloc(c, &d, arr, n)) != 0 || (rc = vpar(c, c->nthreads, c->cpus, touch_work, &d)))
		goto out;
	/* touch_work zeroed A and B on the host too: fill them again. */
	{
		double *a = arr[0].host, *b = arr[1].host;
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < n; j++) {
				a[i * n + j] = elem_a(i, j);
				b[i * n + j] = elem_b(i, j);
			}
	}
	struct dgemm_case k = { n, BK, c->nthreads, c->hw, vhome(c) };
	struct vxkern kern = { dgemm_window, &d, arrs, 3 };
	if ((rc = vgen_of(c)->dgemm(&c->g, &k, xs)) != 0) {
		snprintf(c->err, sizeof(c->err), "%s", xs->err);
		goto out;
	}
	if ((rc = vx_run(c, kname, xs, &kern, &res)) != 0)
		goto out;
	dgemm_expect(&c->g, n, BK, c->nthreads, c->hw, &x);
	vprogress(c, "  %-24s %5.2f s  (n=%zu, %.1f MiB of matrices = %.2f x LLC, C %s, %.2f GFLOP/s%s)\n",
		  kname, (vnow_ns() - w0) * 1e-9, n, 3.0 * n * n * 8 / 1048576, 3.0 * n * n * 8 / c->g.llc_bytes,
		  x.c_fits == 1 ? "fits" : x.c_fits == 0 ? "re-read per panel" : "borderline",
		  2.0 * n * n * n / (res.t1[0] - res.t0[0]), c->sim ? " feeding the model" : "");
out:
	for (int i = 0; i < 3; i++)
		varr_free(c, &arr[i]);
	free(xs);
	return rc;
}

/* Sizes from the LLC: fits = largest multiple of 64 with 3 n^2 x 8 <= LLC/4;
 * exceeds = smallest multiple of 64 with 3 n^2 x 8 >= 1.05 LLC. */
void dgemm_sizes(const struct vgeom *g, size_t *fit, size_t *big)
{
	double llc = (double)g->llc_bytes;
	size_t n = (size_t)sqrt(llc / 4 / 24) / BK * BK;
	*fit = n < BK ? BK : n;
	n = ((size_t)ceil(sqrt(1.05 * llc / 24)) + BK - 1) / BK * BK;
	*big = n;
}

int exp_dgemm(struct vctx *c)
{
	size_t fit, big;
	int rc = dgemm_selftest(c);
	if (rc)
		return rc;
	vprogress(c, "  dgemm: blocked product == naive product on n=128 (exact)\n");
	dgemm_sizes(&c->g, &fit, &big);
	if (c->o.dgemm_n[0])
		fit = c->o.dgemm_n[0];
	if (c->o.dgemm_n[1])
		big = c->o.dgemm_n[1];
	if ((rc = dgemm_one(c, fit)) != 0)
		return rc;
	return dgemm_one(c, big);
}
