/*
 * gen_snbep_share.c - sharing between cores and between sockets on SNB-EP,
 * as data (vspec.h): the ping-pong of one line between two cores of a
 * socket and between two sockets, and the producer / consumer sequence.
 * The expected counts follow the coherence protocol the emulated machine
 * documents (doc/memory-model.md, include/pmon/sim.h), step by step in the
 * comments below; on silicon the same steps hold up to the protocol's
 * variants (the band share_hwb).
 */
#include <stdlib.h>

#include "vgen.h"
#include "vspec.h"

static const struct vband share_hwb = { 0.9, 1.5,
	"silicon: a spinning load may miss again while the other turn is in flight; OS traffic" };

/* A round: thread 0 takes its turn (load, store), then thread 1.  Steady
 * state, two cores A, B of one socket (the line's LLC slice holds it, B's
 * store just made B's copy Modified, the LLC entry Modified, core-valid B):
 *   A's load misses its L2, hits the LLC (state M): A is not the only core
 *   in the core-valid bits, so B is snooped, finds its Modified copy: HITM,
 *   the data go back into the LLC (M), B keeps S, A gets S.
 *     offcore A: DMND_DATA_RD, supplier LLC_HITM, snoop HITM;
 *     CBo: a DATA_READ lookup in state M.
 *   A's store finds its copy Shared: an ownership request (RFO) to the LLC,
 *   which hits (M), snoops B (Shared: a clean copy, invalidated): supplier
 *   LLC_HITM, snoop SNP_NO_FWD; the LLC line stays M (no other socket can
 *   hold it), so nothing goes to the home agent.
 *   B's turn is the same with A and B swapped.
 * Per round: each core 1 read (HITM) and 1 RFO (NO_FWD), the socket 4
 * DATA_READ lookups in M, no home-agent request, no DRAM access. */
static int pp_core(const struct vgeom *g, const struct share_case *k, struct vxset *x)
{
	int s = k->local, a = k->a, b = k->b;
	const struct vspec_on on = { k->brk, k->hw, share_hwb, (double)k->rounds, "per round" };
	const struct vspec rows[] = {
		{ VS_ONE, "snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_HITM:HITM:cpu=%d", a, 1,
		  "OFFCORE DMND_DATA_RD.LLC_HITM.HITM cpu A", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, "snb_ep::OFFCORE_RESPONSE_1:DMND_RFO:LLC_HITM:SNP_NO_FWD:cpu=%d", a, 1,
		  "OFFCORE DMND_RFO.LLC_HITM.SNP_NO_FWD cpu A", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, "snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_HITM:HITM:cpu=%d", b, 1,
		  "OFFCORE DMND_DATA_RD.LLC_HITM.HITM cpu B", VS_EXACT, VB_SNOOP,
		  "snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_HITM:SNP_NO_FWD:cpu=%d" },
		{ VS_ONE, "snb_ep::OFFCORE_RESPONSE_1:DMND_RFO:LLC_HITM:SNP_NO_FWD:cpu=%d", b, 1,
		  "OFFCORE DMND_RFO.LLC_HITM.SNP_NO_FWD cpu B", VS_EXACT, VB_NONE, NULL },
		{ VS_CBO, "snbep_unc_cbo%d::UNC_C_LLC_LOOKUP:DATA_READ:STATE_M:socket=%d", s, 4,
		  "LLC_LOOKUP.DATA_READ.M local", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, "snbep_unc_ha::UNC_H_REQUESTS:READS:socket=%d", s, 0,
		  "HA REQUESTS.READS local", VS_EXACT, VB_NONE, NULL },
	};
	return vspec_win(g, x, "share-pingpong-core", 0, 0, rows, (int)(sizeof(rows) / sizeof(rows[0])),
			 &on);
}

