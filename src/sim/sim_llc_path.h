/*
 * sim_llc_path.h - the access path past the cores' L2: the LLC slices of each socket (MESIF
 * states, core-valid bits, inclusive back-invalidation), the home agents
 * (home snoop: the home snoops every socket but the requester's) and the
 * DRAM operations they cause; the QPI messages between sockets and the
 * home agents' requests are in sim_home_path.h, the batch's tallies in
 * sim_tally_path.h.  Every CBo, HA and QPI event is raised here or there,
 * next to the ground truth it mirrors (the cores' offcore responses in
 * sim_core_path.h, the iMC's in sim_dram.c).
 */
#ifndef PMON_SIM_LLC_PATH_H
#define PMON_SIM_LLC_PATH_H

#include "sim_hier.h"
#include "sim_home_path.h"
#include "sim_tally_path.h"
#include "sim_traffic.h"

#pragma GCC visibility push(hidden)

/* A snoop of one core's private caches (w1, w2: its L1 and L2 way counts):
 * the state the core holds line in (M when dirty in L1 or L2), then newst:
 * SIM_I drops its copies, SIM_S makes them shared, -1 keeps.  Here rather
 * than in sim_core_path.h: an LLC eviction's back-invalidation inlines it. */
SIM_HOT int core_snoop(struct sim_pcore *pc, uint64_t line, int newst, uint32_t w1, uint32_t w2)
{
	struct sim_set s2 = pcache_set_w(&pc->l2, line, w2), s1;
	int j2 = set_find(&s2, line), j1, st;

	if (j2 < 0)
		return SIM_I;                 /* the L2 includes the L1 */
	st = e_st(s2.e[j2]);
	s1 = pcache_set_w(&pc->l1, line, w1);
	j1 = set_find(&s1, line);
	if (j1 >= 0 && e_st(s1.e[j1]) == SIM_M)
		st = SIM_M;
	if (newst == SIM_I) {
		set_drop(&s2, j2);
		if (j1 >= 0)
			set_drop(&s1, j1);
	} else if (newst == SIM_S) {
		set_st(&s2, j2, SIM_S);
		if (j1 >= 0)
			set_st(&s1, j1, SIM_S);
	}
	return st;
}

/* core_snoop with the core's way counts (sim_core_path.h), out of line. */
static int sim_core_snoop(struct sim_pcore *pc, uint64_t line, int newst);

/* Back-invalidation: the copies of an LLC entry's line (e: the entry) in
 * the cores of its core-valid bits are dropped; returns 1 when the data
 * were dirty (the LLC copy or a core's).  The entry itself is left as it
 * is.  w1, w2: the cores' L1 and L2 way counts (every core has the
 * machine's). */
SIM_HOT int llc_inval_cores(struct pmon_sim *sim, int socket, uint64_t e, uint32_t w1, uint32_t w2)
{
	uint64_t line = e_line(e);
	int dirty = e_st(e) == SIM_M;
	unsigned cv = e_cv(e);

	if (cv && !(cv & (cv - 1))) {
		/* one core (the commonest): inlined, and most find its copy gone */
		struct sim_pcore *pc = &sim->pcore[socket * sim->shape.cores + __builtin_ctz(cv)];
		return core_snoop(pc, line, SIM_I, w1, w2) == SIM_M || dirty;
	}
	while (cv) {
		int k = __builtin_ctz(cv);
		cv &= cv - 1;
		if (sim_core_snoop(&sim->pcore[socket * sim->shape.cores + k], line, SIM_I) == SIM_M)
			dirty = 1;
	}
	return dirty;
}

/* Drop an LLC entry and its cores' copies; returns 1 when the data were
 * dirty (the LLC copy or a core's). */
SIM_HOT int llc_drop(struct pmon_sim *sim, int socket, const struct sim_set *s, int w)
{
	int dirty = llc_inval_cores(sim, socket, s->e[w], path_l1w(&sim->pcore[0]),
				    path_l2w(&sim->pcore[0]));

	set_drop(s, w);
	if (!--sim->sock[socket].llc_valid)
		sim->llc_busy &= ~(1u << socket);
	return dirty;
}

