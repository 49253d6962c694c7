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
	w->clean = w->flush = 1;
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

	/* Per channel, over a quarter of the arrays (whole pages). */
	struct vxwin *q = vx_win(x);
	q->tag = XS_QUARTER;
	q->units = k->elems / 4 / 512 * 512;
	q->clean = q->flush = 1;
	uint64_t ql = q->units / 8;
	double qr, qw;
	stream_expect(k->k, k->nt, ql, &qr, &qw);
	double qpfx = stream_case_pf(g, k, ql);
	struct vband bc = band_plus(stream_band_channel(g, (uint64_t)qr, k->hw), qpfx, qr / ch, pfwhy);
	struct vband bcw = stream_band_channel(g, (uint64_t)qw, k->hw);
	if (qpfx < 0)
		bc.hi = INFINITY;
	for (int i = 0; i < ch; i++) {
		int e = vx_ev(q, sb, "%s::UNC_IMC_NORMAL_READS:CH%d:socket=%d", u, i, hs);
		vx_sum(q, &e, 1, 1, qr / ch, bc, "lines", "IMC_NORMAL_READS.CH%d s%d (quarter)", i, h);
	}
	for (int i = 0; i < ch; i++) {
		int e = vx_ev(q, sb, "%s::UNC_IMC_WRITES:FULL_CH%d:socket=%d", u, i, hs);
		vx_sum(q, &e, 1, 1, qw / ch, bcw, "lines", "IMC_WRITES.FULL.CH%d s%d (quarter)", i, h);
	}
	if (k->nt && !remote)
		nt_rsp(g, k, q, 0, ql);
	return 0;
}