/* Between sockets: A on the local socket L (the line's home), B on the
 * remote socket R.  Steady state after B's store: B's core Modified, R's LLC
 * entry E (core-valid B), L holds no copy.
 *   A's load: L's LLC misses (DATA_READ lookup, state I).  The home agent
 *   (L) counts a local read and snoops R: SNP L->R; R's lookup is a
 *   REMOTE_SNOOP in state E, which snoops B: Modified, so HITM: B and R keep
 *   S; the data go to the requester (DRS R->L, 8 data flits + 1) and, a
 *   read having found a Modified copy, to memory as well (another DRS R->L;
 *   the home agent counts a write and writes DRAM: IMC_WRITES.FULL, a CAS
 *   write); R's answer HOM_NONREQ R->L.  A gets S, L's LLC fills F.
 *     offcore A: DMND_DATA_RD, supplier LOCAL_DRAM (a miss homed here),
 *     snoop HITM.
 *   A's store: A's copy is Shared: RFO to L's LLC, a hit in F (DATA_READ
 *   lookup, state F) with no other core to snoop (SNP_NOT_NEEDED, supplier
 *   LLC_HITF); F means other sockets may share it, so the home agent (a
 *   local read request) snoops R to invalidate: SNP L->R, REMOTE_SNOOP in
 *   state S at R, R's copies dropped, HOM_NONREQ R->L; no data.
 *   B's turn is the mirror image, except that the home is not B's socket:
 *   B's load: R misses (lookup I), request to L's home agent (HOM_REQ R->L,
 *   a remote read), which snoops its own socket (no QPI message): REMOTE_
 *   SNOOP in state E at L, A's copy Modified: HITM; data L->R (DRS) and to
 *   memory (at home: no QPI, a write); completion NDR L->R.  B's store: hit F
 *   at R (lookup F), ownership from the home: HOM_REQ R->L, snoop of L
 *   (REMOTE_SNOOP S), completion NDR L->R.
 * Per round at L: DATA_READ lookups 1 in I and 1 in F; REMOTE_SNOOP 1 in E
 * and 1 in S; the same at R.  Home agent L: 4 reads (2 local, 2 remote), 2
 * writes, 2 IMC_WRITES; R's home agent nothing.  QPI messages L->R: 2 SNP, 2
 * NDR, 1 DRS; R->L: 2 HOM_REQ, 2 HOM_NONREQ, 2 DRS.  G0 flits: DATA 8 a DRS,
 * NON_DATA 1 a message: L sends 8 data and 5 non-data flits and receives 16
 * and 6; R the other way round.  G1/G2 by class on both ends of the link.
 * Every message leaves its socket's ring for the link through that link's
 * R3QPI ingress, one entry a message in its class: at L 2 SNP, 2 NDR and 1
 * DRS a round, at R 4 HOM (requests and snoop responses) and 2 DRS. */