/* The LLC evicts an entry e (its least recently used) of a slice to make
 * room for a line: its cores' copies go, its counts are tallied, a dirty
 * line is written home.  The fill shifts the entry out (dropping it would
 * change nothing else: it is already last). */
SIM_HOT void llc_evict(struct pmon_sim *sim, int socket, unsigned slice, uint64_t e, uint32_t w1,
		       uint32_t w2)
{
	uint64_t line = e_line(e);
	int st = e_st(e), home = sim_line_home(sim, line);
	int dirty = llc_inval_cores(sim, socket, e, w1, w2);
	static const int vidx[] = { [SIM_M] = 0, [SIM_E] = 1, [SIM_S] = 2, [SIM_F] = 3 };

	if (dirty)
		st = SIM_M;
	tally_add(&sim->evicts, SIM_EVICT_CELL(slice, vidx[st], home));
	if (dirty)
		write_home(sim, socket, line);
}

/* What a snoop does to the line it found in way i of a socket's slice (st:
 * its LLC state); returns the state the socket held it in.  Apart from the
 * snoop's lookup: the path of a miss keeps fewer values live. */
static __attribute__((noinline, cold)) int snoop_found(struct pmon_sim *sim, int socket,
							const struct sim_set *set, int i, int st,
							int inval)
{
	uint64_t line = e_line(set->e[i]);

	if (inval)
		return llc_drop(sim, socket, set, i) ? SIM_M : st;
	if (st == SIM_E || st == SIM_M) {
		unsigned cv = e_cv(set->e[i]);
		while (cv) {
			int k = __builtin_ctz(cv);
			cv &= cv - 1;
			if (sim_core_snoop(&sim->pcore[socket * sim->shape.cores + k], line,
					   SIM_S) == SIM_M)
				st = SIM_M;
		}
	}
	set_st(set, i, SIM_S);
	return st;
}

/* Another socket's snoop of a line (home snoop): the lookup it makes in
 * that socket's slice, and the state the socket held it in (M when dirty
 * anywhere in it).  inval: the line leaves the socket; else it stays
 * Shared there. */
SIM_HOT int socket_snoop(struct pmon_sim *sim, int socket, const struct sim_at *a, int inval)
{
	struct sim_socket *s = &sim->sock[socket];
	uint64_t line = a->line;
	unsigned slice = a->slice;
	struct sim_set set;
	int i = -1, st;

	if (s->llc_valid) {               /* an empty LLC answers without a look */
		set = cache_set(&s->llc[slice], line);
		i = set_find(&set, line);
	}
	st = i >= 0 ? e_st(set.e[i]) : SIM_I;
	s->slice_truth[slice].snoops++;
	sim_cbo_lookup(sim, &s->cbo[slice], SIM_LOOKUP_SNOOP, st, nid_of(sim, a->home), 1);
	if (i >= 0)
		st = snoop_found(sim, socket, &set, i, st, inval);
	sim_cbo_snoop_rsp(sim, &s->cbo[slice], st, inval, a->home == socket, 1);
	return st;
}

/* A read found the line Modified in socket o, which forwards it Shared:
 * the data also go to memory at the home. */
static __attribute__((noinline, cold)) void hitm_to_memory(struct pmon_sim *sim, int home, int o,
							   uint64_t line)
{
	if (o != home)
		qpi_msg(sim, o, home, line, SIM_QPI_DRS);
	ha_request(sim, home, o, SIM_HA_WRITE);
	dram_write(sim, home, line);
}

/* The home agent serves an LLC miss (or an ownership upgrade: no data) of
 * socket r.  Fills r->supplier, rsp_sup, rsp_snoop, hitm; returns 1 when
 * another socket keeps a copy (the requester's line is then Forward), 2
 * when the data arrived Modified (RFO forwarded from a Modified copy). */
SIM_HOT int ha_read(struct pmon_sim *sim, int req, const struct sim_at *a, int rfo, int need_data,
		   struct sim_llc_res *r, int nsock)
{
	uint64_t line = a->line;
	int home = a->home, local = home == req;
	int fwd = -1, shared = 0, hitm = 0, snooped = 0;
	struct sim_socket *h = &sim->sock[home];

