/*
 * gen_dgemm.c - blocked DGEMM's expectations on each generation's DRAM
 * counters, as data (vexp.h): at least the compulsory 3 n^2 x 8 bytes of
 * reads, and the loop nest's formula (dgemm_expect), at the socket that
 * holds the matrices; and each generation's clocks (the counters that tick
 * at a frequency of the geometry), which exp_clock.c checks against the
 * window's length.
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

int snbep_clocks(const struct vgeom *g, struct vclock *out, int max)
{
	const struct vclock clk[] = {
		{ "snbep_unc_ubo::UNC_U_CLOCKTICKS", "UBox UCLK (fixed)", g->uclk_hz, 1 },
		{ "snbep_unc_imc0::UNC_M_CLOCKTICKS", "iMC0 DCLK (fixed)", g->dclk_hz, 1 },
		{ "snbep_unc_cbo0::UNC_C_CLOCKTICKS", "CBo0 UCLK", g->uclk_hz, 1 },
		{ "snbep_unc_ha::UNC_H_CLOCKTICKS", "HA UCLK", g->uclk_hz, 1 },
		{ "snbep_unc_qpi0::UNC_Q_CLOCKTICKS", "QPI0 QCLK", g->qclk_hz, 1 },
		{ "snbep_unc_pcu::UNC_P_CLOCKTICKS", "PCU PCLK", g->pclk_hz, 0 },
	};
	int n = 0;
	for (size_t i = 0; i < sizeof(clk) / sizeof(clk[0]) && n < max; i++)
		out[n++] = clk[i];
	return n;
}

/* The Nehalem uncore's one clock counter: the fixed UCLK counter
 * (UNC_CLK_UNHALTED, MSR 0x394); the general counters have no clock
 * event the guide lists. */
int nhm_clocks(const struct vgeom *g, struct vclock *out, int max)
{
	if (max < 1)
		return 0;
	out[0] = (struct vclock){ g->gen == VG_WSMEP ? "wsm_unc::UNC_CLK_UNHALTED"
						     : "nhm_unc::UNC_CLK_UNHALTED",
				  "uncore UCLK (fixed)", g->uclk_hz, 0 };
	return 1;
}
