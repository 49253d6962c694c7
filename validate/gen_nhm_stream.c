/*
 * gen_nhm_stream.c - STREAM's expectations on the Nehalem-EP / Westmere-EP
 * uncore (one PMU per socket, 8 counters; Nehalem guide, seed 000
 * L1340-L1385 and "Measuring Bandwidth From the Uncore", L1586-L1620), as
 * data (vexp.h), from first principles:
 *
 *   UNC_IMC_NORMAL_READS.ANY    every line the kernel reads from DRAM (the
 *                               arrays read, and with ordinary stores the
 *                               written array's read for ownership)
 *   UNC_IMC_WRITES.FULL.ANY     every line written back, modified cached
 *                               lines and uncached (streaming) lines alike
 *   UNC_QHL_REQUESTS.*_READS    at the home: "reads plus I to E for the
 *                               uncacheable writes": the DRAM reads, and with
 *                               streaming stores one InvItoE a line written;
 *                               LOCAL from this socket's cores, REMOTE from
 *                               the other's
 *   UNC_QHL_REQUESTS.LOCAL_WRITES  write-backs of modified cached lines of
 *                               local cores only (not the uncached lines)
 *   UNC_QHL_REQUESTS.REMOTE_WRITES both, from the other socket
 *   the guide's identity: uncacheable writes = LOCAL_READS + REMOTE_READS
 *                               - IMC_NORMAL_READS.ANY: 0 with ordinary
 *                               stores, the lines written with streaming
 *                               stores
 *   per channel (CH0-2)         lines interleave over the 3 channels:
 *                               near-uniform (stream_band_channel), counted
 *                               in a second window over a quarter of the
 *                               arrays (the 8 counters hold the first's)
 *   the offcore erratum         (seed 000 L768-L795) streaming stores to
 *                               locally homed lines answer as
 *                               OTHER.OTHER_CORE_HIT_SNP (0x280), not
 *                               OTHER.LOCAL_DRAM (0x4080): each counted on
 *                               the kernel threads' CPUs, one per window
 *                               (Nehalem has one response MSR a core).
 *   the metrics (pmon stat -M mem_bw, mem_bw_channel, qhl; src/nhm/
 *                               metrics.c) from the same counts over the
 *                               window's machine time: the kernel's own
 *                               bytes over that time, 64 B a line (the
 *                               guide's L1387, L1390), the home's requests
 *                               all local or all remote, its reads' share,
 *                               the uncacheable writes in bytes.
 */
#include <math.h>
#include <string.h>

#include "vexp.h"
#include "vgen.h"
#include "xstream.h"

const char *nhm_unc_pmu(const struct vgeom *g)
{
	return g->gen == VG_WSMEP ? "wsm_unc" : "nhm_unc";
}

const char *nhm_core_pmu(const struct vgeom *g)
{
	return g->gen == VG_WSMEP ? "wsm_dp" : "nhm";
}

/* The offcore response of a locally homed line read from DRAM: Nehalem's
 * LOCAL_DRAM (0x4000); Westmere-EP's bit 0x1000 (wsm_dp). */
static const char *local_dram_rsp(const struct vgeom *g)
{
	return g->gen == VG_WSMEP ? "LOCAL_DRAM_AND_REMOTE_CACHE_HIT" : "LOCAL_DRAM";
}

/* The erratum's two responses of the streaming stores, on the kernel
 * threads' CPUs: which one counts them. */
static void nt_rsp(const struct vgeom *g, const struct stream_case *k, struct vxwin *w,
		   int erratum_rsp, uint64_t lines)
{
	int ev[VX_IDX], n = k->threads < VX_IDX ? k->threads : VX_IDX;
	const char *rsp = erratum_rsp ? "OTHER_CORE_HIT_SNP" : local_dram_rsp(g);
	int counts = erratum_rsp == (g->nt_erratum != 0);
	for (int t = 0; t < n; t++)
		ev[t] = vx_ev(w, 0, "%s::OFFCORE_RESPONSE_0:OTHER:%s:cpu=%d", nhm_core_pmu(g), rsp,
			      k->cpus[t]);
	int code = erratum_rsp ? 0x280 : g->gen == VG_WSMEP ? 0x1080 : 0x4080;
	if (counts) {
		struct vxck *c = vx_sum(w, ev, n, 1, (double)lines, stream_band_total(k->hw), "lines",
					"OFFCORE OTHER.%s (0x%x) streaming stores, kernel CPUs", rsp, code);
		if (c)
			snprintf(c->why, sizeof(c->why), "%s", g->nt_erratum ?
				 "KNOWN erratum (Nehalem guide, seed 000 L768-L795): streaming stores to "
				 "locally homed lines count here (OTHER.LLC_OTHER_CORE_HIT), one a line" :
				 "erratum off (shape nt_erratum=off): streaming stores to local lines "
				 "answer as local DRAM, as documented, one a line");
	} else {
		vx_zero(w, ev, n, (double)lines, chase_zero_bound(k->hw), g->nt_erratum ?
			"KNOWN erratum (Nehalem guide, seed 000 L768-L795): streaming stores to locally "
			"homed lines do not count under the local-DRAM response" :
			"erratum off (shape nt_erratum=off): no streaming store answers here",
			"per line", "OFFCORE OTHER.%s (0x%x) streaming stores, kernel CPUs", rsp, code);
	}
}

