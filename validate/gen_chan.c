/*
 * gen_chan.c - the channel probe, as data (vexp.h): one load of each line
 * that the documented address map puts on the target channel, in address
 * order, from cold caches.  Expected: that many DRAM reads on that channel
 * (SNB-EP: the iMC channel's CAS reads; Nehalem-EP / Westmere-EP: the
 * memory controller's normal reads of the channel); on the others, the
 * lines the prefetchers fetch of the probed pages, where the map puts
 * them, or none.
 */
#include "vgen.h"

/* Lines of the other channels the prefetchers fetch: the adjacent-line
 * prefetcher alone (exact), the pair of each probed line not probed
 * itself; any other on, at most every line of the probed pages (each
 * prefetcher stays within the 4 KiB page of the line that triggers it,
 * and the buffer is whole pages the LLC holds).  0, or -1 (x->err). */
static int fetched(const struct vgeom *g, const struct chan_case *k, int exact, double *want,
		   struct vxset *x)
{
	uint64_t last_page = UINT64_MAX;
	for (size_t i = 0; i < k->n && g->prefetch; i++) {
		uint64_t pa = k->pa[i], page = pa / 4096 * 4096;
		if (!exact && pa / 4096 == last_page)
			continue;
		for (uint64_t q = exact ? (pa ^ 64) : page; exact ? q == (pa ^ 64) : q < page + 4096;
		     q += exact ? 1 : 64) {
			struct vdram_loc loc;
			if (vgeom_dram_locate(g, q, &loc) != 0) {
				snprintf(x->err, sizeof(x->err), "chan: address map at 0x%llx: %s",
					 (unsigned long long)q, pmon_strerror(PMON_EINVAL));
				return -1;
			}
			if (loc.channel != k->target)
				want[loc.channel]++;
		}
		last_page = pa / 4096;
	}
	return 0;
}

/* The window: a read event per channel (fmt: the channel, then the
 * socket), its name name. */
static int chan_set(const struct vgeom *g, const struct chan_case *k, const char *fmt,
		    const char *name, struct vxset *x)
{
	int ch = g->channels, s = k->socket, target = k->target;
	int shown = k->brk == VB_CHANNEL ? (target + 1) % ch : target;
	/* The adjacent-line prefetcher alone: exact; any other on: at most. */
	int exact = g->pf_dis == 0xdu;
	double want[4] = { 0, 0, 0, 0 };

	vx_init(x);
	if (fetched(g, k, exact, want, x))
		return -1;
	struct vxwin *w = vx_win(x);
	w->clean = 1;
	for (int i = 0; i < ch; i++) {
		int ev = vx_ev(w, i == target && shown != target, fmt, i == target ? shown : i, s);
		if (i == target)
			vx_sum(w, &ev, 1, 1, (double)k->n, (struct vband){ 1, 1, "one load of each line "
			       "mapped to this channel, cold caches" }, "lines", "%s s%d ch%d", name, s, i);
		else if (want[i] > 0 && exact)
			vx_sum(w, &ev, 1, 1, want[i], (struct vband){ 1, 1, "adjacent-line prefetcher: "
			       "the pair of each probed line not probed itself, where the address map "
			       "puts it" }, "lines", "%s s%d ch%d", name, s, i);
		else if (want[i] > 0)
			vx_sum(w, &ev, 1, 1, want[i], (struct vband){ 0, 1, "prefetchers on: at most each "
			       "line of the probed pages on this channel, once (they stay in the page)" },
			       "lines", "%s s%d ch%d", name, s, i);
		else
			vx_zero(w, &ev, 1, 1, 0, "no line of the probe maps to this channel", "lines",
				"%s s%d ch%d", name, s, i);
	}
	return 0;
}

int snbep_chan(const struct vgeom *g, const struct chan_case *k, struct vxset *x)
{
	return chan_set(g, k, "snbep_unc_imc%d::UNC_M_CAS_COUNT:RD:socket=%d", "CAS_COUNT.RD", x);
}

int nhm_chan(const struct vgeom *g, const struct chan_case *k, struct vxset *x)
{
	char fmt[80];
	snprintf(fmt, sizeof(fmt), "%s::UNC_IMC_NORMAL_READS:CH%%d:socket=%%d", nhm_unc_pmu(g));
	return chan_set(g, k, fmt, "IMC_NORMAL_READS", x);
}
