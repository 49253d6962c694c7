/*
 * exp_dram.c - DRAM pages: the iMC's ACT, PRE (page miss), CAS and read /
 * write queue inserts for three access patterns whose row sequence the
 * emulated machine's documented address map gives (include/pmon/sim.h,
 * DRAM; vgeom_dram_locate):
 *   dram-rowhit   every line of a buffer read in address order: a 4 KiB
 *                 page's lines share one row of one bank in each channel,
 *                 so a row opens once per page and channel and its other
 *                 lines hit it;
 *   dram-rowmiss  one line per page, the pages chosen so that consecutive
 *                 ones fall in the same bank of channel 0 but another row:
 *                 every access closes the open row (PRE, page miss) and
 *                 opens its own (ACT);
 *   dram-write    every line of the buffer written with streaming stores in
 *                 address order: the row-hit pattern as writes.
 * The expected counts come from replaying the open-page policy (a row hit
 * is a CAS alone; a closed bank ACT + CAS; another row open PRE + ACT +
 * CAS) over the lines' (rank, bank, row) in the order the kernel touches
 * them.  Each bank's first access in a window finds a row left open by
 * earlier work, which the suite does not know: it may be that row (no ACT),
 * none (no PRE) or another (both): the bands' lower edges.  Prefetchers
 * fetch lines of the same page, in the same row, ahead of use: the ACT and
 * PRE counts do not change (the row-miss kernel's other channels, which
 * they also reach, are not checked; nor its CAS reads with a prefetcher).
 * The hardware's address map is not documented: skipped there.
 */
#include <stdlib.h>
#include <string.h>

#include "vspec.h"

struct dwalk {
	double act, pre, unk, cas;   /* ACTs and PREs known, banks whose first state is not */
};

/* Replay the open-page policy over lines pa[0..n) (physical addresses) of
 * channel ch (-1: every channel) of socket s; the sum over channels. */
static int dram_walk(const struct vgeom *g, const uint64_t *pa, size_t n, int ch, struct dwalk *w)
{
	enum { NB = 4 * 2 * 8 };                  /* channels x ranks x banks */
	uint64_t row[NB];
	uint8_t seen[NB];
	memset(seen, 0, sizeof(seen));
	memset(row, 0, sizeof(row));
	memset(w, 0, sizeof(*w));
	for (size_t i = 0; i < n; i++) {
		struct vdram_loc l;
		if (vgeom_dram_locate(g, pa[i], &l) != 0 || l.channel >= 4)
			return -1;
		if (ch >= 0 && l.channel != ch)
			continue;
		int b = (l.channel * 2 + l.rank) * 8 + l.bank;
		w->cas++;
		if (!seen[b]) {
			seen[b] = 1;
			w->unk++;
		} else if (row[b] != l.row) {
			w->act++;
			w->pre++;
		}
		row[b] = l.row;
	}
	return 0;
}

/* Band on ACT or PRE: known + unk expected, known at least. */
static struct vband walk_band(double known, double unk, const char *why)
{
	return (struct vband){ known + unk > 0 ? known / (known + unk) : 1, 1, why };
}

