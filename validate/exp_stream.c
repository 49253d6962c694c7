/*
 * exp_stream.c - STREAM Copy, Scale, Add and Triad with ordinary and with
 * non-temporal stores; iMC CAS reads/writes (socket total and per channel)
 * and HA requests against stream_expect(); results checked as STREAM does.
 * Also used by the NUMA experiment with the memory on another socket.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vmetric.h"
#include "vrun.h"

#define Q 3.0

struct sarg {
	struct karr *a, *b, *c;
	size_t n;
	enum stream_kernel k;
	int nt;
	int init;
};

static void stream_work(struct vctx *c, int t, int n, struct kfeed *f, void *arg)
{
	struct sarg *s = arg;
	size_t lo, hi;

	vchunk(s->n, t, n, &lo, &hi);
	if (s->init) {
		/* Values only: the arrays are placed on their socket explicitly,
		 * and the window starts from clean caches, so the emulated
		 * machine need not see the initialisation. */
		(void)c;
		stream_init_native(f, s->a, 1.0, lo, hi);
		stream_init_native(f, s->b, 2.0, lo, hi);
		stream_init_native(f, s->c, 0.0, lo, hi);
		return;
	}
	switch (s->k) {
	case SK_COPY: KCALL(c, stream_copy, f, s->c, s->a, lo, hi, s->nt); break;
	case SK_SCALE: KCALL(c, stream_scale, f, s->b, s->c, Q, lo, hi, s->nt); break;
	case SK_ADD: KCALL(c, stream_add, f, s->c, s->a, s->b, lo, hi, s->nt); break;
	case SK_TRIAD: KCALL(c, stream_triad, f, s->a, s->b, s->c, Q, lo, hi, s->nt); break;
	default: break;
	}
}

/* STREAM's check: replay the recurrence on scalars and compare the mean
 * relative error of each array with 1e-13. */
static int stream_results(const struct sarg *s, double aj, double bj, double cj, char *why,
			  size_t len)
{
	const double *a = s->a->host, *b = s->b->host, *c = s->c->host;
	double ea = 0, eb = 0, ec = 0;
	for (size_t j = 0; j < s->n; j++) {
		ea += fabs(a[j] - aj);
		eb += fabs(b[j] - bj);
		ec += fabs(c[j] - cj);
	}
	ea /= (double)s->n * fabs(aj);
	eb /= (double)s->n * fabs(bj);
	ec /= (double)s->n * fabs(cj);
	if (ea > 1e-13 || eb > 1e-13 || ec > 1e-13) {
		snprintf(why, len, "results do not validate: mean relative error a %.3g b %.3g c %.3g",
			 ea, eb, ec);
		return -1;
	}
	return 0;
}

/* Events of one STREAM window at the home socket (and the requester when
 * remote).  Returns 0, or <0 on error. */
struct sev {
	int rd[4], wr[4];        /* home socket, per channel */
	int ha_rd, ha_wr;
	int lrd[4], lwr[4];      /* requester socket (remote runs) */
	int qtx_home[2], qtx_req[2];   /* QPI data flits sent by home / requester, per link */
	int qdrs_home[2], qdrs_req[2]; /* QPI data-response flits (header + data), per link */
};

