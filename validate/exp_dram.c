/*
 * exp_dram.c - DRAM pages: three access patterns from one thread, each from
 * cold caches, memory on the home socket:
 *   dram-rowhit   every line of a buffer read in address order;
 *   dram-rowmiss  one line per page, the pages chosen by the documented
 *                 address map so that consecutive ones fall in the same
 *                 bank of channel 0 but another row;
 *   dram-write    every line of the buffer written with streaming stores in
 *                 address order.
 * What the memory controller counts is the generation's (vgen.h:
 * gen_dram.c), from the lines' physical addresses, run by vx_run.  The
 * hardware's address map is not documented: skipped there.
 */
#include <stdlib.h>

#include "vgen.h"

struct darg {
	struct karr *x;
	const uint64_t *offs, *hit, *miss;
	size_t n, lines, nm;
	int nt;
	double sum;
};

static void touch_work(struct vctx *c, int t, int n, struct kfeed *f, void *arg)
{
	struct darg *d = arg;
	size_t lo, hi;
	vchunk(d->x->bytes / 8, t, n, &lo, &hi);
	KCALL(c, stream_init, f, d->x, 1.0, lo, hi);
}

static void dram_work(struct vctx *c, int t, int n, struct kfeed *f, void *arg)
{
	struct darg *d = arg;
	(void)t;
	(void)n;
	if (d->nt)
		KCALL(c, lines_nt, f, d->x, d->offs, d->n, 2.0);
	else
		d->sum = KCALL(c, line_sum, f, d->x, d->offs, d->n);
}

/* A window: the buffer's lines read (XD_ROWHIT) or written (XD_WRITE), or
 * the row-miss lines read (XD_ROWMISS). */
static int dram_run(struct vctx *c, void *arg, const struct vxwin *w)
{
	struct darg *d = arg;
	d->nt = w->tag == XD_WRITE;
	d->offs = w->tag == XD_ROWMISS ? d->miss : d->hit;
	d->n = w->tag == XD_ROWMISS ? d->nm : d->lines;
	int rc = vpar(c, 1, c->cpus, dram_work, d);
	if (rc == 0 && !c->planning && !d->nt && d->sum != (double)d->n) {
		snprintf(c->err, sizeof(c->err), "dram: sum of the lines %g, want %zu", d->sum, d->n);
		return -1;
	}
	return rc;
}

/* Pages whose channel-0 lines share one (rank, bank, row); their first
 * channel-0 line, grouped by bank, consecutive ones of a bank in other
 * rows.  offs gets the lines' offsets, pa their addresses; returns how many. */
static size_t rowmiss_lines(const struct vgeom *g, const uint64_t *pa, size_t lines, uint64_t *offs,
			    uint64_t *opa)
{
	size_t m = 0;
	for (int rb = 0; rb < 16; rb++) {
		uint64_t last = UINT64_MAX;
		for (size_t p = 0; p + 64 <= lines; p += 64) {
			int first = -1, same = 1;
			struct vdram_loc l0 = { 0 }, l;
			for (int i = 0; i < 64 && same; i++) {
				if (vgeom_dram_locate(g, pa[p + i], &l) != 0 || l.channel != 0)
					continue;
				if (first < 0) {
					first = i;
					l0 = l;
				} else {
					same = l.rank == l0.rank && l.bank == l0.bank && l.row == l0.row;
				}
			}
			if (first < 0 || !same || l0.rank * 8 + l0.bank != rb || l0.row == last)
				continue;
			last = l0.row;
			offs[m] = (p + (size_t)first) * 64;
			opa[m++] = pa[p + (size_t)first];
		}
	}
	return m;
}

int exp_dram(struct vctx *c)
{
	int s = vhome(c), rc;
	if (!c->sim) {
		/* Each check the expectations make (placeholder walks: the
		 * events, not their counts, make the checks) skipped. */
		const struct dram_case k = { NULL, 0, NULL, 1, s, c->hw, c->o.brk };
		struct vxset *xs = vx_new(c, "dram");
		if (!xs)
			return -1;
		if (vgen_of(c)->dram(&c->g, &k, xs) != 0) {
			snprintf(c->err, sizeof(c->err), "%s", xs->err);
			free(xs);
			return -1;
		}
		vskip_n(c, vx_count(xs), "dram: the hardware's DRAM address map is undocumented; the "
			"row patterns need the emulated map");
		free(xs);
		return 0;
	}
	size_t bytes = c->o.quick ? (2u << 20) : (8u << 20), lines = bytes / 64;
	struct karr x;
	struct karr *const arrs[1] = { &x };
	struct darg d = { &x, NULL, NULL, NULL, 0, lines, 0, 0, 0 };
	uint64_t *pa = NULL, *offs = NULL, *mo = NULL, *mpa = NULL;
	struct vxset *xs;

	if ((rc = varr_alloc(c, &x, bytes, VP_SOCKET, s)) != 0)
		return rc;
	pa = calloc(lines, sizeof(*pa));
	offs = calloc(lines, sizeof(*offs));
	mo = calloc(lines, sizeof(*mo));
	mpa = calloc(lines, sizeof(*mpa));
	if (!pa || !offs || !mo || !mpa) {
		rc = PMON_ENOMEM;
		goto out;
	}
	if ((rc = vpar(c, c->nthreads, c->cpus, touch_work, &d)) != 0)
		goto out;
	for (size_t i = 0; i < lines; i++) {
		offs[i] = 64 * i;
		/* (While planning the pages have no frames yet: the plan's
		 * expectations are placeholders.) */
		if (!c->planning && (rc = pmon_sim_mem_translate(c->sim, x.vbase + 64 * i, &pa[i])) != 0) {
			snprintf(c->err, sizeof(c->err), "dram: address map at +%zu: %s", 64 * i,
				 pmon_strerror(rc));
			goto out;
		}
	}
	d.nm = c->planning ? 1 : rowmiss_lines(&c->g, pa, lines, mo, mpa);
	d.hit = offs;
	d.miss = mo;
	if (!(xs = vx_new(c, "dram"))) {
		rc = -1;
		goto out;
	}
	const struct dram_case k = { c->planning ? NULL : pa, lines, mpa, d.nm, s, c->hw, c->o.brk };
	const struct vxkern kern = { dram_run, &d, arrs, 1 };
	if ((rc = vx_go(c, "dram", xs, vgen_of(c)->dram(&c->g, &k, xs), &kern, NULL)) == 0)
		vprogress(c, "  %-24s (%zu lines of %zu KiB; row-miss probe %zu lines)\n", "dram", lines,
			  bytes >> 10, d.nm);
out:
	free(pa);
	free(offs);
	free(mo);
	free(mpa);
	varr_free(c, &x);
	return rc;
}