/* A metric of the window's counts (pmon stat's): terms t[0..nt), expected
 * lines * 64 bytes, over the window's machine time when over_s (GB/s: the
 * time is the same on both sides, the formula's constants and the counts
 * are what is checked).  lines 0: at most zero_lines' bytes. */
static void nmetric(struct vxwin *w, const char *kname, const char *metric, const char *where,
		    const struct vxterm *t, int nt, double lines, struct vband b, int over_s,
		    double zero_lines)
{
	if (lines == 0)
		b = (struct vband){ 0, over_s ? 0 : zero_lines * 64, b.why };
	struct vxck *m = vx_metric(w, metric, where, t, nt, lines * 64, b);
	if (!m)
		return;
	if (over_s) {
		m->over_s = 1;
		m->s_div = 1e9;
		if (lines == 0)
			m->tol_hi_s = zero_lines * 64 / 1e9;  /* the bound in GB/s over the window */
	}
	snprintf(m->nosec, sizeof(m->nosec), "%s: bandwidth metrics: no machine time for the window",
		 kname);
}

/* A percentage metric of the home's four request counts (LOCAL_READS,
 * LOCAL_WRITES, REMOTE_READS, REMOTE_WRITES): num of all, expected pct
 * within b (pct 0: at most the share zero_lines make). */
static void npct(struct vxwin *w, const char *metric, const char *where, const struct vxterm *t,
		 double pct, struct vband b, double zero_pct)
{
	if (pct == 0)
		b = (struct vband){ 0, zero_pct, b.why };
	vx_metric(w, metric, where, t, 4, pct, b);
}

/* Two counts' band added up: expected a + b lines with bands ba, bb. */
static struct vband band_sum(double a, struct vband ba, double b, struct vband bb, const char *why)
{
	double n = a + b;
	if (n <= 0)
		return (struct vband){ 1, 1, why };
	return (struct vband){ (a * ba.lo + b * bb.lo) / n, (a * ba.hi + b * bb.hi) / n, why };
}

/* The window's metrics (pmon stat -M mem_bw, qhl) of socket h, the home:
 * its DRAM reads and writes, its home logic's requests, local when the
 * kernel's threads are on h, remote from the other socket's otherwise; with
 * streaming stores the home's reads include an InvItoE a line written and
 * its local writes none (the guide's Table 39). */