static int pp_socket(const struct vgeom *g, const struct share_case *k, struct vxset *x)
{
	int L = k->local, R = k->remote, a = k->a, b = k->b, rc;
	const struct vspec_on on = { k->brk, k->hw, share_hwb, (double)k->rounds, "per round" };
	const char *kn = "share-pingpong-socket";
	const struct vspec w1[] = {
		{ VS_ONE, "snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_MISS_LOCAL_DRAM:HITM:cpu=%d", a, 1,
		  "OFFCORE DMND_DATA_RD.LOCAL_DRAM.HITM cpu A", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, "snb_ep::OFFCORE_RESPONSE_1:DMND_RFO:LLC_HITF:SNP_NOT_NEEDED:cpu=%d", a, 1,
		  "OFFCORE DMND_RFO.LLC_HITF.SNP_NOT_NEEDED cpu A", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, "snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_MISS_REMOTE_DRAM:HITM:cpu=%d", b, 1,
		  "OFFCORE DMND_DATA_RD.REMOTE_DRAM.HITM cpu B", VS_EXACT, VB_SNOOP,
		  "snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_MISS_REMOTE_DRAM:SNP_FWD:cpu=%d" },
		{ VS_ONE, "snb_ep::OFFCORE_RESPONSE_1:DMND_RFO:LLC_HITF:SNP_NOT_NEEDED:cpu=%d", b, 1,
		  "OFFCORE DMND_RFO.LLC_HITF.SNP_NOT_NEEDED cpu B", VS_EXACT, VB_NONE, NULL },
		{ VS_CBO, "snbep_unc_cbo%d::UNC_C_LLC_LOOKUP:DATA_READ:STATE_I:STATE_E:socket=%d", L, 1,
		  "LLC_LOOKUP.DATA_READ.I|E home", VS_EXACT, VB_STATE,
		  "snbep_unc_cbo%d::UNC_C_LLC_LOOKUP:DATA_READ:STATE_S:STATE_E:socket=%d" },
		{ VS_CBO, "snbep_unc_cbo%d::UNC_C_LLC_LOOKUP:REMOTE_SNOOP:STATE_I:STATE_E:socket=%d", L, 1,
		  "LLC_LOOKUP.REMOTE_SNOOP.I|E home", VS_EXACT, VB_STATE,
		  "snbep_unc_cbo%d::UNC_C_LLC_LOOKUP:REMOTE_SNOOP:STATE_S:STATE_E:socket=%d" },
		{ VS_CBO, "snbep_unc_cbo%d::UNC_C_LLC_LOOKUP:DATA_READ:STATE_I:STATE_E:socket=%d", R, 1,
		  "LLC_LOOKUP.DATA_READ.I|E remote", VS_EXACT, VB_NONE, NULL },
		{ VS_CBO, "snbep_unc_cbo%d::UNC_C_LLC_LOOKUP:REMOTE_SNOOP:STATE_I:STATE_E:socket=%d", R, 1,
		  "LLC_LOOKUP.REMOTE_SNOOP.I|E remote", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, "snbep_unc_ha::UNC_H_REQUESTS:READS:socket=%d", L, 4,
		  "HA REQUESTS.READS home", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, "snbep_unc_ha::UNC_H_REQUESTS:WRITES:socket=%d", L, 2,
		  "HA REQUESTS.WRITES home", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, "snbep_unc_ha::UNC_H_IMC_WRITES:FULL:socket=%d", L, 2,
		  "HA IMC_WRITES.FULL home", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, "snbep_unc_ha::UNC_H_REQUESTS:READS:socket=%d", R, 0,
		  "HA REQUESTS.READS remote", VS_EXACT, VB_NONE, NULL },
		{ VS_CH, "snbep_unc_imc%d::UNC_M_CAS_COUNT:WR:socket=%d", L, 2,
		  "CAS_COUNT.WR home all ch", VS_EXACT, VB_NONE, NULL },
	};
	const struct vspec w2[] = {
		{ VS_CBO, "snbep_unc_cbo%d::UNC_C_LLC_LOOKUP:DATA_READ:STATE_S:STATE_F:socket=%d", L, 1,
		  "LLC_LOOKUP.DATA_READ.S|F home", VS_EXACT, VB_NONE, NULL },
		{ VS_CBO, "snbep_unc_cbo%d::UNC_C_LLC_LOOKUP:REMOTE_SNOOP:STATE_S:STATE_F:socket=%d", L, 1,
		  "LLC_LOOKUP.REMOTE_SNOOP.S|F home", VS_EXACT, VB_NONE, NULL },
		{ VS_CBO, "snbep_unc_cbo%d::UNC_C_LLC_LOOKUP:DATA_READ:STATE_S:STATE_F:socket=%d", R, 1,
		  "LLC_LOOKUP.DATA_READ.S|F remote", VS_EXACT, VB_NONE, NULL },
		{ VS_CBO, "snbep_unc_cbo%d::UNC_C_LLC_LOOKUP:REMOTE_SNOOP:STATE_S:STATE_F:socket=%d", R, 1,
		  "LLC_LOOKUP.REMOTE_SNOOP.S|F remote", VS_EXACT, VB_NONE, NULL },
		{ VS_LINK, "snbep_unc_qpi%d::UNC_Q_TXL_FLITS_G0:DATA:socket=%d", L, 8,
		  "QPI TxL G0 DATA home", VS_EXACT, VB_NONE, NULL },
		{ VS_LINK, "snbep_unc_qpi%d::UNC_Q_TXL_FLITS_G0:NON_DATA:socket=%d", L, 5,
		  "QPI TxL G0 NON_DATA home", VS_EXACT, VB_NONE, NULL },
		{ VS_LINK, "snbep_unc_qpi%d::UNC_Q_RXL_FLITS_G0:DATA:socket=%d", L, 16,
		  "QPI RxL G0 DATA home", VS_EXACT, VB_NONE, NULL },
		{ VS_LINK, "snbep_unc_qpi%d::UNC_Q_RXL_FLITS_G0:NON_DATA:socket=%d", L, 6,
		  "QPI RxL G0 NON_DATA home", VS_EXACT, VB_NONE, NULL },
	};
	const struct vspec w3[] = {
		{ VS_LINK, "snbep_unc_qpi%d::UNC_Q_TXL_FLITS_G1:SNP:socket=%d", L, 2,
		  "QPI TxL G1 SNP home", VS_EXACT, VB_NONE, NULL },
		{ VS_LINK, "snbep_unc_qpi%d::UNC_Q_RXL_FLITS_G1:HOM_REQ:socket=%d", L, 2,
		  "QPI RxL G1 HOM_REQ home", VS_EXACT, VB_NONE, NULL },
		{ VS_LINK, "snbep_unc_qpi%d::UNC_Q_RXL_FLITS_G1:HOM_NONREQ:socket=%d", L, 2,
		  "QPI RxL G1 HOM_NONREQ home", VS_EXACT, VB_NONE, NULL },
		{ VS_LINK, "snbep_unc_qpi%d::UNC_Q_TXL_FLITS_G2:NDR_AK:socket=%d", L, 2,
		  "QPI TxL G2 NDR_AK home", VS_EXACT, VB_NONE, NULL },
		{ VS_LINK, "snbep_unc_qpi%d::UNC_Q_RXL_FLITS_G1:SNP:socket=%d", R, 2,
		  "QPI RxL G1 SNP remote", VS_EXACT, VB_NONE, NULL },
		{ VS_LINK, "snbep_unc_qpi%d::UNC_Q_TXL_FLITS_G1:HOM_REQ:socket=%d", R, 2,
		  "QPI TxL G1 HOM_REQ remote", VS_EXACT, VB_NONE, NULL },
		{ VS_LINK, "snbep_unc_qpi%d::UNC_Q_TXL_FLITS_G1:HOM_NONREQ:socket=%d", R, 2,
		  "QPI TxL G1 HOM_NONREQ remote", VS_EXACT, VB_NONE, NULL },
		{ VS_LINK, "snbep_unc_qpi%d::UNC_Q_RXL_FLITS_G2:NDR_AK:socket=%d", R, 2,
		  "QPI RxL G2 NDR_AK remote", VS_EXACT, VB_NONE, NULL },
		{ VS_R3, "snbep_unc_r3qpi%d::UNC_R3_RXR_INSERTS:NDR:socket=%d", L, 2,
		  "R3QPI RxR_INSERTS.NDR home", VS_EXACT, VB_NONE, NULL },
		{ VS_R3, "snbep_unc_r3qpi%d::UNC_R3_RXR_INSERTS:SNP:socket=%d", R, 0,
		  "R3QPI RxR_INSERTS.SNP remote", VS_EXACT, VB_NONE, NULL },
	};
	const struct vspec w4[] = {
		{ VS_LINK, "snbep_unc_qpi%d::UNC_Q_TXL_FLITS_G0:DATA:socket=%d", R, 16,
		  "QPI TxL G0 DATA remote", VS_EXACT, VB_NONE, NULL },
		{ VS_LINK, "snbep_unc_qpi%d::UNC_Q_TXL_FLITS_G0:NON_DATA:socket=%d", R, 6,
		  "QPI TxL G0 NON_DATA remote", VS_EXACT, VB_NONE, NULL },
		{ VS_LINK, "snbep_unc_qpi%d::UNC_Q_RXL_FLITS_G0:DATA:socket=%d", R, 8,
		  "QPI RxL G0 DATA remote", VS_EXACT, VB_NONE, NULL },
		{ VS_LINK, "snbep_unc_qpi%d::UNC_Q_RXL_FLITS_G0:NON_DATA:socket=%d", R, 5,
		  "QPI RxL G0 NON_DATA remote", VS_EXACT, VB_NONE, NULL },
		{ VS_R3, "snbep_unc_r3qpi%d::UNC_R3_RXR_INSERTS:SNP:socket=%d", L, 2,
		  "R3QPI RxR_INSERTS.SNP home", VS_EXACT, VB_R3,
		  "snbep_unc_r3qpi%d::UNC_R3_RXR_INSERTS:HOM:socket=%d" },
		{ VS_R3, "snbep_unc_r3qpi%d::UNC_R3_RXR_INSERTS:DRS:socket=%d", L, 1,
		  "R3QPI RxR_INSERTS.DRS home", VS_EXACT, VB_NONE, NULL },
		{ VS_R3, "snbep_unc_r3qpi%d::UNC_R3_RXR_INSERTS:HOM:socket=%d", R, 4,
		  "R3QPI RxR_INSERTS.HOM remote", VS_EXACT, VB_NONE, NULL },
		{ VS_R3, "snbep_unc_r3qpi%d::UNC_R3_RXR_INSERTS:DRS:socket=%d", R, 2,
		  "R3QPI RxR_INSERTS.DRS remote", VS_EXACT, VB_NONE, NULL },
	};
	if ((rc = vspec_win(g, x, kn, 0, 0, w1, sizeof(w1) / sizeof(w1[0]), &on)) ||
	    (rc = vspec_win(g, x, kn, 0, 0, w2, sizeof(w2) / sizeof(w2[0]), &on)) ||
	    (rc = vspec_win(g, x, kn, 0, 0, w3, sizeof(w3) / sizeof(w3[0]), &on)))
		return rc;
	return vspec_win(g, x, kn, 0, 0, w4, sizeof(w4) / sizeof(w4[0]), &on);
}

