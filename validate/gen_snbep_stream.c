/*
 * gen_snbep_stream.c - STREAM's expectations on the SNB-EP uncore, as data
 * (vexp.h): iMC CAS reads and writes (socket total and per channel), HA
 * requests, the bandwidth metrics; with the memory on the other socket the
 * requester's DRAM (none), QPI data and DRS flits of both ends, and for the
 * remote Triad the QPI link utilisation in a window of its own.  A pure
 * function of the case (xstream.h) and the geometry (stream_expect).
 */
#include <math.h>
#include <string.h>

#include "vexp.h"
#include "vgen.h"
#include "xstream.h"

/* Events of one STREAM window at the home socket (and the requester when
 * remote). */
struct sev {
	int rd[4], wr[4];        /* home socket, per channel */
	int ha_rd, ha_wr;
	int lrd[4], lwr[4];      /* requester socket (remote runs) */
	int qtx_home[2], qtx_req[2];   /* QPI data flits sent by home / requester, per link */
	int qdrs_home[2], qdrs_req[2]; /* QPI data-response flits (header + data), per link */
};

static void stream_events(const struct vgeom *g, const struct stream_case *k, struct vxwin *w,
			  struct sev *ev)
{
	int ch = g->channels, home = k->home, req = k->req;
	int umask_break = k->brk == VB_UMASK && k->k == SK_COPY && !k->nt && home == req;
	int socket_break = k->brk == VB_SOCKET && home != req;
	int sock_home = socket_break ? req : home;

	memset(ev, -1, sizeof(*ev));
	for (int i = 0; i < ch; i++) {
		ev->rd[i] = vx_ev(w, umask_break || socket_break,
				  "snbep_unc_imc%d::UNC_M_CAS_COUNT:%s:socket=%d", i,
				  umask_break ? "WR" : "RD", sock_home);
		ev->wr[i] = vx_ev(w, socket_break, "snbep_unc_imc%d::UNC_M_CAS_COUNT:WR:socket=%d", i,
				  sock_home);
	}
	ev->ha_rd = vx_ev(w, 0, "snbep_unc_ha::UNC_H_REQUESTS:READS:socket=%d", home);
	ev->ha_wr = vx_ev(w, 0, "snbep_unc_ha::UNC_H_REQUESTS:WRITES:socket=%d", home);
	if (req == home)
		return;
	for (int i = 0; i < ch; i++) {
		ev->lrd[i] = vx_ev(w, 0, "snbep_unc_imc%d::UNC_M_CAS_COUNT:RD:socket=%d", i, req);
		ev->lwr[i] = vx_ev(w, 0, "snbep_unc_imc%d::UNC_M_CAS_COUNT:WR:socket=%d", i, req);
	}
	for (int l = 0; l < 2; l++) {
		ev->qtx_home[l] = vx_ev(w, 0, "snbep_unc_qpi%d::UNC_Q_TXL_FLITS_G0:DATA:socket=%d", l, home);
		ev->qtx_req[l] = vx_ev(w, 0, "snbep_unc_qpi%d::UNC_Q_TXL_FLITS_G0:DATA:socket=%d", l, req);
		ev->qdrs_home[l] = vx_ev(w, 0, "snbep_unc_qpi%d::UNC_Q_TXL_FLITS_G1:DRS:socket=%d", l, home);
		ev->qdrs_req[l] = vx_ev(w, 0, "snbep_unc_qpi%d::UNC_Q_TXL_FLITS_G1:DRS:socket=%d", l, req);
	}
}

/* A check on reads.  With the prefetchers on and too few L2 or LLC sets or
 * ways (stream_pf_extra) a line fetched ahead may lose its set and be read
 * again any number of times: no upper bound, but every line the kernel
 * reads (and each RFO) still comes from DRAM at least once, so the reads
 * are checked against that lower bound (the band's lower edge, no upper). */
static void rd_check(struct vxwin *w, const char *what, const char *unit, const int *idx, int n,
		     double expected, struct vband b, int unbounded)
{
	if (unbounded) {
		b.hi = INFINITY;
		b.why = "prefetchers on, few L2/LLC sets or ways: a line fetched ahead can lose its set and be "
			"read again; every line is read at least once";
	}
	vx_sum(w, idx, n, 1, expected, b, unit, "%s", what);
}

/* The guide's bandwidth metrics (pmon stat's -M mem_bw, QPI_TX_DATA_BW) over
 * the window: the kernel's own bytes (64 B a line) over the window's time on
 * the machine's clock, within the band of the counts they come from (the
 * time is the same on both sides: the formula's constants and the counts are
 * what is checked). */
