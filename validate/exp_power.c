/*
 * exp_power.c - the PCU on a machine whose frequencies and C-states are
 * known: frequency-band residency and C-state occupancy over a window of
 * known length.
 *
 * The emulated machine documents its power state (include/pmon/sim.h,
 * sim_pcu.c): the clocks never change frequency and every core is in C0
 * all the time.  So over a window of t ns, at the PCU clock pclk:
 *   FREQ_BANDn_CYCLES with band f (100 MHz units): every PCLK cycle when
 *   the uncore clock is at least f x 100 MHz, none when it is below.  Bands
 *   0 and 2 are set at and below the uncore clock (floor(uclk / 100 MHz) and
 *   half of it), bands 1 and 3 above (one step above, and 255):
 *   pclk x t, 0, pclk x t, 0;
 *   POWER_STATE_OCCUPANCY adds the cores in the chosen state every cycle:
 *   CORES_C0 cores x pclk x t, CORES_C3 and CORES_C6 0.
 * On silicon the frequency moves with load, turbo and the OS, and cores
 * sleep while the suite waits: not known before running, so skipped there.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <time.h>

#include "vrun.h"

static int sleep_window(struct vctx *c, struct vevents *e, double ms, double *ns)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)((ms - 1000 * (time_t)(ms / 1000)) * 1e6) };
	double t0, t1;
	int rc = vwin_start(c, e, &t0);
	if (rc == 0) {
		if (!c->planning)
			nanosleep(&ts, NULL);
		rc = vwin_stop(c, e, 0, NULL, 0, &t1);
	}
	*ns = rc == 0 && !c->planning ? t1 - t0 : ms * 1e6;
	return rc;
}

int exp_power(struct vctx *c)
{
	const char *k = "power";
	int s = c->o.socket, rc;
	double ms = c->o.quick ? 50 : 100, ns;

	if (c->hw || c->g.pclk_hz <= 0 || c->g.uclk_hz <= 0) {
		vskip(c, "power: the frequencies and C-states over the window are not known on this "
		      "machine (turbo, P-states, idle cores)");
		return 0;
	}
	/* the ratio: a whole multiple of 100 MHz (rounded: a measured clock
	 * may be a hair below it) */
	unsigned f = (unsigned)lround(c->g.uclk_hz / 1e8);
	unsigned band[4] = { f, f + 1, f / 2, 255 };
	/* --break=pcu: band 0 one step above the clock, C0 counted as C6 */
	int brk = c->o.brk == VB_PCU;
	struct vevents e;
	int ib[4], io[3];

	vev_init(&e, c->m);
	for (int n = 0; n < 4; n++) {
		ib[n] = vadd(c, &e, k, "snbep_unc_pcu::UNC_P_FREQ_BAND%d_CYCLES:ff=%u:socket=%d", n,
			     band[n] + (brk && n == 0), s);
		if (ib[n] == -2) {
			vev_free(&e);
			return -1;
		}
		if (brk && n == 0 && ib[n] >= 0)
			vev_mark_broken(&e, ib[n]);
	}
	if ((rc = sleep_window(c, &e, ms, &ns)) == 0) {
		struct vband b = clock_band(ns, c->hw);
		double cyc = clock_expect(c->g.pclk_hz, ns);
		for (int n = 0; n < 4; n++) {
			char what[96];
			snprintf(what, sizeof(what), "PCU FREQ_BAND%d_CYCLES ff=%u (uclk %.4g GHz) s%d", n,
				 band[n], c->g.uclk_hz * 1e-9, s);
			if (c->g.uclk_hz >= band[n] * 1e8)
				vcheck_sum(c, &e, k, what, "cycles", &ib[n], 1, 1, cyc, b);
			else
				vcheck_zero(c, &e, k, what, "cycles", &ib[n], 1, 1, 0,
					    "band above the uncore clock, which never changes frequency");
		}
	}
	vev_free(&e);
	if (rc)
		return rc;

	static const char *const st[3] = { "CORES_C0", "CORES_C3", "CORES_C6" };
	vev_init(&e, c->m);
	for (int i = 0; i < 3; i++) {
		io[i] = vadd(c, &e, k, "snbep_unc_pcu::UNC_P_POWER_STATE_OCCUPANCY:%s:socket=%d",
			     brk && i == 0 ? "CORES_C6" : st[i], s);
		if (io[i] == -2) {
			vev_free(&e);
			return -1;
		}
		if (brk && i == 0 && io[i] >= 0)
			vev_mark_broken(&e, io[i]);
	}
	if ((rc = sleep_window(c, &e, ms, &ns)) == 0) {
		struct vband b = clock_band(ns, c->hw);
		b.why = "every core in C0 each PCLK cycle (the emulated cores never sleep)";
		double cyc = clock_expect(c->g.pclk_hz, ns);
		char what[96];
		snprintf(what, sizeof(what), "PCU POWER_STATE_OCCUPANCY.CORES_C0 s%d (%d cores)", s,
			 c->g.cores);
		vcheck_sum(c, &e, k, what, "core-cycles", &io[0], 1, 1, cyc * c->g.cores, b);
		for (int i = 1; i < 3; i++) {
			snprintf(what, sizeof(what), "PCU POWER_STATE_OCCUPANCY.%s s%d", st[i], s);
			vcheck_zero(c, &e, k, what, "core-cycles", &io[i], 1, 1, 0,
				    "no core sleeps on the emulated machine");
		}
	}
	vev_free(&e);
	return rc;
}