	ha_request(sim, home, req, SIM_HA_READ);
	if (!local)
		qpi_msg(sim, req, home, line, SIM_QPI_HOM_REQ);
	for (int k = 1; k < nsock; k++) {
		int o = k - 1 + (k - 1 >= req);       /* the others, in ascending order */
		snooped = 1;
		if (o != home)
			qpi_msg(sim, home, o, line, SIM_QPI_SNP);
		int st = socket_snoop(sim, o, a, rfo);
		if (st == SIM_M) {
			hitm = 1;
			fwd = o;
			if (!rfo)
				hitm_to_memory(sim, home, o, line);
		} else if ((st == SIM_E || st == SIM_F) && fwd < 0) {
			fwd = o;
		} else if (st == SIM_S) {
			shared = 1;
		}
		if (o != home)
			qpi_msg(sim, o, home, line, SIM_QPI_HOM_NONREQ);
	}
	r->hitm = hitm;
	r->rsp_sup = local ? SIM_RSP_LOCAL_DRAM : SIM_RSP_REMOTE_DRAM;
	if (fwd >= 0 && need_data) {
		qpi_msg(sim, fwd, req, line, SIM_QPI_DRS);
		if (!local)
			qpi_msg(sim, home, req, line, SIM_QPI_NDR);
		r->supplier = PMON_SIM_SUP_RCACHE;
		r->rsp_snoop = hitm ? SIM_RSP_SNOOP_HITM : SIM_RSP_SNOOP_FWD;
		if (!rfo)
			shared = 1;
	} else if (need_data) {
		h->ha_truth.imc_reads++;
		dram_access(sim, home, local_line(sim, line, home), 0);
		sim_ha_txr_bl(sim, &h->ha, !local, 1);
		if (!local)
			qpi_msg(sim, home, req, line, SIM_QPI_DRS);
		r->supplier = local ? PMON_SIM_SUP_DRAM : PMON_SIM_SUP_RDRAM;
		r->rsp_snoop = !snooped ? SIM_RSP_SNOOP_NOT_NEEDED
			     : (shared || fwd >= 0) ? SIM_RSP_SNOOP_NO_FWD : SIM_RSP_SNOOP_MISS;
	} else {                          /* ownership only: a completion */
		if (!local)
			qpi_msg(sim, home, req, line, SIM_QPI_NDR);
	}
	if (rfo)
		return hitm ? 2 : 0;
	return shared ? 1 : 0;
}

/* 1 when no other socket holds line (the home snoop would find nothing). */
SIM_HOT int snoops_miss(struct pmon_sim *sim, int req, const struct sim_at *a)
{
	/* the others whose LLC holds any line, in any order */
	for (uint32_t o = sim->llc_busy & ~(1u << req); o; o &= o - 1) {
		struct sim_set set = cache_set(&sim->sock[__builtin_ctz(o)].llc[a->slice], a->line);
		if (set_find(&set, a->line) >= 0)
			return 0;
	}
	return 1;
}

/* A clean read by socket req: its counts tallied (the caller does the DRAM
 * access: its bank's open row depends on the order of accesses); fills r. */
SIM_HOT void clean_read(struct pmon_sim *sim, int req, const struct sim_at *a, int rfo,
			struct sim_llc_res *r, int nsock)
{
	int home = a->home, local = home == req;

	tally_add(&sim->clean, SIM_CLEAN_CELL(home, a->slice, a->line & 1, rfo));
	r->hitm = 0;
	r->clean = 1;
	r->supplier = local ? PMON_SIM_SUP_DRAM : PMON_SIM_SUP_RDRAM;
	r->rsp_sup = clean_rsp_sup(local);
	r->rsp_snoop = clean_rsp_snoop(nsock);
}

/* Room in an LLC set of socket x->sock (slice) for a missed line: its
 * victim entry ve evicted, or an empty lane taken. */