static void bw_metric(struct vxwin *w, const char *kname, const char *metric, const char *where,
		      const int *idx, int n, double lines, struct vband b)
{
	struct vxterm t = vx_term(idx, n);
	struct vxck *m = vx_metric(w, metric, where, &t, 1, lines * 64, b);
	if (!m)
		return;
	m->over_s = 1;
	m->s_div = 1e9;
	snprintf(m->nosec, sizeof(m->nosec), "%s: bandwidth metrics: no machine time for the window",
		 kname);
}

static void stream_checks(const struct vgeom *g, const struct stream_case *k, struct vxwin *w,
			  const struct sev *ev, double rd, double wr, double pf_extra)
{
	int ch = g->channels, home = k->home, req = k->req, ub = pf_extra < 0;
	struct vband bt = stream_band_total(k->hw);
	struct vband bc = stream_band_channel(g, (uint64_t)rd, k->hw);
	struct vband bcw = stream_band_channel(g, (uint64_t)wr, k->hw);
	uint64_t lines = k->elems / 8;
	char what[96], where[32];
	/* Reads only: a line fetched ahead is clean, so no write follows. */
	const char *pfwhy = "prefetchers on: lines fetched ahead before another thread's batch may be "
			    "evicted and read again (a stream's lines ahead, per batch: stream_pf_extra)";
	struct vband btr = band_plus(bt, pf_extra, rd, pfwhy);
	bc = band_plus(bc, pf_extra, rd / ch, pfwhy);

	snprintf(what, sizeof(what), "CAS_COUNT.RD s%d all ch", home);
	rd_check(w, what, "lines", ev->rd, ch, rd, btr, ub);
	vx_sum(w, ev->wr, ch, 1, wr, bt, "lines", "CAS_COUNT.WR s%d all ch", home);
	for (int i = 0; i < ch; i++) {
		snprintf(what, sizeof(what), "CAS_COUNT.RD s%d ch%d", home, i);
		rd_check(w, what, "lines", &ev->rd[i], 1, rd / ch, bc, ub);
		vx_sum(w, &ev->wr[i], 1, 1, wr / ch, bcw, "lines", "CAS_COUNT.WR s%d ch%d", home, i);
	}
	snprintf(what, sizeof(what), "HA REQUESTS.READS s%d", home);
	rd_check(w, what, "lines", &ev->ha_rd, 1, rd, btr, ub);
	vx_sum(w, &ev->ha_wr, 1, 1, wr, bt, "lines", "HA REQUESTS.WRITES s%d", home);
	if (req != home) {
		int both[8];
		for (int i = 0; i < ch; i++) {
			both[i] = ev->lrd[i];
			both[ch + i] = ev->lwr[i];
		}
		vx_zero(w, both, 2 * ch, (double)lines, chase_zero_bound(k->hw),
			"memory homed on the other socket: no DRAM access here", "per line",
			"CAS_COUNT.RD+WR s%d (requester)", req);
		/* A line crosses QPI as a data packet of 8 data flits (plus
		 * one header flit, not a data flit): reads travel home ->
		 * requester, write-backs requester -> home. */
		snprintf(what, sizeof(what), "QPI TxL data flits s%d (home) both links", home);
		rd_check(w, what, "flits", ev->qtx_home, 2, 8 * rd, btr, ub);
		vx_sum(w, ev->qtx_req, 2, 1, 8 * wr, bt, "flits",
		       "QPI TxL data flits s%d (requester) both links", req);
		/* The whole data message: one header flit and 8 data flits, 9
		 * flits a line. */
		snprintf(what, sizeof(what), "QPI TxL DRS flits s%d (home), 9 a line", home);
		rd_check(w, what, "flits", ev->qdrs_home, 2, 9 * rd, btr, ub);
		vx_sum(w, ev->qdrs_req, 2, 1, 9 * wr, bt, "flits",
		       "QPI TxL DRS flits s%d (requester), 9 a line", req);
	}
	if (ub)
		btr.hi = INFINITY;
	snprintf(where, sizeof(where), "s%d all ch", home);
	bw_metric(w, k->kname, "MEM_BW_READS", where, ev->rd, ch, rd, btr);
	bw_metric(w, k->kname, "MEM_BW_WRITES", where, ev->wr, ch, wr, bt);
	if (req != home) {
		/* the lines read travel home -> requester: 8 data flits of 8 B */
		snprintf(where, sizeof(where), "s%d (home) both links", home);
		bw_metric(w, k->kname, "QPI_TX_DATA_BW", where, ev->qtx_home, 2, rd, btr);
	}
}

