/*
 * gen_clock.c - the clocks against elapsed time, as data (vexp.h): each of
 * the generation's clocks (the counters that tick at a frequency of the
 * geometry) counts its frequency times the window's length, in a window in
 * which the suite only waits; and each generation's clocks.
 */
#include "vgen.h"

int vclock_set(const struct vgeom *g, const struct vclock *clk, int n,
	       const struct clock_case *k, struct vxset *x)
{
	vx_init(x);
	struct vxwin *w = vx_win(x);
	w->ms = k->ms;
	for (int i = 0; i < n; i++) {
		if (clk[i].hz <= 0) {
			vx_skip(w, 1, "clock: %s: frequency not known on this machine%s", clk[i].what,
				k->measured && clk[i].measured ? " (its measurement FAILed)" : "");
			continue;
		}
		int ev = vx_ev(w, 0, "%s:socket=%d", clk[i].name, k->socket);
		int tol = clk[i].measured && g->clk_tol > 0;
		if (!vx_clock(w, &ev, 1, clk[i].hz, 1, tol ? g->clk_tol : 0, k->hw,
			      tol ? "counters run at least the elapsed time inside the session and at "
				    "most from just before its start to just after its stop; the "
				    "frequency measured first, its uncertainty added"
				  : NULL, "cycles", "%s s%d @ %.4g GHz", clk[i].what, k->socket,
			      clk[i].hz * 1e-9)) {
			snprintf(x->err, sizeof(x->err), "clock: more clocks than a window holds");
			return -1;
		}
	}
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
