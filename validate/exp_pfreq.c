/*
 * exp_pfreq.c - offcore requests by type, the L2 prefetchers' apart from
 * the demand's, with the prefetchers as MSR 0x1A4 sets them.
 *
 * From one thread, caches clean and empty at the start, memory of its own
 * socket, page after page (each page's lines new to every cache):
 *   pf-load-pairs  loads of lines 0 and 2 of each page;
 *   pf-store-line  a store to line 0 of each page.
 * The prefetchers' documented behaviour (doc/memory-model.md,
 * "Prefetchers"), per page:
 *   demand: every touch misses the L2 (nothing prefetched reaches line 0
 *   before its load, nor line 2: see below): DMND_DATA_RD 2, DMND_RFO 1;
 *   L2 adjacent line (bit 1 clear): each L2 miss fetches the other line of
 *   its 128-byte pair: lines 1 and 3 (PF_DATA_RD 2), line 1 after the store
 *   (PF_RFO 1: the triggering request was an RFO);
 *   L2 streamer (bit 0 clear): the first request to a page only starts
 *   tracking it; the second (line 2, ascending) fetches the two lines past
 *   it, 3 and 4, of which 3 is already there when the adjacent-line
 *   prefetcher fetched it: PF_DATA_RD 2, or 1 with the adjacent-line
 *   prefetcher on; one store a page never trains it;
 *   DCU next line and IP stride: a load after a load of the line before
 *   (2 after 0 is not), or a repeated step (none within a page, and the 62
 *   lines to the next page are beyond the 32-line reach): nothing; stores
 *   never train them.
 * So PF_DATA_RD = 2A + S(2 - A) and PF_RFO = A per page, A and S 1 when the
 * adjacent-line prefetcher or the streamer is on.  On silicon the streamer
 * adapts its distance and may fetch into the LLC only (PF_LLC_DATA_RD, not
 * counted here; the emulated machine never does and refuses those request
 * types): a wide band there.  MSR 0x1A4 unreadable on silicon: skipped.
 */
#include "vspec.h"

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

static int pf_run(struct vctx *c, void *arg)
{
	struct farg *a = arg;
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

static int pf_clean(struct vctx *c, void *arg)
{
	struct farg *a = arg;
	return vwin_clean(c, (struct karr *const[]){ a->x }, 1);
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
	int A = !(dis & 2u), S = !(dis & 1u);
	size_t pages = c->o.quick ? 512 : 2048;
	struct karr x;
	static const int pair[2] = { 0, 2 }, one[1] = { 0 };
	struct farg a = { &x, pages, pair, 2, 0, 0 };

	if ((rc = varr_alloc(c, &x, 4096 * pages, VP_SOCKET, s)) != 0)
		return rc;
	if ((rc = vpar(c, c->nthreads, c->cpus, init_work, &a)) != 0)
		goto out;
	const struct vband hwb = { 0.5, 3, "silicon: the streamer adapts its distance and may "
				   "fetch into the LLC only (PF_LLC_*, not counted here)" };
	char what[2][96];
	snprintf(what[0], sizeof(what[0]), "OFFCORE PF_DATA_RD (adjacent %s, streamer %s)",
		 A ? "on" : "off", S ? "on" : "off");
	snprintf(what[1], sizeof(what[1]), "OFFCORE PF_RFO (adjacent %s)", A ? "on" : "off");
	/* --break=pfreq: the prefetches counted with the demand requests (as
	 * the suite did before they were checked apart): one more a page
	 * than the prefetches, whatever the prefetchers' setting */
	const struct vspec loads[] = {
		{ VS_ONE, "snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:ANY_RESPONSE:cpu=%d", cpu, 2,
		  "OFFCORE DMND_DATA_RD", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, "snb_ep::OFFCORE_RESPONSE_1:PF_DATA_RD:ANY_RESPONSE:cpu=%d", cpu,
		  2.0 * A + S * (2.0 - A), what[0], VS_EXACT, VB_PFREQ,
		  "snb_ep::OFFCORE_RESPONSE_1:PF_DATA_RD:DMND_DATA_RD:ANY_RESPONSE:cpu=%d" },
	};
	if ((rc = vspec_window(c, "pf-load-pairs", loads, 2, (double)pages, "pages", hwb, pf_clean,
			       pf_run, &a)))
		goto out;
	a.at = one;
	a.nl = 1;
	a.store = 1;
	const struct vspec stores[] = {
		{ VS_ONE, "snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:ANY_RESPONSE:cpu=%d", cpu, 1,
		  "OFFCORE DMND_RFO", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, "snb_ep::OFFCORE_RESPONSE_1:PF_RFO:ANY_RESPONSE:cpu=%d", cpu, A, what[1],
		  VS_EXACT, VB_PFREQ, "snb_ep::OFFCORE_RESPONSE_1:PF_RFO:DMND_RFO:ANY_RESPONSE:cpu=%d" },
	};
	rc = vspec_window(c, "pf-store-line", stores, 2, (double)pages, "pages", hwb, pf_clean,
			  pf_run, &a);
	if (rc == 0)
		vprogress(c, "  %-24s (%zu pages; MSR 0x1A4 prefetcher bits 0x%x)\n", "pfreq", pages,
			  dis);
	if (rc == 0 && !c->planning)
		vnote(c, "offcore: PF_DATA_RD and PF_RFO validated apart from the demand; "
		      "PF_LLC_DATA_RD and PF_LLC_RFO not: the emulated streamer never fetches into the "
		      "LLC only (refused as not modeled)");
out:
	varr_free(c, &x);
	return rc;
}
