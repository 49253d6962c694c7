/*
 * exp_clock.c - clocks against elapsed time: the generation's clocks
 * (vgen.h; SNB-EP: UBox UCLK (fixed), iMC DCLK (fixed), CBo and HA UCLK,
 * QPI QCLK, PCU PCLK; Nehalem: the fixed UCLK counter) over a window of
 * known length, at the frequencies of the machine's geometry.
 */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "vgen.h"

int exp_clock(struct vctx *c)
{
	/* The generation's clocks (gen_dgemm.c). */
	struct vclock clk[8];
	int NCLK = vgen_of(c)->clocks(&c->g, clk, 8);
	int idx[8], s = c->o.socket, rc;
	struct vevents e;
	double t0, t1;

	vev_init(&e, c->m);
	for (int i = 0; i < NCLK; i++) {
		idx[i] = -1;
		if (clk[i].hz <= 0) {
			vskip(c, "clock: %s: frequency not known on this machine", clk[i].what);
			continue;
		}
		idx[i] = vadd(c, &e, "clock", "%s:socket=%d", clk[i].name, s);
		if (idx[i] == -2) {
			vev_free(&e);
			return -1;
		}
	}
	struct timespec ts = { (time_t)(c->o.clock_ms / 1000),
			       (long)((c->o.clock_ms - 1000 * (time_t)(c->o.clock_ms / 1000)) * 1e6) };
	if ((rc = vwin_start(c, &e, &t0)) == 0) {
		if (!c->planning)
			nanosleep(&ts, NULL);
		rc = vwin_stop(c, &e, 0, NULL, 0, &t1);
	}
	if (rc == 0) {
		double ns = t1 - t0;
		struct vband b = clock_band(ns, c->hw);
		for (int i = 0; i < NCLK; i++) {
			char what[96];
			snprintf(what, sizeof(what), "%s s%d @ %.4g GHz", clk[i].what, s, clk[i].hz * 1e-9);
			vcheck_sum(c, &e, "clock", what, "cycles", &idx[i], 1, 1,
				   clock_expect(clk[i].hz, ns), b);
		}
		vprogress(c, "  %-24s %.0f ms window\n", "clock", ns * 1e-6);
	}
	vev_free(&e);
	return rc;
}
