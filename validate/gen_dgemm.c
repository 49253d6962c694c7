/*
 * gen_dgemm.c - blocked DGEMM's expectations on each generation's DRAM
 * counters, as data (vexp.h): at least the compulsory 3 n^2 x 8 bytes of
 * reads, and the loop nest's formula (dgemm_expect), at the socket that
 * holds the matrices.
 */
#include <math.h>

#include "vexp.h"
#include "vgen.h"

/* The checks of one window: DRAM reads rd[0..n) and writes wr[0..n),
 * named rdname and wrname, both bothname. */
static void dgemm_checks(const struct vgeom *g, const struct dgemm_case *k, struct vxwin *w,
			 const int *rd, const int *wr, int n, const char *rdname, const char *wrname,
			 const char *bothname)
{
	struct dgemm_expect e;
	dgemm_expect(g, k->n, k->bk, k->threads, k->hw, &e);
	vx_sum(w, rd, n, 1, e.compulsory_rd,
	       (struct vband){ 1, INFINITY, "every element of A, B and C is read at least once" },
	       "lines", "%s s%d >= compulsory 3n^2", rdname, k->home);
	if (e.set_risk > 5e-3) {
		/* Few LLC ways: sets overflow (or keep lines) often enough that
		 * the formula's count is not pinned; the measured count shown. */
		char why[200];
		snprintf(why, sizeof(why), "formula %.0f / %.0f): %d-way LLC sets that defeat "
			 "fits/exceeds may move the reads by %.1f%%", e.rd, e.wr, g->llc_ways,
			 100 * e.set_risk);
		vx_skipm2(w, rd, n, wr, n, 2, why, "%s s%d nest formula", bothname, k->home);
		return;
	}
	vx_sum(w, rd, n, 1, e.rd, (struct vband){ e.lo, e.hi, e.why }, "lines", "%s s%d nest formula",
	       rdname, k->home);
	vx_sum(w, wr, n, 1, e.wr, (struct vband){ e.lo, e.wr_hi, e.why }, "lines",
	       "%s s%d nest formula", wrname, k->home);
}

static struct vxwin *dgemm_window(struct vxset *x, const struct dgemm_case *k)
{
	vx_init(x);
	struct vxwin *w = vx_win(x);
	w->units = k->n;
	w->clean = w->flush = 1;
	return w;
}

/* SNB-EP: the iMC channels' CAS reads and writes. */
int snbep_dgemm(const struct vgeom *g, const struct dgemm_case *k, struct vxset *x)
{
	struct vxwin *w = dgemm_window(x, k);
	int rd[4], wr[4], ch = g->channels > 4 ? 4 : g->channels;
	for (int i = 0; i < ch; i++) {
		rd[i] = vx_ev(w, 0, "snbep_unc_imc%d::UNC_M_CAS_COUNT:RD:socket=%d", i, k->home);
		wr[i] = vx_ev(w, 0, "snbep_unc_imc%d::UNC_M_CAS_COUNT:WR:socket=%d", i, k->home);
	}
	dgemm_checks(g, k, w, rd, wr, ch, "CAS_COUNT.RD", "CAS_COUNT.WR", "CAS_COUNT.RD/WR");
	return 0;
}

/* Nehalem / Westmere: the memory controller's normal reads and full-line
 * writes of all channels (guide Table 39). */
int nhm_dgemm(const struct vgeom *g, const struct dgemm_case *k, struct vxset *x)
{
	struct vxwin *w = dgemm_window(x, k);
	const char *u = nhm_unc_pmu(g);
	int rd = vx_ev(w, 0, "%s::UNC_IMC_NORMAL_READS:ANY:socket=%d", u, k->home);
	int wr = vx_ev(w, 0, "%s::UNC_IMC_WRITES:FULL_ANY:socket=%d", u, k->home);
	dgemm_checks(g, k, w, &rd, &wr, 1, "IMC_NORMAL_READS.ANY", "IMC_WRITES.FULL.ANY",
		     "IMC_NORMAL_READS/IMC_WRITES");
	return 0;
}