/* The most lines of the older buffers the sweep may leave in the home's LLC:
 * the sweep's lines are the newest, so under LRU a set keeps
 * min(ways, sweep lines in it) of them and older lines only in the ways
 * left: sum over sets of max(0, ways - sweep lines); *remy the sweep's
 * lines left.  From the sweep's physical addresses and the documented
 * slice hash and set index; -1 if not computable. */
static long survivors(const struct vgeom *g, const uint64_t *pa, uint64_t ny, long *remy)
{
	uint64_t sets = g->llc_bytes / (uint64_t)g->cores / 64 / (uint64_t)g->llc_ways;
	uint64_t cells = sets * (uint64_t)g->cores;
	uint32_t *cnt;
	long d = 0, r = 0;
	if (sets == 0 || !(cnt = calloc(cells, sizeof(*cnt))))
		return -1;
	for (uint64_t i = 0; i < ny; i++) {
		int sl = vgeom_llc_slice(g, pa[i]);
		cnt[(uint64_t)sl * sets + pa[i] / 64 % sets]++;
	}
	for (uint64_t s = 0; s < cells; s++) {
		uint32_t w = (uint32_t)g->llc_ways;
		d += cnt[s] < w ? (long)(w - cnt[s]) : 0;
		r += cnt[s] < w ? (long)cnt[s] : (long)w;
	}
	free(cnt);
	*remy = r;
	return d;
}