static void stream_metrics(struct vxwin *w, const struct stream_case *k, int h, int remote, int imr,
			   int imw, int qlr, int qlw, int qrr, int qrw, double rd, double wr, double qrd,
			   struct vband btr, struct vband bq, struct vband bt, double zl)
{
	const char *kn = k->kname;
	char where[32];
	snprintf(where, sizeof(where), "s%d", h);
	struct vxterm R = vx_term(&imr, 1), W = vx_term(&imw, 1);
	struct vxterm LR = vx_term(&qlr, 1), LW = vx_term(&qlw, 1), RR = vx_term(&qrr, 1),
		      RW = vx_term(&qrw, 1);
	const char *zwhy = remote ? "memory homed here, threads on the other socket: no local request" :
				    "threads and memory on one socket: no remote request";
	/* IMC: L1387, L1390 */
	nmetric(w, kn, "MEM_BW_READS", where, &R, 1, rd, btr, 1, zl);
	nmetric(w, kn, "MEM_BW_WRITES", where, &W, 1, wr, bt, 1, zl);
	struct vxterm RW2[2] = { R, W };
	nmetric(w, kn, "MEM_BW_TOTAL", where, RW2, 2, rd + wr,
		band_sum(rd, btr, wr, bt, "the reads' and writes' bands by their shares"), 1, zl);
	/* the home's requests: reads (with InvItoE), write-backs */
	double lw = remote || k->nt ? 0 : wr;   /* uncached lines are no local write-back */
	double rw = remote ? wr : 0;
	nmetric(w, kn, "QHL_BW_LOCAL_READS", where, &LR, 1, remote ? 0 : qrd, bq, 1, zl);
	nmetric(w, kn, "QHL_BW_LOCAL_WRITES", where, &LW, 1, lw, (struct vband){ bt.lo, bt.hi,
		k->nt ? "streaming stores write uncached lines, which LOCAL_WRITES does not count" : zwhy },
		1, zl);
	nmetric(w, kn, "QHL_BW_REMOTE_READS", where, &RR, 1, remote ? qrd : 0, bq, 1, zl);
	nmetric(w, kn, "QHL_BW_REMOTE_WRITES", where, &RW, 1, rw, (struct vband){ bt.lo, bt.hi, zwhy }, 1,
		zl);
	struct vxterm L2[2] = { LR, LW }, R2[2] = { RR, RW };
	double lsum = remote ? 0 : qrd + lw, rsum = remote ? qrd + rw : 0;
	nmetric(w, kn, "QHL_BW_LOCAL", where, L2, 2, lsum,
		band_sum(qrd, bq, lw, bt, remote ? zwhy : "the reads' and writes' bands by their shares"), 1,
		2 * zl);
	nmetric(w, kn, "QHL_BW_REMOTE", where, R2, 2, rsum,
		band_sum(qrd, bq, rw, bt, remote ? "the reads' and writes' bands by their shares" : zwhy), 1,
		2 * zl);
	/* the mix: every request local, or every one remote; the reads' share */
	struct vxterm Q4[4] = { LR, LW, RR, RW };
	double all = qrd + lw + rw, zpct = all > 0 ? 100 * 2 * zl / all : 0;
	struct vband one = { 1 - zpct / 100, 1, "every request at the home from one side" };
	npct(w, "QHL_PCT_LOCAL_REQUESTS", where, Q4, remote ? 0 : 100, one, zpct);
	npct(w, "QHL_PCT_REMOTE_REQUESTS", where, Q4, remote ? 100 : 0, one, zpct);
	double wq = lw + rw, f = qrd / (qrd + wq);
	struct vband brd = { 1, 1, "reads over reads and write-backs, from the two counts' bands" };
	if (wq > 0) {
		double hi = isinf(bq.hi) ? 1 : qrd * bq.hi / (qrd * bq.hi + wq * bt.lo);
		brd.lo = qrd * bq.lo / (qrd * bq.lo + wq * bt.hi) / f;
		brd.hi = hi / f;
	} else {
		brd.lo = 1 - zpct / 100;
		brd.why = "reads only at the home: streaming stores' lines are no local write-back";
	}
	npct(w, "QHL_PCT_RD_REQUESTS", where, Q4, 100 * f, brd, 0);
	/* the guide's identity in bytes (L1598-L1602) */
	struct vxterm U[3] = { LR, RR, R };
	nmetric(w, kn, "UNCACHEABLE_WRITE_BYTES", where, U, 3, k->nt ? wr : 0, (struct vband){ bt.lo, bt.hi,
		k->nt ? "one InvItoE a line written with streaming stores" :
		"ordinary stores: no uncacheable write" }, 0, zl);
}

/* The global queue's write tracker at the threads' socket (Nehalem-EP:
 * UNC_GQ_TRACKER_OCCUP.WT, Westmere-EP has no such occupancy): each entry
 * lives the LLC's latency for an L2 write-back (the inclusive LLC takes
 * it) and the home's DRAM latency, local or remote, for a streaming store
 * (emulated machine, doc/sim-nhm.md); the kernel's writes are all one or
 * the other.  Its metric GQ_WRITE_LATENCY (pmon stat -M mem_latency) in
 * ns through the UCLK fixed counter over the window's machine time (1 ms
 * of it either way: the fixed counter starts and stops apart). */