/* The guide's QPI_LINK_UTIL (Table 2-95, pmon stat -M qpi) of the remote
 * Triad, at the requester's receivers (the links the data cross), in one
 * more window of its own: the QPI box's 4 counters already hold the main
 * window's Tx flits.  A quarter of the arrays (whole pages), from clean
 * caches, write-backs flushed inside the window.  The requester receives,
 * for each line read (b, c, and a's RFO), a data message of 8 data flits
 * and 1 header flit, and for each line written back to the remote home a
 * completion of 1 flit (the emulated machine's documented protocol):
 * (DATA + NONDATA) = 9 rd + wr flits over 2 flit slots per QPI clock of
 * each of the two links, the links' modeled speed times the window's time
 * on the machine's clock. */
static void link_util(const struct vgeom *g, const struct stream_case *k, struct vxset *x)
{
	struct vxwin *w = vx_win(x);
	int dat[2], nd[2], clk[2], req = k->req;
	double rd, wr;
	char where[40];

	if (g->qclk_hz <= 0) {
		vx_skip(w, 1, "%s QPI_LINK_UTIL: the QPI clock's speed is not known", k->kname);
		return;
	}
	for (int l = 0; l < 2; l++) {
		dat[l] = vx_ev(w, 0, "snbep_unc_qpi%d::UNC_Q_RXL_FLITS_G0:DATA:socket=%d", l, req);
		nd[l] = vx_ev(w, 0, "snbep_unc_qpi%d::UNC_Q_RXL_FLITS_G0:NON_DATA:socket=%d", l, req);
		clk[l] = vx_ev(w, 0, "snbep_unc_qpi%d::UNC_Q_CLOCKTICKS:socket=%d", l, req);
	}
	w->tag = XS_QUARTER;
	w->units = k->elems / 4 / 512 * 512;             /* whole pages */
	w->clean = w->flush = w->timed = 1;
	uint64_t qlines = w->units / 8;
	struct stream_case q = *k;
	q.k = SK_TRIAD;
	q.nt = 0;
	stream_expect(SK_TRIAD, 0, qlines, &rd, &wr);
	double pfx = stream_case_pf(g, &q, qlines);
	double flits = 9 * rd + wr;
	/* the links count QPI clocks from their own start and stop, apart
	 * from the session's read of the machine's time: 1 ms either way */
	struct vband b = { 1, 1, "9 flits a line read (DRS), 1 a remote write-back (completion), "
			   "over 2 flits a QPI clock of both links; the links' clocks start and stop apart "
			   "from the window's time (1 ms)" };
	double tlo = 1e-3, thi = 1e-3;
	if (pfx < 0)
		b = (struct vband){ 1, INFINITY, "prefetchers on, few ways: a line fetched ahead can be "
				    "read again (9 flits each time), every line at least once" };
	else if (pfx > 0)
		b.hi = (flits + 9 * pfx) / flits;
	if (k->hw) {
		b = (struct vband){ 1, 1.5, "silicon: other non-data flits (acknowledgements, "
				    "credits, snoop traffic of other agents) add" };
		thi = 0;
	}
	/* a QCLK the run measured (exp_clock.c): its uncertainty too */
	b.lo -= g->clk_tol;
	b.hi += g->clk_tol;
	snprintf(where, sizeof(where), "s%d (requester) both links", req);
	struct vxterm t[3] = { vx_term(dat, 2), vx_term(nd, 2), vx_term(clk, 2) };
	struct vxck *m = vx_metric(w, "QPI_LINK_UTIL", where, t, 3, flits, b);
	if (!m)
		return;
	m->over_s = 1;
	m->s_k = 2 * 2 * g->qclk_hz;
	m->s_mul = 100;
	m->tol_lo_s = tlo;
	m->tol_hi_s = thi;
	snprintf(m->nosec, sizeof(m->nosec), "%s QPI_LINK_UTIL: no machine time for the window",
		 k->kname);
}

int snbep_stream(const struct vgeom *g, const struct stream_case *k, struct vxset *x)
{
	struct vxwin *w;
	struct sev ev;
	double rd, wr;
	uint64_t lines = k->elems / 8;

	vx_init(x);
	w = vx_win(x);
	w->tag = XS_MAIN;
	w->units = k->elems;
	w->clean = w->flush = w->timed = 1;
	stream_events(g, k, w, &ev);
	stream_expect(k->k, k->nt, lines, &rd, &wr);
	stream_checks(g, k, w, &ev, rd, wr, stream_case_pf(g, k, lines));
	if (k->link_util)
		link_util(g, k, x);
	return 0;
}