/* The sequence (home H = the local socket, consumer on socket R; n lines of
 * w, m, e, nf = n/2 of f, ny of y = twice the LLC):
 *   producer (H): stores to w and m (RFOs from memory: each misses, the home
 *   snoops R, which has nothing: SNP_MISS, LOCAL_DRAM; the lines end
 *   Modified in its core, E in the LLC), loads of e and f (the same, E).
 *   consumer (R): loads of m: R misses, request to H's home agent (remote
 *   read), whose snoop of its own socket finds the line E in the LLC and
 *   Modified in the producer's core: HITM, forwarded (DRS H->R, NDR H->R),
 *   written to memory too; H keeps it S.  Offcore: REMOTE_DRAM, HITM.
 *   Loads of f: the same, but the copy is clean: a clean forward (SNP_FWD),
 *   no write.  H keeps S.
 *   sweep (H, the producer's core): loads of y (2 x LLC), each a local miss
 *   (SNP_MISS): every set of H's LLC receives about twice its ways of them,
 *   so every older line is evicted: victims w: M (the core's copy is
 *   dirty), e: E, m and f: S, and y's own lines but those still there at
 *   the end: E.
 * So at H: LLC_VICTIMS M n, S n + nf, E n + ny - (y's lines left);
 * IMC_WRITES (and CAS writes) n (m's HITMs) + n (w's victims); home-agent
 * reads 2n + n + nf (producer) + n + nf (consumer) + ny; QPI data flits
 * H->R 8 (n + nf), received at R the same.  R evicts nothing.  A prefetcher
 * changes none of these: every buffer is whole pages read or written once
 * in order, so a line fetched ahead is one the kernel uses, fetched once
 * (reads: demand and prefetch request types are counted together).  Sets
 * that receive fewer of y's lines than ways keep some older lines: the
 * bands' lower edges (pc_survivors). */