static void gq_write(const struct vgeom *g, const struct stream_case *k, struct vxwin *w, int r,
		     int remote)
{
	enum vsup sup = !k->nt ? VSUP_LLC : remote ? VSUP_RDRAM : VSUP_DRAM;
	if (g->lat_ns[sup] <= 0 || g->uclk_hz <= 0)
		return;
	const char *u = nhm_unc_pmu(g);
	int occ = vx_ev(w, 0, "%s::UNC_GQ_TRACKER_OCCUP:WT:socket=%d", u, r);
	int ins = vx_ev(w, 0, "%s::UNC_GQ_ALLOC:WRITE_TRACKER:socket=%d", u, r);
	int clk = vx_ev(w, 0, "%s::UNC_CLK_UNHALTED:socket=%d", u, r);
	double want = round(g->lat_ns[sup] * g->uclk_hz * 1e-9);
	struct vband b = k->hw ? (struct vband){ 0.75, 1.25, "silicon: the LLC's and DRAM's loaded latency "
						 "and other agents' write-backs" } :
		(struct vband){ 1, 1, k->nt ? "every streaming store lives the home's DRAM latency" :
				"every L2 write-back lives the LLC's latency" };
	vx_quot(w, &occ, &ins, 1, want, b, "UCLK", "GQ_TRACKER_OCCUP.WT/GQ_ALLOC.WRITE_TRACKER s%d latency", r);
	b.lo -= g->clk_tol;
	b.hi += g->clk_tol;
	char where[32];
	snprintf(where, sizeof(where), "s%d", r);
	struct vxterm t[3] = { vx_term(&occ, 1), vx_term(&ins, 1), vx_term(&clk, 1) };
	struct vxck *m = vx_metric(w, "GQ_WRITE_LATENCY", where, t, 3, want / g->uclk_hz * 1e9, b);
	if (!m)
		return;
	m->tol_lo_s = m->tol_hi_s = 1e-3;
	snprintf(m->nosec, sizeof(m->nosec), "%s: latency metrics: no machine time for the window", k->kname);
}

/* LLC_MISS_PCT (pmon stat -M llc) of the kernels with streaming stores, at
 * the threads' socket: from clean caches every line read misses the LLC
 * (reads, and the lines prefetched ahead), and every line streamed is a
 * write lookup that misses (it is in no cache): 100 % of the local cores'
 * lookups (UNC_LLC_HITS.ANY + UNC_LLC_MISS.ANY). */
static void llc_miss_nt(const struct vgeom *g, const struct stream_case *k, struct vxwin *q, int r)
{
	const char *u = nhm_unc_pmu(g);
	int ev[2];
	ev[0] = vx_ev(q, 0, "%s::UNC_LLC_MISS:ANY:socket=%d", u, r);
	ev[1] = vx_ev(q, 0, "%s::UNC_LLC_HITS:ANY:socket=%d", u, r);
	char where[32];
	snprintf(where, sizeof(where), "s%d (quarter)", r);
	struct vxterm t[2] = { vx_term(&ev[0], 1), vx_term(&ev[1], 1) };
	struct vband b = k->hw ? (struct vband){ 0.9, 1, "silicon: other agents' lookups may hit" } :
		(struct vband){ 1, 1, "clean caches, streamed lines: every lookup misses" };
	vx_metric(q, "LLC_MISS_PCT", where, t, 2, 100, b);
}

