/*
 * gen_dram.c - DRAM pages as data (vspec.h): the iMC's ACT, PRE (page
 * miss), CAS and read / write queue inserts for three access patterns whose
 * row sequence the emulated machine's documented address map gives
 * (include/pmon/sim.h, DRAM; vgeom_dram_locate):
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
 */
#include <string.h>

#include "vgen.h"
#include "vspec.h"

struct dwalk {
	double act, pre, unk, cas;   /* ACTs and PREs known, banks whose first state is not */
};

/* Replay the open-page policy over lines pa[0..n) (physical addresses) of
 * channel ch (-1: every channel); the sum over channels. */
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

/* The walks of the row-hit (and write) and row-miss patterns; without the
 * addresses (while planning), placeholders.  0, or -1 (x->err). */
static int walks(const struct vgeom *g, const struct dram_case *k, struct dwalk *w,
		 struct dwalk *wm, struct vxset *x)
{
	*w = *wm = (struct dwalk){ 1, 1, 0, 1 };
	if (k->pa && (dram_walk(g, k->pa, k->lines, -1, w) || dram_walk(g, k->mpa, k->nm, 0, wm))) {
		snprintf(x->err, sizeof(x->err), "dram: an address beyond the documented map");
		return -1;
	}
	return 0;
}

static const char *const bwhy = "each bank's first access finds an unknown row open: ACT/PRE at "
				"least the known ones";
static const struct vband cas = { 1, 1, "one access a line, cold caches: exact" };

/* SNB-EP: the iMC channels' ACT, PRE (page miss), CAS and queue inserts. */
int snbep_dram(const struct vgeom *g, const struct dram_case *k, struct vxset *x)
{
	int s = k->socket, rc;
	struct dwalk w, wm;
	vx_init(x);
	if (walks(g, k, &w, &wm, x))
		return -1;
	/* not run on silicon */
	const struct vspec_on on = { k->brk, k->hw, { 0, 0, NULL }, 1, "lines" };
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
	/* channel 0 */
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
	if ((rc = vspec_win(g, x, "dram-rowhit", XD_ROWHIT, 1, hit, 4, &on)) ||
	    (rc = vspec_win(g, x, "dram-rowmiss", XD_ROWMISS, 1, miss, g->prefetch ? 2 : 4, &on)))
		return rc;
	return vspec_win(g, x, "dram-write", XD_WRITE, 1, wr, 4, &on);
}

/* Nehalem-EP / Westmere-EP: the memory controller's activates
 * (UNC_DRAM_OPEN), precharges of another open row (UNC_DRAM_PAGE_MISS) and
 * CAS commands, all channels in one umask (or channel 0), and the home's
 * normal reads and full-line writes (guide Table 39): one a line. */
int nhm_dram(const struct vgeom *g, const struct dram_case *k, struct vxset *x)
{
	int s = k->socket, rc;
	struct dwalk w, wm;
	vx_init(x);
	if (walks(g, k, &w, &wm, x))
		return -1;
	const char *u = nhm_unc_pmu(g);
	char ch[16], f[10][80];
	nhm_channels(g, ch, sizeof(ch));
	const char *const ev[10][2] = {
		{ "UNC_DRAM_OPEN", ch }, { "UNC_DRAM_PAGE_MISS", ch }, { "UNC_DRAM_READ_CAS", ch },
		{ "UNC_IMC_NORMAL_READS", "ANY" }, { "UNC_DRAM_OPEN", "CH0" },
		{ "UNC_DRAM_PAGE_MISS", "CH0" }, { "UNC_DRAM_READ_CAS", "CH0" },
		{ "UNC_IMC_NORMAL_READS", "CH0" }, { "UNC_DRAM_WRITE_CAS", ch },
		{ "UNC_IMC_WRITES", "FULL_ANY" },
	};
	for (int i = 0; i < 10; i++)
		snprintf(f[i], sizeof(f[i]), "%s::%s:%s:socket=%%d", u, ev[i][0], ev[i][1]);
	/* not run on silicon */
	const struct vspec_on on = { k->brk, k->hw, { 0, 0, NULL }, 1, "lines" };
	const struct vspec hit[] = {
		{ VS_ONE, f[0], s, w.act + w.unk, "DRAM_OPEN all ch", walk_band(w.act, w.unk, bwhy),
		  VB_NONE, NULL },
		{ VS_ONE, f[1], s, w.pre + w.unk, "DRAM_PAGE_MISS all ch", walk_band(w.pre, w.unk, bwhy),
		  VB_NONE, NULL },
		{ VS_ONE, f[2], s, w.cas, "DRAM_READ_CAS all ch", cas, VB_NONE, NULL },
		{ VS_ONE, f[3], s, w.cas, "IMC_NORMAL_READS.ANY", cas, VB_NONE, NULL },
	};
	/* channel 0 */
	const struct vspec miss[] = {
		{ VS_ONE, f[4], s, wm.act + wm.unk, "DRAM_OPEN ch0", walk_band(wm.act, wm.unk, bwhy),
		  VB_NONE, NULL },
		{ VS_ONE, f[5], s, wm.pre + wm.unk, "DRAM_PAGE_MISS ch0", walk_band(wm.pre, wm.unk, bwhy),
		  VB_NONE, NULL },
		{ VS_ONE, f[6], s, wm.cas, "DRAM_READ_CAS ch0", cas, VB_NONE, NULL },
		{ VS_ONE, f[7], s, wm.cas, "IMC_NORMAL_READS.CH0", cas, VB_NONE, NULL },
	};
	/* --break=dram: the write CAS counted as read CAS */
	const struct vspec wr[] = {
		{ VS_ONE, f[0], s, w.act + w.unk, "DRAM_OPEN all ch", walk_band(w.act, w.unk, bwhy),
		  VB_NONE, NULL },
		{ VS_ONE, f[1], s, w.pre + w.unk, "DRAM_PAGE_MISS all ch", walk_band(w.pre, w.unk, bwhy),
		  VB_NONE, NULL },
		{ VS_ONE, f[8], s, w.cas, "DRAM_WRITE_CAS all ch", cas, VB_DRAM, f[2] },
		{ VS_ONE, f[9], s, w.cas, "IMC_WRITES.FULL.ANY", cas, VB_NONE, NULL },
	};
	if ((rc = vspec_win(g, x, "dram-rowhit", XD_ROWHIT, 1, hit, 4, &on)) ||
	    (rc = vspec_win(g, x, "dram-rowmiss", XD_ROWMISS, 1, miss, g->prefetch ? 2 : 4, &on)))
		return rc;
	return vspec_win(g, x, "dram-write", XD_WRITE, 1, wr, 4, &on);
}
