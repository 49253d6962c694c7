/*
 * gen_snbep_power.c - the SNB-EP PCU on a machine whose frequencies and
 * C-states are known, as data (vexp.h): frequency-band residency and
 * C-state occupancy over a window of known length.
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
#include <math.h>

#include "vgen.h"

int snbep_power(const struct vgeom *g, const struct power_case *k, struct vxset *x)
{
	int s = k->socket;
	vx_init(x);
	struct vxwin *w = vx_win(x);
	if (k->hw || g->pclk_hz <= 0 || g->uclk_hz <= 0) {
		vx_skip(w, 1, "power: the frequencies and C-states over the window are not known on "
			"this machine (turbo, P-states, idle cores)");
		return 0;
	}
	/* the ratio: a whole multiple of 100 MHz (rounded: a measured clock
	 * may be a hair below it) */
	unsigned f = (unsigned)lround(g->uclk_hz / 1e8);
	unsigned band[4] = { f, f + 1, f / 2, 255 };
	/* --break=pcu: band 0 one step above the clock, C0 counted as C6 */
	int brk = k->brk == VB_PCU;
	static const char *const st[3] = { "CORES_C0", "CORES_C3", "CORES_C6" };

	w->ms = k->ms;
	for (int n = 0; n < 4; n++) {
		int i = vx_ev(w, brk && n == 0, "snbep_unc_pcu::UNC_P_FREQ_BAND%d_CYCLES:ff=%u:socket=%d",
			      n, band[n] + (brk && n == 0), s);
		if (g->uclk_hz >= band[n] * 1e8)
			vx_clock(w, &i, 1, g->pclk_hz, 1, 0, k->hw, NULL, "cycles",
				 "PCU FREQ_BAND%d_CYCLES ff=%u (uclk %.4g GHz) s%d", n, band[n],
				 g->uclk_hz * 1e-9, s);
		else
			vx_zero(w, &i, 1, 1, 0, "band above the uncore clock, which never changes "
				"frequency", "cycles", "PCU FREQ_BAND%d_CYCLES ff=%u (uclk %.4g GHz) s%d",
				n, band[n], g->uclk_hz * 1e-9, s);
	}
	w = vx_win(x);
	w->ms = k->ms;
	int io[3];
	for (int i = 0; i < 3; i++)
		io[i] = vx_ev(w, brk && i == 0, "snbep_unc_pcu::UNC_P_POWER_STATE_OCCUPANCY:%s:socket=%d",
			      brk && i == 0 ? "CORES_C6" : st[i], s);
	vx_clock(w, &io[0], 1, g->pclk_hz, g->cores, 0, k->hw,
		 "every core in C0 each PCLK cycle (the emulated cores never sleep)", "core-cycles",
		 "PCU POWER_STATE_OCCUPANCY.CORES_C0 s%d (%d cores)", s, g->cores);
	for (int i = 1; i < 3; i++)
		vx_zero(w, &io[i], 1, 1, 0, "no core sleeps on the emulated machine", "core-cycles",
			"PCU POWER_STATE_OCCUPANCY.%s s%d", st[i], s);
	return 0;
}