int nhm_stream(const struct vgeom *g, const struct stream_case *k, struct vxset *x)
{
	const char *u = nhm_unc_pmu(g);
	int h = k->home, r = k->req, remote = h != r, ch = g->channels;
	uint64_t lines = k->elems / 8;
	double rd, wr, pfx = stream_case_pf(g, k, lines);
	struct vband bt = stream_band_total(k->hw);
	const char *pfwhy = "prefetchers on: lines fetched ahead before another thread's batch may be "
			    "evicted and read again (a stream's lines ahead, per batch: stream_pf_extra)";
	/* --break=umask: Copy's reads programmed with the writes' event */
	int ub = k->brk == VB_UMASK && k->k == SK_COPY && !k->nt && !remote;
	/* --break=socket: the home's events programmed on the requester */
	int sb = k->brk == VB_SOCKET && remote;
	int hs = sb ? r : h;

	vx_init(x);
	stream_expect(k->k, k->nt, lines, &rd, &wr);
	struct vband btr = band_plus(bt, pfx, rd, pfwhy);
	if (pfx < 0)
		btr = (struct vband){ bt.lo, INFINITY, "prefetchers on, few L2/LLC sets or ways: a line "
				      "fetched ahead can lose its set and be read again; every line is "
				      "read at least once" };
	/* the home's reads: DRAM reads, and an InvItoE a line streamed */
	double qrd = rd + (k->nt ? wr : 0);

	struct vxwin *w = vx_win(x);
	w->tag = XS_MAIN;
	w->units = k->elems;
	w->clean = w->flush = w->timed = 1;
	int imr = vx_ev(w, ub || sb, ub ? "%s::UNC_IMC_WRITES:FULL_ANY:socket=%d"
				    : "%s::UNC_IMC_NORMAL_READS:ANY:socket=%d", u, hs);
	int imw = vx_ev(w, sb, "%s::UNC_IMC_WRITES:FULL_ANY:socket=%d", u, hs);
	int qlr = vx_ev(w, sb, "%s::UNC_QHL_REQUESTS:LOCAL_READS:socket=%d", u, hs);
	int qrr = vx_ev(w, sb, "%s::UNC_QHL_REQUESTS:REMOTE_READS:socket=%d", u, hs);
	int qlw = vx_ev(w, sb, "%s::UNC_QHL_REQUESTS:LOCAL_WRITES:socket=%d", u, hs);
	int qrw = vx_ev(w, sb, "%s::UNC_QHL_REQUESTS:REMOTE_WRITES:socket=%d", u, hs);
	double z = chase_zero_bound(k->hw);

	vx_sum(w, &imr, 1, 1, rd, btr, "lines", "IMC_NORMAL_READS.ANY s%d", h);
	vx_sum(w, &imw, 1, 1, wr, bt, "lines", "IMC_WRITES.FULL.ANY s%d", h);
	struct vband bq = btr;
	if (k->nt && pfx > 0)
		bq = band_plus(bt, pfx, qrd, pfwhy);
	const char *reads_why = k->nt ? "the home's reads: DRAM reads and one InvItoE a line "
					"streamed (guide: reads plus I to E for uncacheable writes)" : NULL;
	if (reads_why && bq.lo == 1 && bq.hi == 1)
		bq.why = reads_why;
	if (remote) {
		vx_sum(w, &qrr, 1, 1, qrd, bq, "lines", "QHL_REQUESTS.REMOTE_READS s%d (home)", h);
		vx_zero(w, &qlr, 1, (double)lines, z, "memory homed here, threads on the other socket: "
			"no local request", "per line", "QHL_REQUESTS.LOCAL_READS s%d (home)", h);
		vx_sum(w, &qrw, 1, 1, wr, bt, "lines", "QHL_REQUESTS.REMOTE_WRITES s%d (home)", h);
		vx_zero(w, &qlw, 1, (double)lines, z, "memory homed here, threads on the other socket: "
			"no local write-back", "per line", "QHL_REQUESTS.LOCAL_WRITES s%d (home)", h);
	} else {
		vx_sum(w, &qlr, 1, 1, qrd, bq, "lines", "QHL_REQUESTS.LOCAL_READS s%d", h);
		vx_zero(w, &qrr, 1, (double)lines, z, "threads and memory on one socket: no remote "
			"request", "per line", "QHL_REQUESTS.REMOTE_READS s%d", h);
		if (k->nt)
			vx_zero(w, &qlw, 1, (double)lines, z, "streaming stores write uncached lines, "
				"which LOCAL_WRITES does not count (guide, Table 39)", "per line",
				"QHL_REQUESTS.LOCAL_WRITES s%d", h);
		else
			vx_sum(w, &qlw, 1, 1, wr, bt, "lines", "QHL_REQUESTS.LOCAL_WRITES s%d", h);
		vx_zero(w, &qrw, 1, (double)lines, z, "threads and memory on one socket: no remote "
			"write-back", "per line", "QHL_REQUESTS.REMOTE_WRITES s%d", h);
	}
	/* The guide's identity: uncacheable writes = QHL local + remote reads
	 * - IMC normal reads (a prefetched line is a read of both). */
	int qr2[2] = { qlr, qrr };
	if (k->nt)
		vx_diff(w, qr2, 2, &imr, 1, 1, wr, (struct vband){ bt.lo, bt.hi,
			"the guide's identity: QHL reads less IMC reads = the InvItoE of the lines "
			"written with streaming stores" }, 0, "lines",
			"uncacheable writes (QHL_RD local+remote - IMC_RD) s%d", h);
	else
		vx_diff(w, qr2, 2, &imr, 1, (double)lines, 0, (struct vband){ 1, 1,
			"the guide's identity: QHL local + remote reads - IMC normal reads = the "
			"uncacheable writes, none with ordinary stores (|difference| per line)" }, z,
			"per line", "uncacheable writes (QHL_RD local+remote - IMC_RD) s%d", h);
	if (remote) {
		int q[2];
		q[0] = vx_ev(w, 0, "%s::UNC_IMC_NORMAL_READS:ANY:socket=%d", u, r);
		q[1] = vx_ev(w, 0, "%s::UNC_IMC_WRITES:FULL_ANY:socket=%d", u, r);
		vx_zero(w, q, 2, (double)lines, z, "memory homed on the other socket: no DRAM access here",
			"per line", "IMC_NORMAL_READS+IMC_WRITES s%d (requester)", r);
	}
	if (k->nt && !remote)
		nt_rsp(g, k, w, 1, lines);
	stream_metrics(w, k, h, remote, imr, imw, qlr, qlw, qrr, qrw, rd, wr, qrd, btr, bq, bt, z * (double)lines);
	/* (not under --break=socket: the home's six events then take the
	 * requester's counters, which leave no room for the write tracker's) */
	if (g->gen != VG_WSMEP && !sb)
		gq_write(g, k, w, r, remote);

	/* Per channel, over a quarter of the arrays (whole pages). */
	struct vxwin *q = vx_win(x);
	q->tag = XS_QUARTER;
	q->units = k->elems / 4 / 512 * 512;
	q->clean = q->flush = q->timed = 1;
	uint64_t ql = q->units / 8;
	double qr, qw;
	stream_expect(k->k, k->nt, ql, &qr, &qw);
	double qpfx = stream_case_pf(g, k, ql);
	struct vband bc = band_plus(stream_band_channel(g, (uint64_t)qr, k->hw), qpfx, qr / ch, pfwhy);
	struct vband bcw = stream_band_channel(g, (uint64_t)qw, k->hw);
	if (qpfx < 0)
		bc.hi = INFINITY;
	int cr[3], cw[3];
	for (int i = 0; i < ch; i++) {
		cr[i] = vx_ev(q, sb, "%s::UNC_IMC_NORMAL_READS:CH%d:socket=%d", u, i, hs);
		vx_sum(q, &cr[i], 1, 1, qr / ch, bc, "lines", "IMC_NORMAL_READS.CH%d s%d (quarter)", i, h);
	}
	for (int i = 0; i < ch; i++) {
		cw[i] = vx_ev(q, sb, "%s::UNC_IMC_WRITES:FULL_CH%d:socket=%d", u, i, hs);
		vx_sum(q, &cw[i], 1, 1, qw / ch, bcw, "lines", "IMC_WRITES.FULL.CH%d s%d (quarter)", i, h);
	}
	/* the channels' bandwidth metrics (pmon stat -M mem_bw_channel) */
	/* (a check keeps its metric's name by pointer: the names are static) */
	static const char *const chm[3][3] = {
		{ "MEM_BW_READS_CH0", "MEM_BW_WRITES_CH0", "MEM_BW_TOTAL_CH0" },
		{ "MEM_BW_READS_CH1", "MEM_BW_WRITES_CH1", "MEM_BW_TOTAL_CH1" },
		{ "MEM_BW_READS_CH2", "MEM_BW_WRITES_CH2", "MEM_BW_TOTAL_CH2" },
	};
	for (int i = 0; i < ch && i < 3; i++) {
		char where[32];
		struct vxterm t[2] = { vx_term(&cr[i], 1), vx_term(&cw[i], 1) };
		snprintf(where, sizeof(where), "s%d (quarter)", h);
		nmetric(q, k->kname, chm[i][0], where, &t[0], 1, qr / ch, bc, 1, z * (double)ql);
		nmetric(q, k->kname, chm[i][1], where, &t[1], 1, qw / ch, bcw, 1, z * (double)ql);
		nmetric(q, k->kname, chm[i][2], where, t, 2, (qr + qw) / ch,
			band_sum(qr / ch, bc, qw / ch, bcw, "the reads' and writes' bands by their shares"), 1,
			z * (double)ql);
	}
	if (k->nt)
		llc_miss_nt(g, k, q, r);
	if (k->nt && !remote)
		nt_rsp(g, k, q, 0, ql);
	return 0;
}