int share_pc_bands(const struct vgeom *g, const struct share_case *k, struct share_bands *b,
		   struct vxset *x)
{
	/* Without the sweep's addresses (silicon, or while planning: the
	 * pages have no frames yet) the bound waits. */
	long remy = (long)(g->llc_bytes / 64), d = 0;
	if (k->ypa && (d = survivors(g, k->ypa, k->ny, &remy)) < 0) {
		snprintf(x->err, sizeof(x->err), "prodcons: physical addresses of the sweep unknown");
		return -1;
	}
	double N = (double)k->n, NF = (double)k->nf, NY = (double)k->ny;
	double dn = (double)d;
	b->m = (struct vband){ 1 - dn / N, 1, "sets with fewer sweep lines than ways keep older lines (page table)" };
	b->s = (struct vband){ 1 - dn / (N + NF), 1, b->m.why };
	b->w = (struct vband){ 1 - dn / (2 * N), 1, b->m.why };
	b->ev = N + NY - (double)remy;
	b->e = (struct vband){ 1 - dn / b->ev, 1, b->m.why };
	return 0;
}

static int pc_all(const struct vgeom *g, const struct share_case *k, struct vxset *x)
{
	int H = k->local, R = k->remote, rc;
	double N = (double)k->n, NF = (double)k->nf, NY = (double)k->ny;
	struct share_bands sb;
	if (share_pc_bands(g, k, &sb, x))
		return -1;
	struct vband bm = sb.m, bs = sb.s, bw = sb.w, be = sb.e;
	double ev = sb.ev;
	int pf = g->prefetch;
	const struct vspec_on on = { k->brk, k->hw, share_hwb, 1, "lines" };
	/* Window 1: victims M and S, writes, reads, the forwards' responses,
	 * data over QPI at both ends. */
	const struct vspec w1[] = {
		{ VS_CBO, "snbep_unc_cbo%d::UNC_C_LLC_VICTIMS:M_STATE:socket=%d", H, N,
		  "LLC_VICTIMS.M home", bm, VB_VICTIM, "snbep_unc_cbo%d::UNC_C_LLC_VICTIMS:E_STATE:socket=%d" },
		{ VS_CBO, "snbep_unc_cbo%d::UNC_C_LLC_VICTIMS:S_STATE:socket=%d", H, N + NF,
		  "LLC_VICTIMS.S home", bs, VB_NONE, NULL },
		{ VS_CBO, "snbep_unc_cbo%d::UNC_C_LLC_VICTIMS:M_STATE:E_STATE:S_STATE:socket=%d", R, 0,
		  "LLC_VICTIMS.MES remote", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, "snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:PF_DATA_RD:LLC_MISS_REMOTE_DRAM:HITM:cpu=%d",
		  k->b, N, "OFFCORE DATA_RD.REMOTE_DRAM.HITM consumer", VS_EXACT, VB_SNOOP,
		  "snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:PF_DATA_RD:LLC_MISS_REMOTE_DRAM:SNP_FWD:cpu=%d" },
		{ VS_ONE, "snb_ep::OFFCORE_RESPONSE_1:DMND_DATA_RD:PF_DATA_RD:LLC_MISS_REMOTE_DRAM:SNP_FWD:cpu=%d",
		  k->b, NF, "OFFCORE DATA_RD.REMOTE_DRAM.SNP_FWD consumer", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, "snbep_unc_ha::UNC_H_IMC_WRITES:FULL:socket=%d", H, 2 * N,
		  "HA IMC_WRITES.FULL home", bw, VB_NONE, NULL },
		{ VS_CH, "snbep_unc_imc%d::UNC_M_CAS_COUNT:WR:socket=%d", H, 2 * N,
		  "CAS_COUNT.WR home all ch", bw, VB_NONE, NULL },
		{ VS_ONE, "snbep_unc_ha::UNC_H_REQUESTS:READS:socket=%d", H, 4 * N + 2 * NF + NY,
		  "HA REQUESTS.READS home", VS_EXACT, VB_NONE, NULL },
		{ VS_LINK, "snbep_unc_qpi%d::UNC_Q_TXL_FLITS_G0:DATA:socket=%d", H, 8 * (N + NF),
		  "QPI TxL G0 DATA home", VS_EXACT, VB_NONE, NULL },
		{ VS_LINK, "snbep_unc_qpi%d::UNC_Q_RXL_FLITS_G0:DATA:socket=%d", R, 8 * (N + NF),
		  "QPI RxL G0 DATA remote", VS_EXACT, VB_NONE, NULL },
	};
	/* Window 2: victims E; the producer's requests by type; the consumer's
	 * snoops as the home's LLC sees them (E, or M when the producer's L2
	 * wrote the line back first). */
	const struct vspec w2[] = {
		{ VS_CBO, "snbep_unc_cbo%d::UNC_C_LLC_VICTIMS:E_STATE:socket=%d", H, ev,
		  "LLC_VICTIMS.E home", be, VB_NONE, NULL },
		{ VS_CBO, "snbep_unc_cbo%d::UNC_C_LLC_LOOKUP:REMOTE_SNOOP:STATE_E:STATE_M:socket=%d", H,
		  N + NF, "LLC_LOOKUP.REMOTE_SNOOP.E|M home", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, pf ? "snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:PF_RFO:DMND_DATA_RD:PF_DATA_RD:"
			       "LLC_MISS_LOCAL_DRAM:SNP_MISS:cpu=%d"
			     : "snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:LLC_MISS_LOCAL_DRAM:SNP_MISS:cpu=%d",
		  k->a, pf ? 2 * N + N + NF + NY : 2 * N,
		  pf ? "OFFCORE RFO+DATA_RD.LOCAL_DRAM.SNP_MISS producer"
		     : "OFFCORE DMND_RFO.LOCAL_DRAM.SNP_MISS producer", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, "snb_ep::OFFCORE_RESPONSE_1:DMND_DATA_RD:LLC_MISS_LOCAL_DRAM:SNP_MISS:cpu=%d",
		  k->a, N + NF + NY, "OFFCORE DMND_DATA_RD.LOCAL_DRAM.SNP_MISS producer", VS_EXACT, VB_NONE,
		  NULL },
	};
	if ((rc = vspec_win(g, x, "share-prodcons", 0, 1, w1, sizeof(w1) / sizeof(w1[0]), &on)))
		return rc;
	return vspec_win(g, x, "share-prodcons", 0, 1, w2, sizeof(w2) / sizeof(w2[0]) - (pf ? 1 : 0),
			 &on);
}

int snbep_share(const struct vgeom *g, const struct share_case *k, struct vxset *x)
{
	vx_init(x);
	switch (k->kind) {
	case SHARE_CORE: return pp_core(g, k, x);
	case SHARE_SOCKET: return pp_socket(g, k, x);
	default: return pc_all(g, k, x);
	}
}
