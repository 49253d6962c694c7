/*
 * exp_pfreq.c - offcore requests by type, the L2 prefetchers' apart from
 * the demand's, with the prefetchers as MSR 0x1A4 sets them.  From one
 * thread, caches clean and empty at the start, memory of its own socket,
 * page after page: loads of lines 0 and 2 of each page (pf-load-pairs),
 * then a store to line 0 of each page (pf-store-line).  What the core
 * counts is the generation's (vgen.h: gen_snbep_pfreq.c), run by vx_run.
 * MSR 0x1A4 unreadable on silicon: skipped.
 */
#include "vgen.h"

struct farg {
	struct karr *x;
	size_t pages;
	const int *at;
	int nl, store;
	double sum;
};

static void pf_work(struct vctx *c, int t, int n, struct kfeed *f, void *arg)
{
	struct farg *a = arg;
	(void)t;
	(void)n;
	a->sum = KCALL(c, page_lines, f, a->x, a->pages, a->at, a->nl, a->store);
}

static int pf_run(struct vctx *c, void *arg, const struct vxwin *w)
{
	static const int pair[2] = { 0, 2 }, one[1] = { 0 };
	struct farg *a = arg;
	a->store = w->tag == XP_STORES;
	a->at = a->store ? one : pair;
	a->nl = a->store ? 1 : 2;
	int rc = vpar(c, 1, c->cpus, pf_work, a);
	if (rc == 0 && !c->planning && !a->store && a->sum != (double)(a->pages * (size_t)a->nl)) {
		snprintf(c->err, sizeof(c->err), "pfreq: sum of the loads %g, want %zu", a->sum,
			 a->pages * (size_t)a->nl);
		return -1;
	}
	return rc;
}

static void init_work(struct vctx *c, int t, int n, struct kfeed *f, void *arg)
{
	struct farg *a = arg;
	size_t lo, hi;
	vchunk(a->x->bytes / 8, t, n, &lo, &hi);
	KCALL(c, stream_init, f, a->x, 1.0, lo, hi);
}

int exp_pfreq(struct vctx *c)
{
	int s = c->o.socket, cpu = c->cpus[0], rc;
	unsigned dis;

	if (c->sim)
		dis = c->g.prefetch ? c->g.pf_dis : 0xfu;
	else if (c->pf.n > 0 && c->pf.ok[0])
		dis = c->o.prefetch_off ? 0xfu : (unsigned)c->pf.found[0] & 0xfu;
	else {
		vskip_n(c, 4, "pfreq: the prefetchers' setting (MSR 0x1A4 of CPU %d) could not be "
			"read", cpu);
		return 0;
	}
	size_t pages = c->o.quick ? 512 : 2048;
	struct karr x;
	struct karr *const arrs[1] = { &x };
	struct farg a = { &x, pages, NULL, 0, 0, 0 };
	struct vxset *xs;

	if ((rc = varr_alloc(c, &x, 4096 * pages, VP_SOCKET, s)) != 0)
		return rc;
	if ((rc = vpar(c, c->nthreads, c->cpus, init_work, &a)) != 0)
		goto out;
	if (!(xs = vx_new(c, "pfreq"))) {
		rc = -1;
		goto out;
	}
	const struct pfreq_case k = { pages, cpu, dis, c->hw, c->o.brk };
	const struct vxkern kern = { pf_run, &a, arrs, 1 };
	if ((rc = vx_go(c, "pfreq", xs, vgen_of(c)->pfreq(&c->g, &k, xs), &kern, NULL)) != 0)
		goto out;
	vprogress(c, "  %-24s (%zu pages; MSR 0x1A4 prefetcher bits 0x%x)\n", "pfreq", pages, dis);
	if (!c->planning && vgen_of(c) == &vgen_snbep)
		vnote(c, "offcore: PF_DATA_RD and PF_RFO validated apart from the demand; "
		      "PF_LLC_DATA_RD and PF_LLC_RFO not: the emulated streamer never fetches into the "
		      "LLC only (refused as not modeled)");
out:
	varr_free(c, &x);
	return rc;
}