SIM_HOT void llc_room(struct sim_ctx *x, unsigned slice, uint64_t ve, uint32_t w1, uint32_t w2)
{
	struct pmon_sim *sim = x->sim;

	if (ve)
		llc_evict(sim, x->sock, slice, ve, w1, w2);
	else if (!sim->sock[x->sock].llc_valid++)
		sim->llc_busy |= 1u << x->sock;
}


static const uint64_t hit_bits[] = {
	[SIM_M] = SIM_RSP_LLC_HITM, [SIM_E] = SIM_RSP_LLC_HITE,
	[SIM_S] = SIM_RSP_LLC_HITS, [SIM_F] = SIM_RSP_LLC_HITF,
};

/* An LLC request other than a clean read (llc_request): a hit, or a miss
 * that another socket's copy or the home snoop concerns (at: the line and
 * where it lives, e: its LLC set, i: its lane there or -1).  ways, nsock: the
 * LLC's way count and the sockets; w1, w2: the cores' L1 and L2 way counts
 * (w1, w2 and nsock constants in the AVX-512 copy). */
SIM_HOT void llc_rest(struct sim_ctx *x, const struct sim_at *at, uint64_t *e, int i, int rfo,
		      struct sim_llc_res *r, uint32_t ways, int nsock, uint32_t w1, uint32_t w2)
{
	struct pmon_sim *sim = x->sim;
	struct sim_socket *s = &sim->sock[x->sock];
	struct sim_at a = *at;
	uint64_t line = a.line;
	unsigned slice = a.slice;
	struct sim_set set = { e, ways };
	struct pmon_sim_slice_truth *st = &s->slice_truth[slice];
	unsigned me = 1u << x->lcore, opc = rfo ? SIM_OPC_RFO : SIM_OPC_DRD;
	int state = i >= 0 ? e_st(set.e[i]) : SIM_I;

	r->hitm = 0;
	r->clean = 0;
	if (i >= 0) {
		unsigned others = e_cv(set.e[i]) & ~me;
		int nid = nid_of(sim, a.home);
		int hit = 0, hitm = 0, snooped = others != 0, miss = 0;
		st->lookups++;
		st->tor_inserts++;
		sim_cbo_lookup(sim, &s->cbo[slice], SIM_LOOKUP_READ, state, nid, 1);
		st->hits++;
		if (rfo || state == SIM_E || state == SIM_M) {
			while (others) {
				int k = __builtin_ctz(others);
				others &= others - 1;
				int cs = sim_core_snoop(&sim->pcore[x->sock * sim->shape.cores + k],
							line, rfo ? SIM_I : SIM_S);
				if (cs == SIM_M)
					hitm = 1;
				else if (cs != SIM_I)
					hit = 1;
			}
		} else {
			snooped = 0;          /* S/F: the cores hold it Shared, no snoop */
		}
		if (hitm) {
			st->hitm++;
			set_st(&set, i, SIM_M);       /* the data came back into the LLC */
		}
		r->hitm = hitm;
		r->rsp_sup = hit_bits[state];
		r->rsp_snoop = hitm ? SIM_RSP_SNOOP_HITM : hit ? SIM_RSP_SNOOP_NO_FWD
			     : snooped ? SIM_RSP_SNOOP_MISS : SIM_RSP_SNOOP_NOT_NEEDED;
		int now = e_st(set.e[i]);
		if (rfo) {
			if (now == SIM_S || now == SIM_F) {
				/* other sockets may share it: ownership from the home */
				struct sim_llc_res o;
				miss = 1;
				st->tor_misses++;
				ha_read(sim, x->sock, &a, 1, 0, &o, nsock);
				set_st(&set, i, SIM_E);
			}
			set_cv(&set, i, me);
			r->grant = SIM_M;
		} else {
			unsigned cv = e_cv(set.e[i]);
			int shared = hit || hitm || now == SIM_S || now == SIM_F || (cv & ~me);
			set_cv(&set, i, cv | me);
			r->grant = shared ? SIM_S : SIM_E;
		}
		set_touch(&set, i);
		r->supplier = PMON_SIM_SUP_LLC;
		sim_cbo_tor(sim, &s->cbo[slice], SIM_TOR_REQ, opc, miss, nid,
			    sim->occ_uclk[PMON_SIM_SUP_LLC], 1);
		return;
	}
	uint64_t ve = set.e[set_victim(&set)];
	int fill;
	llc_room(x, slice, ve, w1, w2);
	int nid = nid_of(sim, a.home);
	st->lookups++;
	st->tor_inserts++;
	st->misses++;
	st->tor_misses++;
	sim_cbo_lookup(sim, &s->cbo[slice], SIM_LOOKUP_READ, SIM_I, nid, 1);
	int how = ha_read(sim, x->sock, &a, rfo, 1, r, nsock);
	if (rfo) {
		fill = how == 2 ? SIM_M : SIM_E;
		r->grant = SIM_M;
	} else {
		fill = how ? SIM_F : SIM_E;
		r->grant = how ? SIM_S : SIM_E;
	}
	set_fill(&set, line, fill, me);
	sim_cbo_fill(sim, &s->cbo[slice], fill, 1);
	sim_cbo_tor(sim, &s->cbo[slice], SIM_TOR_REQ, opc, 1, nid, sim->occ_uclk[r->supplier], 1);
}

