/*
 * exp_stream.c - STREAM Copy, Scale, Add and Triad with ordinary and with
 * non-temporal stores, run for the generation's expectations (vgen.h:
 * gen_snbep_stream.c), counted by the runner (vx_run); results checked as
 * STREAM does.  Also used by the NUMA experiment with the memory on
 * another socket.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vgen.h"
#include "xstream.h"

#define Q 3.0

struct sarg {
	struct karr *a, *b, *c;
	size_t n;
	enum stream_kernel k;
	int nt;
	int init;
};

static void stream_work(struct vctx *c, int t, int n, struct kfeed *f, void *arg)
{
	struct sarg *s = arg;
	size_t lo, hi;

	vchunk(s->n, t, n, &lo, &hi);
	if (s->init) {
		/* Values only: the arrays are placed on their socket explicitly,
		 * and the window starts from clean caches, so the emulated
		 * machine need not see the initialisation. */
		(void)c;
		stream_init_native(f, s->a, 1.0, lo, hi);
		stream_init_native(f, s->b, 2.0, lo, hi);
		stream_init_native(f, s->c, 0.0, lo, hi);
		return;
	}
	switch (s->k) {
	case SK_COPY: KCALL(c, stream_copy, f, s->c, s->a, lo, hi, s->nt); break;
	case SK_SCALE: KCALL(c, stream_scale, f, s->b, s->c, Q, lo, hi, s->nt); break;
	case SK_ADD: KCALL(c, stream_add, f, s->c, s->a, s->b, lo, hi, s->nt); break;
	case SK_TRIAD: KCALL(c, stream_triad, f, s->a, s->b, s->c, Q, lo, hi, s->nt); break;
	default: break;
	}
}

/* STREAM's check: replay the recurrence on scalars and compare the mean
 * relative error of each array with 1e-13. */
static int stream_results(const struct sarg *s, double aj, double bj, double cj, char *why,
			  size_t len)
{
	const double *a = s->a->host, *b = s->b->host, *c = s->c->host;
	double ea = 0, eb = 0, ec = 0;
	for (size_t j = 0; j < s->n; j++) {
		ea += fabs(a[j] - aj);
		eb += fabs(b[j] - bj);
		ec += fabs(c[j] - cj);
	}
	ea /= (double)s->n * fabs(aj);
	eb /= (double)s->n * fabs(bj);
	ec /= (double)s->n * fabs(cj);
	if (ea > 1e-13 || eb > 1e-13 || ec > 1e-13) {
		snprintf(why, len, "results do not validate: mean relative error a %.3g b %.3g c %.3g",
			 ea, eb, ec);
		return -1;
	}
	return 0;
}

/* A window of STREAM: the case's kernel over the arrays (XS_MAIN), or
 * over the first units elements of them (XS_QUARTER). */
static int stream_window(struct vctx *c, void *arg, const struct vxwin *w)
{
	struct sarg q = *(struct sarg *)arg;
	if (w->tag == XS_QUARTER)
		q.n = w->units;
	return vpar(c, c->nthreads, c->cpus, stream_work, &q);
}

/* Run the four kernels with ordinary then non-temporal stores, memory on
 * socket home, threads on the local socket; only kernels in mask. */
