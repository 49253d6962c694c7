/*
 * gen_nhm_share.c - sharing between cores and between sockets on the
 * Nehalem-EP / Westmere-EP uncore, as data (vspec.h): the ping-pong of one
 * line between two cores of a socket and between two sockets, a load and
 * a store a turn (exp_share.c).  The protocol's steps are SNB-EP's
 * (gen_snbep_share.c); here they are counted as this generation's events:
 * the offcore response's supplier (one request type a window: Nehalem has
 * one OFFCORE_RESPONSE a core), the LLC's lookups, the snoop responses the
 * snooped socket sends to the line's home (guide Tables 26 and 27: HITM
 * when the line was modified there, HIT when it was there clean) and the
 * transitions those snoops cause (UNC_GQ_SNOOP: GOTO_S for a read's snoop,
 * GOTO_I for an ownership request's), the LLC's victims by state.
 */
#include "vgen.h"
#include "vspec.h"

static const struct vband share_hwb = { 0.9, 1.5,
	"silicon: a spinning load may miss again while the other turn is in flight; OS traffic" };

/* Each event's name with its place as a format (the CPU's or the
 * socket's %d): ev[0..ncore) of the core PMU, the others of the uncore. */
static void names(const struct vgeom *g, const char *const *ev, int n, int ncore, char (*f)[112])
{
	for (int i = 0; i < n; i++)
		snprintf(f[i], sizeof(f[i]), "%s::%s:%s=%%d", i < ncore ? nhm_core_pmu(g) : nhm_unc_pmu(g),
			 ev[i], i < ncore ? "cpu" : "socket");
}

/* Two cores A, B of one socket.  Per round: A's load misses its L2 and hits
 * the LLC, B's copy is Modified: the supplier is another core, HITM; A's
 * store finds its copy Shared: an RFO to the LLC, which hits, B's clean
 * copy invalidated: OTHER_CORE_HIT_SNP; then B the same.  Every request
 * is a lookup that hits the LLC (READ: reads and RFOs): 4 a round, no miss,
 * nothing for the home (no QHL request), no other socket snooped. */
static int pp_core(const struct vgeom *g, const struct share_case *k, struct vxset *x)
{
	int s = k->local, rc;
	char f[8][112];
	static const char *const ev[8] = { "OFFCORE_RESPONSE_0:DMND_DATA_RD:OTHER_CORE_HITM",
					   "OFFCORE_RESPONSE_0:DMND_DATA_RD:OTHER_CORE_HIT_SNP",
					   "OFFCORE_RESPONSE_0:DMND_RFO:OTHER_CORE_HIT_SNP",
					   "UNC_LLC_HITS:READ", "UNC_LLC_MISS:READ",
					   "UNC_QHL_REQUESTS:LOCAL_READS", "UNC_SNP_RESP_TO_LOCAL_HOME:HITM",
					   "UNC_SNP_RESP_TO_LOCAL_HOME:HIT" };
	names(g, ev, 8, 3, f);
	const struct vspec_on on = { k->brk, k->hw, share_hwb, (double)k->rounds, "per round" };
	/* --break=snoop: B's reads counted as clean-copy hits */
	const struct vspec rd[] = {
		{ VS_ONE, f[0], k->a, 1, "OFFCORE DMND_DATA_RD.OTHER_CORE_HITM cpu A", VS_EXACT, VB_NONE,
		  NULL },
		{ VS_ONE, f[0], k->b, 1, "OFFCORE DMND_DATA_RD.OTHER_CORE_HITM cpu B", VS_EXACT, VB_SNOOP,
		  f[1] },
		{ VS_ONE, f[3], s, 4, "LLC_HITS.READ local", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, f[4], s, 0, "LLC_MISS.READ local", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, f[5], s, 0, "QHL_REQUESTS.LOCAL_READS local", VS_EXACT, VB_NONE, NULL },
	};
	const struct vspec rfo[] = {
		{ VS_ONE, f[2], k->a, 1, "OFFCORE DMND_RFO.OTHER_CORE_HIT_SNP cpu A", VS_EXACT, VB_NONE,
		  NULL },
		{ VS_ONE, f[2], k->b, 1, "OFFCORE DMND_RFO.OTHER_CORE_HIT_SNP cpu B", VS_EXACT, VB_NONE,
		  NULL },
		{ VS_ONE, f[6], s, 0, "SNP_RESP_TO_LOCAL_HOME.HITM local", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, f[7], s, 0, "SNP_RESP_TO_LOCAL_HOME.HIT local", VS_EXACT, VB_NONE, NULL },
	};
	if ((rc = vspec_win(g, x, "share-pingpong-core", 0, 0, rd, 5, &on)) != 0)
		return rc;
	return vspec_win(g, x, "share-pingpong-core", 0, 0, rfo, 4, &on);
}

