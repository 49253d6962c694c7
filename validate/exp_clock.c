/*
 * exp_clock.c - clocks against elapsed time: the generation's clocks
 * (vgen.h, gen_clock.c; SNB-EP: UBox UCLK (fixed), iMC DCLK (fixed), CBo
 * and HA UCLK, QPI QCLK, PCU PCLK; Nehalem: the fixed UCLK counter) over a
 * window of known length in which the suite waits, at the frequencies of
 * the machine's geometry (vclock_set), run by vx_run.
 *
 * On SNB-EP hardware only the PCU's clock is documented (800 MHz): UCLK, DCLK
 * and QCLK are measured first (vclock_measure, before the plan), each as its
 * count over a window of the machine's time, and every later check uses the
 * measured frequency with the measurement's uncertainty added to its
 * tolerance.  The measurement itself is a check: a frequency outside the
 * range Intel documents for the clock (a counter that does not count, a
 * wrong event) FAILs, and the checks that need it are then not made.
 */
#include <string.h>

#include "vgen.h"

/* The measured clocks: the fixed counters of the UBox and iMC0 and QPI0's
 * clock, and the range each runs in on an E5-2600 (the uncore's UCLK from
 * 1.2 GHz up to the cores' turbo; DCLK half of DDR3-800 to DDR3-1866's
 * transfer rate; QCLK an eighth of QPI's 6.4 to 8 GT/s), widened a little. */
static const struct {
	const char *ev, *what;
	double lo, hi;
} mclk[VCLK_N] = {
	{ "snbep_unc_ubo::UNC_U_CLOCKTICKS", "UCLK (UBox fixed)", 1.0e9, 4.0e9 },
	{ "snbep_unc_imc0::UNC_M_CLOCKTICKS", "DCLK (iMC0 fixed)", 0.3e9, 1.1e9 },
	{ "snbep_unc_qpi0::UNC_Q_CLOCKTICKS", "QCLK (QPI0)", 0.5e9, 1.1e9 },
};

static double *mclk_hz(struct vgeom *g, int i)
{
	return i == VCLK_UCLK ? &g->uclk_hz : i == VCLK_DCLK ? &g->dclk_hz : &g->qclk_hz;
}

int vclock_measure(struct vctx *c)
{
	struct vclkm *k = &c->hwinfo.clk;
	struct vevents e;
	int idx[VCLK_N], need = c->o.measure_clocks, rc;

	for (int i = 0; i < VCLK_N; i++)
		need |= *mclk_hz(&c->g, i) <= 0;
	memset(k, 0, sizeof(*k));
	/* SNB-EP's clock events (a Nehalem's unknown clocks stay unknown) */
	if (!need || vgen_of(c) != &vgen_snbep)
		return 0;
	k->measured = 1;
	k->broken = c->o.brk == VB_CLOCK;
	vev_init(&e, c->m);
	for (int i = 0; i < VCLK_N; i++) {
		*mclk_hz(&c->g, i) = 0;      /* from here on: the measurement's, or none */
		idx[i] = vev_add(&e, "%s:socket=%d", mclk[i].ev, c->o.socket);
		if (idx[i] < 0)
			snprintf(k->why[i], sizeof(k->why[i]), "not counted: %.180s", e.err);
	}
	if ((rc = vev_start(&e)) != 0) {
		for (int i = 0; i < VCLK_N; i++)
			if (idx[i] >= 0)
				snprintf(k->why[i], sizeof(k->why[i]), "not counted: %.180s", e.err);
		vev_free(&e);
		return 0;
	}
	/* The machine's time of the counts (pmon_session_read_ns): the same
	 * window the totals cover. */
	uint64_t m0 = pmon_session_read_ns(e.s);
	vx_wait_ms(c->o.clock_ms);
	rc = vev_stop(&e);
	uint64_t m1 = pmon_session_read_ns(e.s);
	k->sec = m1 > m0 ? (double)(m1 - m0) * 1e-9 : 0;
	/* The boxes start and stop one after another, apart from the
	 * session's reading of the machine's time: up to 1 ms either way (as
	 * the metrics over a window allow). */
	k->tol = k->sec > 0 ? 1e-3 / k->sec : 0;
	for (int i = 0; i < VCLK_N; i++) {
		if (idx[i] < 0)
			continue;
		if (rc != 0 || k->sec <= 0) {
			snprintf(k->why[i], sizeof(k->why[i]), "not counted: %.180s",
				 rc ? e.err : "no machine time for the window");
			continue;
		}
		k->count[i] = e.val[idx[i]];
		double hz = k->hz[i] = (double)k->count[i] / k->sec;
		if (i == VCLK_UCLK && k->broken)
			hz = k->hz[i] *= 1.1;    /* --break=clock: recorded wrong on purpose */
		if (hz < mclk[i].lo || hz > mclk[i].hi) {
			snprintf(k->why[i], sizeof(k->why[i]), "%.4g GHz, outside the %.3g-%.3g GHz "
				 "documented: not used", hz * 1e-9, mclk[i].lo * 1e-9, mclk[i].hi * 1e-9);
			continue;
		}
		k->used[i] = 1;
		*mclk_hz(&c->g, i) = hz;
	}
	c->g.clk_tol = k->tol;
	vev_free(&e);
	fprintf(stderr, "pmon-validate: clocks measured over %.0f ms: UCLK %.4g, DCLK %.4g, QCLK %.4g "
		"GHz (+-%.2g%%)%s\n", k->sec * 1e3, k->hz[0] * 1e-9, k->hz[1] * 1e-9, k->hz[2] * 1e-9,
		100 * k->tol, k->broken ? ", UCLK 10% high on purpose (--break=clock)" : "");
	return 0;
}

/* The measurement as checks: each measured frequency within its
 * documented range (the range's middle expected, its ends the band). */
static void measured_checks(struct vctx *c)
{
	const struct vclkm *k = &c->hwinfo.clk;
	for (int i = 0; i < VCLK_N && k->measured; i++) {
		char what[96], why[160];
		double mid = (mclk[i].lo + mclk[i].hi) / 2;
		snprintf(what, sizeof(what), "%s s%d measured", mclk[i].what, c->o.socket);
		snprintf(why, sizeof(why), "count over %.0f ms of machine time, in the documented range%s%s",
			 k->sec * 1e3, k->why[i][0] ? ": " : "", k->why[i]);
		struct vcheck *v = vcheck_rel(&c->checks, "clock", what, "Hz", mid, k->hz[i], mclk[i].lo / mid,
					      mclk[i].hi / mid, why);
		if (v) {
			const char *name = mclk[i].ev;
			vcheck_set_events(v, &name, 1);
		}
	}
}

int exp_clock(struct vctx *c)
{
	/* The generation's clocks (gen_clock.c). */
	struct vclock clk[8];
	int n = vgen_of(c)->clocks(&c->g, clk, 8), rc;
	struct vxres res;
	struct vxset *xs;

	measured_checks(c);
	if (!(xs = vx_new(c, "clock")))
		return -1;
	const struct clock_case k = { c->o.clock_ms, c->o.socket, c->hw, c->hwinfo.clk.measured };
	const struct vxkern kern = { vx_sleep, NULL, NULL, 0 };
	if ((rc = vx_go(c, "clock", xs, vclock_set(&c->g, clk, n, &k, xs), &kern, &res)) == 0)
		vprogress(c, "  %-24s %.0f ms window\n", "clock", (res.t1[0] - res.t0[0]) * 1e-6);
	return rc;
}