/* llc_rest out of line: the clean read's path (llc_request) keeps few
 * values live. */
static __attribute__((noinline)) void llc_rest_out(struct sim_ctx *x, const struct sim_at *a,
						   uint64_t *e, int i, int rfo, struct sim_llc_res *r)
{
	llc_rest(x, a, e, i, rfo, r, path_llcw(x->sim), path_sockets(x->sim), path_l1w(x->pc),
		 path_l2w(x->pc));
}

/* A core's request to its socket's LLC (rfo: for ownership), answered in
 * r.  The commonest, a clean read (a miss that no other socket holds: the
 * home reads DRAM), here; the rest in llc_rest (w1, w2, nsock: constants
 * in the AVX-512 copy). */
SIM_HOT void llc_request(struct sim_ctx *x, uint64_t line, int rfo, struct sim_llc_res *r,
			 uint32_t ways, uint32_t w1, uint32_t w2, int nsock)
{
	struct pmon_sim *sim = x->sim;
	struct sim_socket *s = &sim->sock[x->sock];
	struct sim_at a = line_at(sim, line);
	struct sim_set set = llc_set_w(s, a.slice, line, ways, sim->shape.cores);

	int i = set_find(&set, line);

	if (i >= 0 || !snoops_miss(sim, x->sock, &a)) {
		llc_rest_out(x, &a, set.e, i, rfo, r);
		return;
	}
	/* the fill first, then the eviction (it needs only the victim's
	 * entry, and nothing before reads what it changes: this socket's
	 * cores and DRAM), then the DRAM read, after a dirty victim's write
	 * as on the other paths */
	uint64_t ve = set.e[set_victim(&set)];
	clean_read(sim, x->sock, &a, rfo, r, nsock);
	set_fill(&set, line, SIM_E, 1u << x->lcore);
	r->grant = rfo ? SIM_M : SIM_E;
	llc_room(x, a.slice, ve, w1, w2);
	dram_access(sim, a.home, local_line(sim, line, a.home), 0);
}

static void sim_llc_request(struct sim_ctx *x, uint64_t line, int rfo, struct sim_llc_res *r)
{
	llc_request(x, line, rfo, r, path_llcw(x->sim), path_l1w(x->pc), path_l2w(x->pc),
		    path_sockets(x->sim));
}

/* A core's dirty L2 victim arrives (WbMtoI): the LLC copy becomes
 * Modified and the core's valid bit clears. */