static int stream_events(struct vctx *c, struct vevents *e, const char *kname, int home,
			 int req, int umask_break, int socket_break, struct sev *ev)
{
	int ch = c->g.channels, sock_home = socket_break ? req : home;

	memset(ev, -1, sizeof(*ev));
	for (int i = 0; i < ch; i++) {
		ev->rd[i] = vadd(c, e, kname, "snbep_unc_imc%d::UNC_M_CAS_COUNT:%s:socket=%d", i,
				 umask_break ? "WR" : "RD", sock_home);
		if (ev->rd[i] >= 0 && (umask_break || socket_break))
			vev_mark_broken(e, ev->rd[i]);
		ev->wr[i] = vadd(c, e, kname, "snbep_unc_imc%d::UNC_M_CAS_COUNT:WR:socket=%d", i,
				 sock_home);
		if (ev->wr[i] >= 0 && socket_break)
			vev_mark_broken(e, ev->wr[i]);
		if (ev->rd[i] == -2 || ev->wr[i] == -2)
			return -1;
	}
	ev->ha_rd = vadd(c, e, kname, "snbep_unc_ha::UNC_H_REQUESTS:READS:socket=%d", home);
	ev->ha_wr = vadd(c, e, kname, "snbep_unc_ha::UNC_H_REQUESTS:WRITES:socket=%d", home);
	if (ev->ha_rd == -2 || ev->ha_wr == -2)
		return -1;
	if (req != home) {
		for (int i = 0; i < ch; i++) {
			ev->lrd[i] = vadd(c, e, kname, "snbep_unc_imc%d::UNC_M_CAS_COUNT:RD:socket=%d",
					  i, req);
			ev->lwr[i] = vadd(c, e, kname, "snbep_unc_imc%d::UNC_M_CAS_COUNT:WR:socket=%d",
					  i, req);
			if (ev->lrd[i] == -2 || ev->lwr[i] == -2)
				return -1;
		}
		for (int l = 0; l < 2; l++) {
			ev->qtx_home[l] = vadd(c, e, kname,
					       "snbep_unc_qpi%d::UNC_Q_TXL_FLITS_G0:DATA:socket=%d", l, home);
			ev->qtx_req[l] = vadd(c, e, kname,
					      "snbep_unc_qpi%d::UNC_Q_TXL_FLITS_G0:DATA:socket=%d", l, req);
			ev->qdrs_home[l] = vadd(c, e, kname,
						"snbep_unc_qpi%d::UNC_Q_TXL_FLITS_G1:DRS:socket=%d", l, home);
			ev->qdrs_req[l] = vadd(c, e, kname,
					       "snbep_unc_qpi%d::UNC_Q_TXL_FLITS_G1:DRS:socket=%d", l, req);
			if (ev->qtx_home[l] == -2 || ev->qtx_req[l] == -2 || ev->qdrs_home[l] == -2 ||
			    ev->qdrs_req[l] == -2)
				return -1;
		}
	}
	return 0;
}

/* A check on reads.  With the prefetchers on and too few L2 or LLC sets or
 * ways (stream_pf_extra) a line fetched
 * ahead may lose its set and be read again any number of times: no upper
 * bound, but every line the kernel reads (and each RFO) still comes from
 * DRAM at least once, so the reads are checked against that lower bound
 * (the band's lower edge, no upper). */
static void rd_check(struct vctx *c, struct vevents *e, const char *kname, const char *what,
		     const char *unit, const int *idx, int n, double expected, struct vband b,
		     int unbounded)
{
	if (unbounded) {
		b.hi = INFINITY;
		b.why = "prefetchers on, few L2/LLC sets or ways: a line fetched ahead can lose its set and be "
			"read again; every line is read at least once";
	}
	vcheck_sum(c, e, kname, what, unit, idx, n, 1, expected, b);
}

/* The guide's bandwidth metrics (pmon stat's -M mem_bw, QPI_TX_DATA_BW) over
 * the window: the kernel's own bytes (64 B a line) over the window's time on
 * the machine's clock, within the band of the counts they come from (the
 * time is the same on both sides: the formula's constants and the counts are
 * what is checked). */
static void stream_metrics(struct vctx *c, struct vevents *e, const char *kname, int home, int req,
			   const struct sev *ev, double rd, double wr, double seconds, struct vband btr,
			   struct vband bt, int unbounded)
{
	char where[32];
	int ch = c->g.channels;
	if (c->planning)
		seconds = 1;              /* the plan counts nothing: a second stands in */
	if (seconds <= 0) {
		vskip(c, "%s: bandwidth metrics: no machine time for the window", kname);
		return;
	}
	if (unbounded)
		btr.hi = INFINITY;
	snprintf(where, sizeof(where), "s%d all ch", home);
	vcheck_metric(c, e, kname, "MEM_BW_READS", where, &(struct vmterm){ .idx = ev->rd, .n = ch }, 1, seconds,
		      rd * 64 / seconds / 1e9, btr);
	vcheck_metric(c, e, kname, "MEM_BW_WRITES", where, &(struct vmterm){ .idx = ev->wr, .n = ch }, 1, seconds,
		      wr * 64 / seconds / 1e9, bt);
	if (req != home) {
		/* the lines read travel home -> requester: 8 data flits of 8 B */
		snprintf(where, sizeof(where), "s%d (home) both links", home);
		vcheck_metric(c, e, kname, "QPI_TX_DATA_BW", where, &(struct vmterm){ .idx = ev->qtx_home, .n = 2 }, 1,
			      seconds, rd * 64 / seconds / 1e9, btr);
	}
}