/* A on the local socket L (the line's home), B on the remote socket R.
 * Per round: A's load misses L's LLC; R is snooped and finds the line
 * Modified in B: R answers the home (L: R's remote home) HITM, keeps the
 * line S (GOTO_S at R), A gets the data from R's cache (REMOTE_CACHE_HITM).
 * A's store: its copy Shared, L's LLC hits (F) and the home invalidates R's
 * shared copy: R answers HIT (S_STATE), GOTO_I at R.  B's load: R misses,
 * the home snoops its own socket, A's copy Modified: L answers its local
 * home HITM, GOTO_S at L, B's data from L's cache (REMOTE_CACHE_HITM);
 * B's store: R's LLC hits, the home invalidates L's shared copy: L answers
 * HIT, GOTO_I at L.  So a round: at L, SNP_RESP_TO_LOCAL_HOME HITM 1 and
 * HIT 1, to the remote home none; at R, SNP_RESP_TO_REMOTE_HOME HITM 1 and
 * HIT 1, to the local home none; GQ_SNOOP GOTO_S 1 and GOTO_I 1 at each. */
static int pp_socket(const struct vgeom *g, const struct share_case *k, struct vxset *x)
{
	int L = k->local, R = k->remote;
	char f[7][112];
	static const char *const ev[7] = { "OFFCORE_RESPONSE_0:DMND_DATA_RD:REMOTE_CACHE_HITM",
					   "UNC_SNP_RESP_TO_LOCAL_HOME:HITM", "UNC_SNP_RESP_TO_LOCAL_HOME:HIT",
					   "UNC_SNP_RESP_TO_REMOTE_HOME:HITM",
					   "UNC_SNP_RESP_TO_REMOTE_HOME:HIT", "UNC_GQ_SNOOP:GOTO_S",
					   "UNC_GQ_SNOOP:GOTO_I" };
	names(g, ev, 7, 1, f);
	const struct vspec_on on = { k->brk, k->hw, share_hwb, (double)k->rounds, "per round" };
	/* --break=snoop: the home's HITM responses counted as the remote
	 * home's (which the home never sees) */
	const struct vspec rows[] = {
		{ VS_ONE, f[0], k->a, 1, "OFFCORE DMND_DATA_RD.REMOTE_CACHE_HITM cpu A", VS_EXACT,
		  VB_NONE, NULL },
		{ VS_ONE, f[0], k->b, 1, "OFFCORE DMND_DATA_RD.REMOTE_CACHE_HITM cpu B", VS_EXACT,
		  VB_NONE, NULL },
		{ VS_ONE, f[1], L, 1, "SNP_RESP_TO_LOCAL_HOME.HITM home", VS_EXACT, VB_SNOOP, f[3] },
		{ VS_ONE, f[2], L, 1, "SNP_RESP_TO_LOCAL_HOME.HIT home", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, f[3], L, 0, "SNP_RESP_TO_REMOTE_HOME.HITM home", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, f[5], L, 1, "GQ_SNOOP.GOTO_S home", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, f[6], L, 1, "GQ_SNOOP.GOTO_I home", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, f[3], R, 1, "SNP_RESP_TO_REMOTE_HOME.HITM remote", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, f[4], R, 1, "SNP_RESP_TO_REMOTE_HOME.HIT remote", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, f[1], R, 0, "SNP_RESP_TO_LOCAL_HOME.HITM remote", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, f[5], R, 1, "GQ_SNOOP.GOTO_S remote", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, f[6], R, 1, "GQ_SNOOP.GOTO_I remote", VS_EXACT, VB_NONE, NULL },
	};
	return vspec_win(g, x, "share-pingpong-socket", 0, 0, rows, sizeof(rows) / sizeof(rows[0]),
			 &on);
}