static void sim_llc_writeback(struct sim_ctx *x, uint64_t line)
{
	struct pmon_sim *sim = x->sim;
	struct sim_socket *s = &sim->sock[x->sock];
	unsigned slice = sim_line_slice(line, sim->shape.cores);
	struct sim_set set = cache_set_w(&s->llc[slice], line, path_llcw(sim));
	int i = set_find(&set, line);
	int nid = nid_of(sim, sim_line_home(sim, line));

	s->slice_truth[slice].lookups++;
	s->slice_truth[slice].hits += i >= 0;
	s->slice_truth[slice].misses += i < 0;
	s->slice_truth[slice].writebacks++;
	s->slice_truth[slice].tor_inserts++;
	x->t->writebacks++;
	sim_cbo_lookup(sim, &s->cbo[slice], SIM_LOOKUP_WRITE, i >= 0 ? e_st(set.e[i]) : SIM_I, nid, 1);
	sim_cbo_tor(sim, &s->cbo[slice], SIM_TOR_WB, SIM_OPC_WBMTOI, 0, nid,
		    sim->occ_uclk[PMON_SIM_SUP_LLC], 1);
	sim_core_offcore(sim, x->cpu, SIM_RSP_WB, SIM_RSP_SUPPLIER_NONE,
				 SIM_RSP_SNOOP_NONE);
	if (i >= 0) {
		set_st(&set, i, SIM_M);
		set_cv(&set, i, e_cv(set.e[i]) & ~(1u << x->lcore));
	} else {
		write_home(sim, x->sock, line);   /* not reached: the LLC is inclusive */
	}
}

/* A streaming store: every cached copy goes, the full line (partial: part
 * of it, sim_nt_partial) is written at the home without being read. */
static void sim_llc_nt_write(struct sim_ctx *x, uint64_t line, int partial)
{
	struct pmon_sim *sim = x->sim;
	struct sim_socket *s = &sim->sock[x->sock];
	struct sim_at a = line_at(sim, line);
	unsigned slice = a.slice;
	struct sim_set set = cache_set(&s->llc[slice], line);
	int i = set_find(&set, line);
	int home = a.home, nid = nid_of(sim, home), local = home == x->sock;

	s->slice_truth[slice].lookups++;
	s->slice_truth[slice].hits += i >= 0;
	s->slice_truth[slice].misses += i < 0;
	s->slice_truth[slice].tor_inserts++;
	s->slice_truth[slice].tor_misses++;
	sim_cbo_lookup(sim, &s->cbo[slice], SIM_LOOKUP_WRITE, i >= 0 ? e_st(set.e[i]) : SIM_I, nid, 1);
	sim_core_snoop(x->pc, line, SIM_I);
	if (i >= 0)
		llc_drop(sim, x->sock, &set, i);       /* overwritten: no write-back */
	ha_request_uncached(sim, home, x->sock);
	if (!local) {
		qpi_msg(sim, x->sock, home, line, SIM_QPI_HOM_REQ);
		qpi_msg(sim, x->sock, home, line, SIM_QPI_DRS);
	}
	for (int o = 0; o < sim->shape.sockets; o++) {
		if (o == x->sock)
			continue;
		if (o != home)
			qpi_msg(sim, home, o, line, SIM_QPI_SNP);
		socket_snoop(sim, o, &a, 1);
		if (o != home)
			qpi_msg(sim, o, home, line, SIM_QPI_HOM_NONREQ);
	}
	dram_write_part(sim, home, line, partial);
	if (!local)
		qpi_msg(sim, home, x->sock, line, SIM_QPI_NDR);
	sim_cbo_tor(sim, &s->cbo[slice], SIM_TOR_REQ, partial ? SIM_OPC_WCIL : SIM_OPC_WCILF, 1, nid,
		    sim->occ_uclk[local ? PMON_SIM_SUP_DRAM : PMON_SIM_SUP_RDRAM], 1);
	/* (no data come back; the Nehalem matrix answers by the line's home) */
	sim_core_offcore(sim, x->cpu, SIM_RSP_STREAMING_STORES,
			 !sim->nhm ? SIM_RSP_SUPPLIER_NONE : local ? SIM_RSP_LOCAL_DRAM
				   : SIM_RSP_REMOTE_DRAM, SIM_RSP_SNOOP_NONE);
}

static void sim_llc_nt_store(struct sim_ctx *x, uint64_t line)
{
	sim_llc_nt_write(x, line, 0);
}

#pragma GCC visibility pop

#endif