struct darg {
	struct karr *x;
	uint64_t *offs;
	size_t n;
	int nt;
	double sum;
	int lines;               /* the buffer's lines, for the first touch */
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

static int dram_run(struct vctx *c, void *arg)
{
	struct darg *d = arg;
	int rc = vpar(c, 1, c->cpus, dram_work, d);
	if (rc == 0 && !c->planning && !d->nt && d->sum != (double)d->n) {
		snprintf(c->err, sizeof(c->err), "dram: sum of the lines %g, want %zu", d->sum, d->n);
		return -1;
	}
	return rc;
}

static int dram_clean(struct vctx *c, void *arg)
{
	struct darg *d = arg;
	return vwin_clean(c, (struct karr *const[]){ d->x }, 1);
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
	if (!c->sim) {
		vskip(c, "dram: the hardware's DRAM address map is undocumented; the row patterns need "
		      "the emulated map");
		return 0;
	}
	int s = vhome(c), rc;
	size_t bytes = c->o.quick ? (2u << 20) : (8u << 20), lines = bytes / 64;
	struct karr x;
	struct darg d = { &x, NULL, 0, 0, 0, 0 };
	uint64_t *pa = NULL, *offs = NULL, *mo = NULL, *mpa = NULL;

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
	struct dwalk w = { 1, 1, 0, 1 }, wm = { 1, 1, 0, 1 };
	size_t nm = c->planning ? 1 : rowmiss_lines(&c->g, pa, lines, mo, mpa);
	if (!c->planning && (dram_walk(&c->g, pa, lines, -1, &w) || dram_walk(&c->g, mpa, nm, 0, &wm))) {
		snprintf(c->err, sizeof(c->err), "dram: an address beyond the documented map");
		rc = -1;
		goto out;
	}
	const char *bwhy = "each bank's first access finds an unknown row open: ACT/PRE at least the "
			   "known ones";
	const struct vband hwb = { 0, 0, NULL };   /* not run on silicon */
	const struct vband cas = { 1, 1, "one access a line, cold caches: exact" };
	/* dram-rowhit */
	d.offs = offs;
	d.n = lines;
	const struct vspec hit[] = {
		{ VS_CH, "snbep_unc_imc%d::UNC_M_ACT_COUNT:socket=%d", s, w.act + w.unk,
		  "ACT_COUNT all ch", walk_band(w.act, w.unk, bwhy), VB_NONE, NULL },
		{ VS_CH, "snbep_unc_imc%d::UNC_M_PRE_COUNT:PAGE_MISS:socket=%d", s, w.pre + w.unk,
		  "PRE_COUNT.PAGE_MISS all ch", walk_band(w.pre, w.unk, bwhy), VB_DRAM,
		  "snbep_unc_imc%d::UNC_M_PRE_COUNT:PAGE_CLOSE:socket=%d" },
		{ VS_CH, "snbep_unc_imc%d::UNC_M_CAS_COUNT:RD:socket=%d", s, w.cas,
		  "CAS_COUNT.RD all ch", cas, VB_NONE, NULL },
		{ VS_CH, "snbep_unc_imc%d::UNC_M_RPQ_INSERTS:socket=%d", s, w.cas,
		  "RPQ_INSERTS all ch", cas, VB_NONE, NULL },
	};
	if ((rc = vspec_window(c, "dram-rowhit", hit, 4, 1, "lines", hwb, dram_clean, dram_run, &d)))
		goto out;
	/* dram-rowmiss: channel 0 */
	d.offs = mo;
	d.n = nm;
	int pf = c->g.prefetch;
	const struct vspec miss[] = {
		{ VS_ONE, "snbep_unc_imc0::UNC_M_ACT_COUNT:socket=%d", s, wm.act + wm.unk,
		  "ACT_COUNT ch0", walk_band(wm.act, wm.unk, bwhy), VB_NONE, NULL },
		{ VS_ONE, "snbep_unc_imc0::UNC_M_PRE_COUNT:PAGE_MISS:socket=%d", s, wm.pre + wm.unk,
		  "PRE_COUNT.PAGE_MISS ch0", walk_band(wm.pre, wm.unk, bwhy), VB_NONE, NULL },
		{ VS_ONE, "snbep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=%d", s, wm.cas,
		  "CAS_COUNT.RD ch0", cas, VB_NONE, NULL },
		{ VS_ONE, "snbep_unc_imc0::UNC_M_RPQ_INSERTS:socket=%d", s, wm.cas,
		  "RPQ_INSERTS ch0", cas, VB_NONE, NULL },
	};
	if ((rc = vspec_window(c, "dram-rowmiss", miss, pf ? 2 : 4, 1, "lines", hwb, dram_clean,
			       dram_run, &d)))
		goto out;
	/* dram-write */
	d.offs = offs;
	d.n = lines;
	d.nt = 1;
	const struct vspec wr[] = {
		{ VS_CH, "snbep_unc_imc%d::UNC_M_ACT_COUNT:socket=%d", s, w.act + w.unk,
		  "ACT_COUNT all ch", walk_band(w.act, w.unk, bwhy), VB_NONE, NULL },
		{ VS_CH, "snbep_unc_imc%d::UNC_M_PRE_COUNT:PAGE_MISS:socket=%d", s, w.pre + w.unk,
		  "PRE_COUNT.PAGE_MISS all ch", walk_band(w.pre, w.unk, bwhy), VB_NONE, NULL },
		{ VS_CH, "snbep_unc_imc%d::UNC_M_CAS_COUNT:WR:socket=%d", s, w.cas,
		  "CAS_COUNT.WR all ch", cas, VB_NONE, NULL },
		{ VS_CH, "snbep_unc_imc%d::UNC_M_WPQ_INSERTS:socket=%d", s, w.cas,
		  "WPQ_INSERTS all ch", cas, VB_DRAM, "snbep_unc_imc%d::UNC_M_RPQ_INSERTS:socket=%d" },
	};
	rc = vspec_window(c, "dram-write", wr, 4, 1, "lines", hwb, dram_clean, dram_run, &d);
	if (rc == 0)
		vprogress(c, "  %-24s (%zu lines of %zu KiB; row-miss probe %zu lines)\n", "dram", lines,
			  bytes >> 10, nm);
out:
	free(pa);
	free(offs);
	free(mo);
	free(mpa);
	varr_free(c, &x);
	return rc;
}