static int stream_run(struct vctx *c, const char *prefix, int home, unsigned mask, int nt_too)
{
	int req = c->o.socket;
	uint64_t elems = (uint64_t)(c->o.stream_mult * (double)c->g.llc_bytes) / 8;
	elems = (elems + 4095) & ~(uint64_t)4095;        /* whole pages */
	struct karr a, b, cc;
	struct sarg s = { &a, &b, &cc, elems, SK_COPY, 0, 1 };
	struct karr *arrs[3] = { &a, &b, &cc };
	const struct vgen *gen = vgen_of(c);
	struct vxset *xs = malloc(sizeof(*xs));
	int rc;

	if (!xs) {
		snprintf(c->err, sizeof(c->err), "%s: out of memory", prefix);
		return -1;
	}

	memset(&b, 0, sizeof(b));
	memset(&cc, 0, sizeof(cc));
	if ((rc = varr_alloc(c, &a, elems * 8, VP_SOCKET, home)) ||
	    (rc = varr_alloc(c, &b, elems * 8, VP_SOCKET, home)) ||
	    (rc = varr_alloc(c, &cc, elems * 8, VP_SOCKET, home))) {
		for (int i = 0; i < 3; i++)
			varr_free(c, arrs[i]);
		free(xs);
		return rc;
	}
	vprogress(c, "  %s: 3 arrays of %.1f MiB (%.2f x LLC), socket %d, %d threads\n", prefix,
		  elems * 8 / 1048576.0, c->o.stream_mult, home, c->nthreads);
	rc = vpar(c, c->nthreads, c->cpus, stream_work, &s);
	s.init = 0;
	double aj = 1, bj = 2, cj = 0;
	for (int nt = 0; nt <= nt_too && rc == 0; nt++) {
		for (int k = 0; k < SK_N && rc == 0; k++) {
			char kname[40];

			if (!((mask >> k) & 1))
				continue;
			if (k == SK_COPY) cj = aj;
			else if (k == SK_SCALE) bj = Q * cj;
			else if (k == SK_ADD) cj = aj + bj;
			else aj = bj + Q * cj;
			snprintf(kname, sizeof(kname), "%s-%s%s", prefix, stream_kernel_name[k],
				 nt ? "-nt" : "");
			s.k = (enum stream_kernel)k;
			s.nt = nt;
			struct stream_case sc = { .k = (enum stream_kernel)k, .nt = nt, .home = home,
						  .req = req, .elems = elems, .threads = c->nthreads,
						  .cpus = c->cpus,
						  .hw = c->hw, .brk = c->o.brk,
						  .link_util = req != home && k == SK_TRIAD && !nt };
			snprintf(sc.kname, sizeof(sc.kname), "%s", kname);
			double w0 = vnow_ns(), t0 = 0, t1 = 0;
			if (gen->stream(&c->g, &sc, xs) != 0) {
				snprintf(c->err, sizeof(c->err), "%s", xs->err);
				rc = -1;
				break;
			}
			struct vxres res;
			struct vxkern kern = { stream_window, &s, arrs, 3 };
			rc = vx_run(c, kname, xs, &kern, &res);
			t0 = res.t0[0];
			t1 = res.t1[0];
			vprogress(c, "  %-22s %6.2f s  (%.0f MB/s%s)\n", kname, (vnow_ns() - w0) * 1e-9,
				  (stream_reads((enum stream_kernel)k) + 1) * elems * 8 / ((t1 - t0) * 1e-3),
				  c->sim ? " of this host, feeding the model" : "");
		}
		if (rc == 0 && !c->planning) {
			char why[160];
			if (stream_results(&s, aj, bj, cj, why, sizeof(why)) != 0) {
				snprintf(c->err, sizeof(c->err), "%s%s: %s", prefix, nt ? " (nt)" : "", why);
				rc = -1;
			}
		}
	}
	for (int i = 0; i < 3; i++)
		varr_free(c, arrs[i]);
	free(xs);
	return rc;
}

int exp_stream(struct vctx *c)
{
	return stream_run(c, c->o.place_remote ? "stream-remote" : "stream", vhome(c), 0xf, 1);
}

/* NUMA: Triad with its memory on the remote socket (QPI, HA at home), and
 * Copy on the local socket for contrast. */
int exp_numa(struct vctx *c)
{
	if (c->g.sockets < 2) {
		/* Triad's checks: reads and writes (total and per channel), HA
		 * reads and writes, the requester's DRAM, QPI data and DRS flits
		 * of both ends, QPI_LINK_UTIL. */
		vskip_n(c, 10 + 2 * c->g.channels, "numa: one socket only, no remote memory");
		return 0;
	}
	if (!vremote_ok(c, "numa-remote-triad"))
		return 0;
	return stream_run(c, "numa-remote", vremote(c), 1u << SK_TRIAD, 0);
}