/* The producer / consumer sequence (gen_snbep_share.c has it step by
 * step): at the home H, victims M n (w, written by the producer's core), S
 * n + nf (m and f, which the consumer's reads left shared), E the e lines
 * and the sweep's but those it leaves (share_pc_bands); the other socket
 * evicts nothing; the home writes m's n lines when the consumer's read
 * finds them Modified, and w's n victims: 2n full-line writes.  The
 * consumer's reads are snoops of H's LLC for lines homed there: m's find
 * the line Modified and H writes it back (SNP_RESP_TO_LOCAL_HOME.WB, n),
 * f's find it clean and exclusive, forwarded and kept shared (FWD_S_STATE,
 * nf); the consumer's reads of m are answered by H's cache, HITM
 * (REMOTE_CACHE_HITM, demand and prefetch alike). */
static int pc_all(const struct vgeom *g, const struct share_case *k, struct vxset *x)
{
	int H = k->local, R = k->remote, rc;
	double N = (double)k->n, NF = (double)k->nf;
	struct share_bands b;
	if (share_pc_bands(g, k, &b, x))
		return -1;
	char f[7][112];
	static const char *const ev[7] = { "UNC_LLC_LINES_OUT:M_STATE", "UNC_LLC_LINES_OUT:S_STATE",
					   "UNC_LLC_LINES_OUT:E_STATE", "UNC_LLC_LINES_OUT:ANY",
					   "UNC_IMC_WRITES:FULL_ANY", "UNC_SNP_RESP_TO_LOCAL_HOME:WB",
					   "UNC_SNP_RESP_TO_LOCAL_HOME:FWD_S_STATE" };
	names(g, ev, 7, 0, f);
	static const char *const off_ev[1] = { "OFFCORE_RESPONSE_0:DMND_DATA_RD:PF_DATA_RD:"
					       "REMOTE_CACHE_HITM" };
	char off[1][112];
	names(g, off_ev, 1, 1, off);
	const struct vspec_on on = { k->brk, k->hw, share_hwb, 1, "lines" };
	/* --break=victim: the M victims counted as E */
	const struct vspec w1[] = {
		{ VS_ONE, f[0], H, N, "LLC_LINES_OUT.M home", b.m, VB_VICTIM, f[2] },
		{ VS_ONE, f[1], H, N + NF, "LLC_LINES_OUT.S home", b.s, VB_NONE, NULL },
		{ VS_ONE, f[2], H, b.ev, "LLC_LINES_OUT.E home", b.e, VB_NONE, NULL },
		{ VS_ONE, f[3], R, 0, "LLC_LINES_OUT.ANY remote", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, f[4], H, 2 * N, "IMC_WRITES.FULL.ANY home", b.w, VB_NONE, NULL },
	};
	const struct vspec w2[] = {
		{ VS_ONE, f[5], H, N, "SNP_RESP_TO_LOCAL_HOME.WB home", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, f[6], H, NF, "SNP_RESP_TO_LOCAL_HOME.FWD_S_STATE home", VS_EXACT, VB_NONE,
		  NULL },
		{ VS_ONE, off[0], k->b, N, "OFFCORE DATA_RD.REMOTE_CACHE_HITM consumer", VS_EXACT, VB_NONE,
		  NULL },
	};
	if ((rc = vspec_win(g, x, "share-prodcons", 0, 1, w1, 5, &on)) != 0)
		return rc;
	return vspec_win(g, x, "share-prodcons", 0, 1, w2, 3, &on);
}

int nhm_share(const struct vgeom *g, const struct share_case *k, struct vxset *x)
{
	vx_init(x);
	switch (k->kind) {
	case SHARE_CORE: return pp_core(g, k, x);
	case SHARE_SOCKET: return pp_socket(g, k, x);
	default: return pc_all(g, k, x);
	}
}