static void stream_checks(struct vctx *c, struct vevents *e, const char *kname, int home,
			  int req, const struct sev *ev, double rd, double wr, uint64_t lines,
			  double pf_extra, double seconds)
{
	int ch = c->g.channels;
	struct vband bt = stream_band_total(c->hw);
	struct vband bc = stream_band_channel(&c->g, (uint64_t)rd, c->hw);
	struct vband bcw = stream_band_channel(&c->g, (uint64_t)wr, c->hw);
	char what[96];
	/* Reads only: a line fetched ahead is clean, so no write follows. */
	const char *pfwhy = "prefetchers on: lines fetched ahead before another thread's batch may be "
			    "evicted and read again (a stream's lines ahead, per batch: stream_pf_extra)";
	struct vband btr = band_plus(bt, pf_extra, rd, pfwhy);
	bc = band_plus(bc, pf_extra, rd / ch, pfwhy);

	snprintf(what, sizeof(what), "CAS_COUNT.RD s%d all ch", home);
	rd_check(c, e, kname, what, "lines", ev->rd, ch, rd, btr, pf_extra < 0);
	snprintf(what, sizeof(what), "CAS_COUNT.WR s%d all ch", home);
	vcheck_sum(c, e, kname, what, "lines", ev->wr, ch, 1, wr, bt);
	for (int i = 0; i < ch; i++) {
		snprintf(what, sizeof(what), "CAS_COUNT.RD s%d ch%d", home, i);
		rd_check(c, e, kname, what, "lines", &ev->rd[i], 1, rd / ch, bc, pf_extra < 0);
		snprintf(what, sizeof(what), "CAS_COUNT.WR s%d ch%d", home, i);
		vcheck_sum(c, e, kname, what, "lines", &ev->wr[i], 1, 1, wr / ch, bcw);
	}
	snprintf(what, sizeof(what), "HA REQUESTS.READS s%d", home);
	rd_check(c, e, kname, what, "lines", &ev->ha_rd, 1, rd, btr, pf_extra < 0);
	snprintf(what, sizeof(what), "HA REQUESTS.WRITES s%d", home);
	vcheck_sum(c, e, kname, what, "lines", &ev->ha_wr, 1, 1, wr, bt);
	if (req != home) {
		snprintf(what, sizeof(what), "CAS_COUNT.RD+WR s%d (requester)", req);
		int both[8];
		for (int i = 0; i < ch; i++) {
			both[i] = ev->lrd[i];
			both[ch + i] = ev->lwr[i];
		}
		vcheck_zero(c, e, kname, what, "per line", both, 2 * ch, (double)lines,
			    chase_zero_bound(c->hw), "memory homed on the other socket: no DRAM access here");
		/* A line crosses QPI as a data packet of 8 data flits (plus
		 * one header flit, not a data flit): reads travel home ->
		 * requester, write-backs requester -> home. */
		snprintf(what, sizeof(what), "QPI TxL data flits s%d (home) both links", home);
		rd_check(c, e, kname, what, "flits", ev->qtx_home, 2, 8 * rd, btr, pf_extra < 0);
		snprintf(what, sizeof(what), "QPI TxL data flits s%d (requester) both links", req);
		vcheck_sum(c, e, kname, what, "flits", ev->qtx_req, 2, 1, 8 * wr, bt);
		/* The whole data message: one header flit and 8 data flits, 9
		 * flits a line. */
		snprintf(what, sizeof(what), "QPI TxL DRS flits s%d (home), 9 a line", home);
		rd_check(c, e, kname, what, "flits", ev->qdrs_home, 2, 9 * rd, btr, pf_extra < 0);
		snprintf(what, sizeof(what), "QPI TxL DRS flits s%d (requester), 9 a line", req);
		vcheck_sum(c, e, kname, what, "flits", ev->qdrs_req, 2, 1, 9 * wr, bt);
	}
	stream_metrics(c, e, kname, home, req, ev, rd, wr, seconds, btr, bt, pf_extra < 0);
	(void)lines;
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
static int stream_qpi_util(struct vctx *c, const struct sarg *s, const char *kname, int req,
			   struct karr *const *arrs, uint64_t lines)
{
	struct vevents e;
	int dat[2], nd[2], clk[2], rc;
	double t0, t1, rd, wr;
	char where[40];

	if (c->g.qclk_hz <= 0) {
		vskip(c, "%s QPI_LINK_UTIL: the QPI clock's speed is not known", kname);
		return 0;
	}
	vev_init(&e, c->m);
	for (int l = 0; l < 2; l++) {
		dat[l] = vadd(c, &e, kname, "snbep_unc_qpi%d::UNC_Q_RXL_FLITS_G0:DATA:socket=%d", l, req);
		nd[l] = vadd(c, &e, kname, "snbep_unc_qpi%d::UNC_Q_RXL_FLITS_G0:NON_DATA:socket=%d", l, req);
		clk[l] = vadd(c, &e, kname, "snbep_unc_qpi%d::UNC_Q_CLOCKTICKS:socket=%d", l, req);
		if (dat[l] == -2 || nd[l] == -2 || clk[l] == -2) {
			vev_free(&e);
			return -1;
		}
	}
	struct sarg q = *s;
	q.n = s->n / 4 / 512 * 512;               /* whole pages */
	uint64_t qlines = q.n / 8;
	if ((rc = vwin_clean(c, arrs, 3)) || (rc = vwin_start(c, &e, &t0))) {
		vev_free(&e);
		return rc;
	}
	uint64_t m0 = e.s ? pmon_session_read_ns(e.s) : 0;
	if ((rc = vpar(c, c->nthreads, c->cpus, stream_work, &q)) ||
	    (rc = vwin_stop(c, &e, 1, arrs, 3, &t1))) {
		vev_free(&e);
		return rc;
	}
	double sec = c->planning ? 1 : vmetric_seconds(&e, m0);
	stream_expect(SK_TRIAD, 0, qlines, &rd, &wr);
	double pfx = c->g.prefetch ? stream_pf_extra(&c->g, SK_TRIAD, 0, qlines, c->nthreads, KF_BUF) : 0;
	if (sec <= 0) {
		vskip(c, "%s QPI_LINK_UTIL: no machine time for the window", kname);
		vev_free(&e);
		return 0;
	}
	double flits = 9 * rd + wr, slots = 2 * 2 * c->g.qclk_hz * sec;
	/* the links count QPI clocks from their own start and stop, apart
	 * from the session's read of the machine's time: 1 ms either way */
	double tol = 1e-3 / sec;
	struct vband b = { 1 - tol, 1 + tol, "9 flits a line read (DRS), 1 a remote write-back (completion), "
			   "over 2 flits a QPI clock of both links; the links' clocks start and stop apart "
			   "from the window's time (1 ms)" };
	if (pfx < 0)
		b = (struct vband){ 1 - tol, INFINITY, "prefetchers on, few ways: a line fetched ahead can be "
				    "read again (9 flits each time), every line at least once" };
	else if (pfx > 0)
		b.hi = (flits + 9 * pfx) / flits + tol;
	if (c->hw)
		b = (struct vband){ 1 - tol, 1.5, "silicon: other non-data flits (acknowledgements, "
				    "credits, snoop traffic of other agents) add" };
	snprintf(where, sizeof(where), "s%d (requester) both links", req);
	vcheck_metric(c, &e, kname, "QPI_LINK_UTIL", where,
		      (struct vmterm[]){ { .idx = dat, .n = 2 }, { .idx = nd, .n = 2 }, { .idx = clk, .n = 2 } }, 3,
		      sec, flits / slots * 100, b);
	vev_free(&e);
	(void)lines;
	return 0;
}

/* Run the four kernels with ordinary then non-temporal stores, memory on
 * socket home, threads on the local socket; only kernels in mask. */
static int stream_run(struct vctx *c, const char *prefix, int home, unsigned mask, int nt_too)
{
	int req = c->o.socket;
	uint64_t elems = (uint64_t)(c->o.stream_mult * (double)c->g.llc_bytes) / 8;
	elems = (elems + 4095) & ~(uint64_t)4095;        /* whole pages */
	uint64_t lines = elems / 8;
	struct karr a, b, cc;
	struct sarg s = { &a, &b, &cc, elems, SK_COPY, 0, 1 };
	struct karr *arrs[3] = { &a, &b, &cc };
	int rc;

	memset(&b, 0, sizeof(b));
	memset(&cc, 0, sizeof(cc));
	if ((rc = varr_alloc(c, &a, elems * 8, VP_SOCKET, home)) ||
	    (rc = varr_alloc(c, &b, elems * 8, VP_SOCKET, home)) ||
	    (rc = varr_alloc(c, &cc, elems * 8, VP_SOCKET, home))) {
		for (int i = 0; i < 3; i++)
			varr_free(c, arrs[i]);
		return rc;
	}
	vprogress(c, "  %s: 3 arrays of %.1f MiB (%.2f x LLC), socket %d, %d threads\n", prefix,
		  elems * 8 / 1048576.0, c->o.stream_mult, home, c->nthreads);
	rc = vpar(c, c->nthreads, c->cpus, stream_work, &s);
	s.init = 0;
	double aj = 1, bj = 2, cj = 0;
	for (int nt = 0; nt <= nt_too && rc == 0; nt++) {
		for (int k = 0; k < SK_N && rc == 0; k++) {
			char kname[40];
			struct vevents e;
			struct sev ev;
			double t0, t1, rd, wr;

			if (!((mask >> k) & 1))
				continue;
			if (k == SK_COPY) cj = aj;
			else if (k == SK_SCALE) bj = Q * cj;
			else if (k == SK_ADD) cj = aj + bj;
			else aj = bj + Q * cj;
			snprintf(kname, sizeof(kname), "%s-%s%s", prefix, stream_kernel_name[k],
				 nt ? "-nt" : "");
			s.k = (enum stream_kernel)k;
			s.nt = nt;
			vev_init(&e, c->m);
			{
				int ub = c->o.brk == VB_UMASK && k == SK_COPY && !nt && home == req;
				int sb = c->o.brk == VB_SOCKET && home != req;
				if (stream_events(c, &e, kname, home, req, ub, sb, &ev) < 0) {
					vev_free(&e);
					rc = -1;
					break;
				}
			}
			double w0 = vnow_ns();
			if ((rc = vwin_clean(c, arrs, 3)) || (rc = vwin_start(c, &e, &t0)))
				break;
			uint64_t m0 = e.s ? pmon_session_read_ns(e.s) : 0;
			rc = vpar(c, c->nthreads, c->cpus, stream_work, &s);
			if (rc == 0)
				rc = vwin_stop(c, &e, 1, arrs, 3, &t1);
			if (rc == 0) {
				stream_expect((enum stream_kernel)k, nt, lines, &rd, &wr);
				double pfx = c->g.prefetch ? stream_pf_extra(&c->g, (enum stream_kernel)k,
									   nt, lines, c->nthreads, KF_BUF)
							   : 0;
				stream_checks(c, &e, kname, home, req, &ev, rd, wr, lines, pfx,
					      vmetric_seconds(&e, m0));
			}
			vev_free(&e);
			if (rc == 0 && req != home && k == SK_TRIAD && !nt)
				rc = stream_qpi_util(c, &s, kname, req, arrs, lines);
			vprogress(c, "  %-22s %6.2f s  (%.0f MB/s%s)\n", kname, (vnow_ns() - w0) * 1e-9,
				  (stream_reads((enum stream_kernel)k) + 1) * elems * 8 / ((t1 - t0) * 1e-3),
				  c->sim ? " of this host, feeding the model" : "");
		}
		if (rc == 0 && !c->planning) {
			char why[160];
			if (stream_results(&s, aj, bj, cj, why, sizeof(why)) != 0) {
				snprintf(c->err, sizeof(c->err), "%s%s: %s", prefix, nt ? " (nt)" : "", why);
				rc = -1;
			}
		}
	}
	for (int i = 0; i < 3; i++)
		varr_free(c, arrs[i]);
	return rc;
}

int exp_stream(struct vctx *c)
{
	return stream_run(c, c->o.place_remote ? "stream-remote" : "stream", vhome(c), 0xf, 1);
}

/* NUMA: Triad with its memory on the remote socket (QPI, HA at home), and
 * Copy on the local socket for contrast. */
int exp_numa(struct vctx *c)
{
	if (c->g.sockets < 2) {
		/* Triad's checks: reads and writes (total and per channel), HA
		 * reads and writes, the requester's DRAM, QPI data and DRS flits
		 * of both ends, QPI_LINK_UTIL. */
		vskip_n(c, 10 + 2 * c->g.channels, "numa: one socket only, no remote memory");
		return 0;
	}
	if (!vremote_ok(c, "numa-remote-triad"))
		return 0;
	return stream_run(c, "numa-remote", vremote(c), 1u << SK_TRIAD, 0);
}
