/*
 * test_vnhm.c - the Nehalem-EP / Westmere-EP expectations (gen_nhm_*.c)
 * as pure functions of the case and the geometry: the events they program
 * (names as the catalogue spells them), the expected counts worked out by
 * hand in the comments, the guide's identity and erratum, the breakage
 * that must make them fail; and the SNB-EP chase from the same model.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"          /* ctests/check.h: the test harness */
#include "../vgen.h"
#include "../xchase.h"
#include "../xstream.h"

/* Events of a window on the general counters (not the fixed UCLK counter). */
static int general_events(const struct vxwin *w)
{
	int n = 0;
	for (int i = 0; i < w->nev; i++)
		n += strstr(w->ev[i].name, "UNC_CLK_UNHALTED") == NULL;
	return n;
}

static const int cpus[2] = { 0, 1 };

static struct vgeom geom(int gen)
{
	struct vgeom g;
	memset(&g, 0, sizeof(g));
	vgeom_nhm(&g, gen);
	g.pf_dis = 0xf;               /* prefetchers off: exact counts */
	g.lat_ns[VSUP_DRAM] = 90;
	g.lat_ns[VSUP_RDRAM] = 150;
	g.lat_ns[VSUP_LLC] = 15;
	return g;
}

static const struct vxck *find(const struct vxset *x, const char *what, int *win)
{
	for (int i = 0; i < x->nw; i++)
		for (int j = 0; j < x->w[i].nck; j++)
			if (strcmp(x->w[i].ck[j].what, what) == 0) {
				if (win)
					*win = i;
				return &x->w[i].ck[j];
			}
	return NULL;
}

/* The name of the first event of a check. */
static const char *ev0(const struct vxset *x, int win, const struct vxck *k)
{
	return x->w[win].ev[k->ev[0]].name;
}

static void want_sum(const struct vxset *x, const char *what, double expected, const char *event)
{
	int w = -1;
	const struct vxck *k = find(x, what, &w);
	CHECK(k != NULL, "%s: a check", what);
	if (!k)
		return;
	CHECK(k->kind == VX_SUM || k->kind == VX_DIFF || k->kind == VX_QUOT, "%s: kind %d", what,
	      k->kind);
	CHECK(k->expected == expected, "%s: expected %g, want %g", what, k->expected, expected);
	if (event)
		CHECK(strcmp(ev0(x, w, k), event) == 0, "%s: event %s, want %s", what, ev0(x, w, k), event);
}

static void want_zero(const struct vxset *x, const char *what)
{
	const struct vxck *k = find(x, what, NULL);
	CHECK(k != NULL, "%s: a check", what);
	if (k)
		CHECK((k->kind == VX_ZERO || k->kind == VX_DIFF) && k->expected == 0,
		      "%s: kind %d expected %g, want 0", what, k->kind, k->expected);
}

static struct stream_case scase(enum stream_kernel sk, int nt, int home, uint64_t elems)
{
	struct stream_case k;
	memset(&k, 0, sizeof(k));
	snprintf(k.kname, sizeof(k.kname), "stream-test");
	k.k = sk;
	k.nt = nt;
	k.home = home;
	k.req = 0;
	k.elems = elems;
	k.threads = 2;
	k.cpus = cpus;
	return k;
}

/* Copy over L = 4096 lines (32768 elements) a array, local, ordinary
 * stores: a read + c's RFO = 8192 IMC reads, all of them local home reads;
 * 4096 full-line writes, all write-backs of modified lines of local cores;
 * the identity (QHL reads - IMC reads) 0.  The quarter window: 1024 lines
 * an array, 2048 reads and 1024 writes over 3 channels. */
static void test_stream_local(void)
{
	struct vgeom g = geom(VG_NHMEP);
	struct stream_case k = scase(SK_COPY, 0, 0, 32768);
	struct vxset *x = malloc(sizeof(*x));
	CHECK_EQ_INT(nhm_stream(&g, &k, x), 0, "nhm_stream copy");
	CHECK_EQ_INT(x->nw, 2, "copy: the main window and the channels' quarter");
	want_sum(x, "IMC_NORMAL_READS.ANY s0", 8192, "nhm_unc::UNC_IMC_NORMAL_READS:ANY:socket=0");
	want_sum(x, "IMC_WRITES.FULL.ANY s0", 4096, "nhm_unc::UNC_IMC_WRITES:FULL_ANY:socket=0");
	want_sum(x, "QHL_REQUESTS.LOCAL_READS s0", 8192, "nhm_unc::UNC_QHL_REQUESTS:LOCAL_READS:socket=0");
	want_sum(x, "QHL_REQUESTS.LOCAL_WRITES s0", 4096,
		 "nhm_unc::UNC_QHL_REQUESTS:LOCAL_WRITES:socket=0");
	want_zero(x, "QHL_REQUESTS.REMOTE_READS s0");
	want_zero(x, "QHL_REQUESTS.REMOTE_WRITES s0");
	want_zero(x, "uncacheable writes (QHL_RD local+remote - IMC_RD) s0");
	const struct vxck *id = find(x, "uncacheable writes (QHL_RD local+remote - IMC_RD) s0", NULL);
	if (id) {
		CHECK_EQ_INT(id->n, 2, "identity: two QHL read counts added");
		CHECK_EQ_INT(id->nden, 1, "identity: the IMC reads subtracted");
		CHECK(strcmp(x->w[0].ev[id->den[0]].name, "nhm_unc::UNC_IMC_NORMAL_READS:ANY:socket=0") == 0,
		      "identity subtracts %s", x->w[0].ev[id->den[0]].name);
	}
	CHECK(find(x, "OFFCORE OTHER.OTHER_CORE_HIT_SNP (0x280) streaming stores, kernel CPUs", NULL) ==
	      NULL, "ordinary stores: no erratum check");
	/* the quarter: 2048 reads / 3 a channel; 64 lines a page over 3
	 * channels: up to one line a page, 32 pages of reads: 32 / 682.67 */
	int w;
	const struct vxck *c0 = find(x, "IMC_NORMAL_READS.CH0 s0 (quarter)", &w);
	CHECK(c0 && fabs(c0->expected - 2048.0 / 3) < 1e-9, "CH0 quarter reads %g",
	      c0 ? c0->expected : -1);
	CHECK(c0 && w == 1 && x->w[1].units == 8192, "quarter window: %llu elements",
	      c0 ? (unsigned long long)x->w[1].units : 0ull);
	CHECK(c0 && fabs(c0->b.hi - (1 + 32 / (2048.0 / 3))) < 1e-12 && c0->b.lo < 1,
	      "CH0: band %g..%g", c0 ? c0->b.lo : 0, c0 ? c0->b.hi : 0);
	want_sum(x, "IMC_WRITES.FULL.CH2 s0 (quarter)", 1024.0 / 3,
		 "nhm_unc::UNC_IMC_WRITES:FULL_CH2:socket=0");
	/* 8 general counters a socket (the fixed UCLK counter apart: the
	 * latency metrics' UNCORE_FREQUENCY) */
	int g0 = general_events(&x->w[0]), g1 = general_events(&x->w[1]);
	CHECK(g0 <= 8 && g1 <= 8, "8 counters: %d and %d events", g0, g1);
	free(x);
}

/* Copy with streaming stores: a read only (4096); the home's reads add an
 * InvItoE a line streamed (8192); no LOCAL_WRITES (uncached lines); the
 * identity gives the 4096 lines streamed; the erratum: the 4096 stores
 * under 0x280 (main window), none under 0x4080 (quarter); with the erratum
 * off, the other way round. */
static void test_stream_nt(void)
{
	struct vgeom g = geom(VG_NHMEP);
	struct stream_case k = scase(SK_COPY, 1, 0, 32768);
	struct vxset *x = malloc(sizeof(*x));
	CHECK_EQ_INT(nhm_stream(&g, &k, x), 0, "nhm_stream copy-nt");
	want_sum(x, "IMC_NORMAL_READS.ANY s0", 4096, NULL);
	want_sum(x, "QHL_REQUESTS.LOCAL_READS s0", 8192, NULL);
	want_zero(x, "QHL_REQUESTS.LOCAL_WRITES s0");
	want_sum(x, "uncacheable writes (QHL_RD local+remote - IMC_RD) s0", 4096, NULL);
	want_sum(x, "OFFCORE OTHER.OTHER_CORE_HIT_SNP (0x280) streaming stores, kernel CPUs", 4096,
		 "nhm::OFFCORE_RESPONSE_0:OTHER:OTHER_CORE_HIT_SNP:cpu=0");
	want_zero(x, "OFFCORE OTHER.LOCAL_DRAM (0x4080) streaming stores, kernel CPUs");
	const struct vxck *e = find(x, "OFFCORE OTHER.OTHER_CORE_HIT_SNP (0x280) streaming stores, kernel CPUs",
				    NULL);
	CHECK(e && e->n == 2 && strstr(e->why, "KNOWN erratum"), "erratum check on both threads' CPUs, "
	      "named: %s", e ? e->why : "");
	g.nt_erratum = 0;
	CHECK_EQ_INT(nhm_stream(&g, &k, x), 0, "nhm_stream copy-nt, erratum off");
	want_zero(x, "OFFCORE OTHER.OTHER_CORE_HIT_SNP (0x280) streaming stores, kernel CPUs");
	want_sum(x, "OFFCORE OTHER.LOCAL_DRAM (0x4080) streaming stores, kernel CPUs", 1024,
		 "nhm::OFFCORE_RESPONSE_0:OTHER:LOCAL_DRAM:cpu=0");
	/* Westmere-EP: its PMUs, and local DRAM is response bit 0x1000 */
	g = geom(VG_WSMEP);
	CHECK_EQ_INT(nhm_stream(&g, &k, x), 0, "wsm_stream copy-nt");
	want_sum(x, "IMC_NORMAL_READS.ANY s0", 4096, "wsm_unc::UNC_IMC_NORMAL_READS:ANY:socket=0");
	want_sum(x, "OFFCORE OTHER.OTHER_CORE_HIT_SNP (0x280) streaming stores, kernel CPUs", 4096,
		 "wsm_dp::OFFCORE_RESPONSE_0:OTHER:OTHER_CORE_HIT_SNP:cpu=0");
	want_zero(x, "OFFCORE OTHER.LOCAL_DRAM_AND_REMOTE_CACHE_HIT (0x1080) streaming stores, kernel CPUs");
	free(x);
}

/* The remote Triad: memory on socket 1, threads on 0: b, c and a's RFO
 * read at the home (12288 = 3 x 4096), all remote requests; a written
 * back over QPI (remote writes 4096); nothing local at the home and no
 * DRAM access at the requester. */
static void test_stream_remote(void)
{
	struct vgeom g = geom(VG_NHMEP);
	struct stream_case k = scase(SK_TRIAD, 0, 1, 32768);
	struct vxset *x = malloc(sizeof(*x));
	CHECK_EQ_INT(nhm_stream(&g, &k, x), 0, "nhm_stream remote triad");
	want_sum(x, "IMC_NORMAL_READS.ANY s1", 12288, "nhm_unc::UNC_IMC_NORMAL_READS:ANY:socket=1");
	want_sum(x, "QHL_REQUESTS.REMOTE_READS s1 (home)", 12288,
		 "nhm_unc::UNC_QHL_REQUESTS:REMOTE_READS:socket=1");
	want_sum(x, "QHL_REQUESTS.REMOTE_WRITES s1 (home)", 4096, NULL);
	want_zero(x, "QHL_REQUESTS.LOCAL_READS s1 (home)");
	want_zero(x, "QHL_REQUESTS.LOCAL_WRITES s1 (home)");
	want_zero(x, "IMC_NORMAL_READS+IMC_WRITES s0 (requester)");
	want_zero(x, "uncacheable writes (QHL_RD local+remote - IMC_RD) s1");
	free(x);
}

/* Breakage: --break=umask programs Copy's reads with the writes' event
 * (marked broken), --break=socket the home's events on the requester; the
 * checks that read them are the ones that must FAIL. */
static void test_stream_break(void)
{
	struct vgeom g = geom(VG_NHMEP);
	struct stream_case k = scase(SK_COPY, 0, 0, 32768);
	struct vxset *x = malloc(sizeof(*x));
	k.brk = VB_UMASK;
	CHECK_EQ_INT(nhm_stream(&g, &k, x), 0, "copy, --break=umask");
	int w;
	const struct vxck *r = find(x, "IMC_NORMAL_READS.ANY s0", &w);
	CHECK(r && strcmp(ev0(x, w, r), "nhm_unc::UNC_IMC_WRITES:FULL_ANY:socket=0") == 0 &&
	      x->w[w].ev[r->ev[0]].broken, "umask break: reads counted with %s", r ? ev0(x, w, r) : "?");
	int broken = 0;
	for (int i = 0; i < x->w[0].nev; i++)
		broken += x->w[0].ev[i].broken;
	CHECK_EQ_INT(broken, 1, "umask break: one event broken");
	k = scase(SK_TRIAD, 0, 1, 32768);
	k.brk = VB_SOCKET;
	CHECK_EQ_INT(nhm_stream(&g, &k, x), 0, "remote triad, --break=socket");
	r = find(x, "QHL_REQUESTS.REMOTE_READS s1 (home)", &w);
	CHECK(r && strstr(ev0(x, w, r), ":socket=0") && x->w[w].ev[r->ev[0]].broken,
	      "socket break: home reads counted on %s", r ? ev0(x, w, r) : "?");
	free(x);
}

static struct chase_case ccase(enum chase_level l, int home)
{
	struct chase_case k;
	memset(&k, 0, sizeof(k));
	k.lvl = l;
	k.home = home;
	k.cpu = 2;
	k.hops = 1u << 20;
	k.planning = 1;               /* no layout: no conflicting sets */
	return k;
}

/* The memory set (8 x 8 MiB), local: each hop an LLC lookup that misses,
 * a DRAM read and a local home read, answered by local DRAM; the home read
 * lives the DRAM latency: 90 ns x 2.66 GHz = 239.4 -> 239 UCLK. */
static void test_chase_mem(void)
{
	struct vgeom g = geom(VG_NHMEP);
	struct chase_case k = ccase(CL_MEM, 0);
	struct vxset *x = malloc(sizeof(*x));
	CHECK_EQ_INT(nhm_chase(&g, &k, x), 0, "nhm_chase mem");
	want_sum(x, "LLC_HITS.READ+LLC_MISS.READ s0", 1, "nhm_unc::UNC_LLC_HITS:READ:socket=0");
	want_sum(x, "LLC_MISS.READ s0", 1, "nhm_unc::UNC_LLC_MISS:READ:socket=0");
	want_sum(x, "IMC_NORMAL_READS.ANY s0", 1, NULL);
	want_sum(x, "QHL_REQUESTS.LOCAL_READS s0", 1, NULL);
	want_sum(x, "QHL_OCCUPANCY.LOCAL/QHL_REQUESTS.LOCAL_READS s0 latency", 239,
		 "nhm_unc::UNC_QHL_OCCUPANCY:LOCAL:socket=0");
	want_sum(x, "OFFCORE DMND_DATA_RD.LOCAL_DRAM cpu2", 1,
		 "nhm::OFFCORE_RESPONSE_0:DMND_DATA_RD:LOCAL_DRAM:cpu=2");
	CHECK(find(x, "OFFCORE DMND_DATA_RD.UNCORE_HIT cpu2", NULL) == NULL,
	      "Nehalem: one response MSR, the memory set counts DRAM's answer only");
	const struct vxck *m = find(x, "LLC_MISS.READ s0", NULL);
	CHECK(m && m->per == (double)(1u << 20), "per hop: %g", m ? m->per : 0);
	/* remote: the home's reads are remote requests; no latency check */
	k = ccase(CL_MEM, 1);
	CHECK_EQ_INT(nhm_chase(&g, &k, x), 0, "nhm_chase mem remote");
	want_sum(x, "QHL_REQUESTS.REMOTE_READS s1 (home)", 1,
		 "nhm_unc::UNC_QHL_REQUESTS:REMOTE_READS:socket=1");
	want_sum(x, "LLC_MISS.READ s0", 1, NULL);
	want_sum(x, "OFFCORE DMND_DATA_RD.REMOTE_DRAM cpu2", 1, NULL);
	CHECK(find(x, "QHL_OCCUPANCY.LOCAL/QHL_REQUESTS.LOCAL_READS s1 latency", NULL) == NULL,
	      "remote: no local latency");
	free(x);
}

/* The LLC set (LLC/4 = 2 MiB, 8 x the 256 KiB L2): a lookup a hop that
 * hits, answered by the LLC (UNCORE_HIT), no miss, no DRAM read; the L1
 * set: nothing leaves the core.  Westmere counts both responses. */
static void test_chase_levels(void)
{
	struct vgeom g = geom(VG_NHMEP);
	struct chase_case k = ccase(CL_LLC, 0);
	struct vxset *x = malloc(sizeof(*x));
	CHECK_EQ_INT(nhm_chase(&g, &k, x), 0, "nhm_chase llc");
	want_sum(x, "LLC_HITS.READ+LLC_MISS.READ s0", 1, NULL);
	want_zero(x, "LLC_MISS.READ s0");
	want_zero(x, "IMC_NORMAL_READS.ANY s0");
	want_sum(x, "OFFCORE DMND_DATA_RD.UNCORE_HIT cpu2", 1,
		 "nhm::OFFCORE_RESPONSE_0:DMND_DATA_RD:UNCORE_HIT:cpu=2");
	k = ccase(CL_L1, 0);
	CHECK_EQ_INT(nhm_chase(&g, &k, x), 0, "nhm_chase l1");
	want_zero(x, "LLC_HITS.READ+LLC_MISS.READ s0");
	want_zero(x, "QHL_REQUESTS.LOCAL_READS s0");
	CHECK_EQ_INT(vx_count(x), 5, "l1: lookups, misses, DRAM, home reads, one response");
	g = geom(VG_WSMEP);
	k = ccase(CL_LLC, 0);
	CHECK_EQ_INT(nhm_chase(&g, &k, x), 0, "wsm_chase llc");
	want_sum(x, "OFFCORE DMND_DATA_RD.UNCORE_HIT cpu2", 1,
		 "wsm_dp::OFFCORE_RESPONSE_0:DMND_DATA_RD:UNCORE_HIT:cpu=2");
	want_zero(x, "OFFCORE DMND_DATA_RD.LOCAL_DRAM_AND_REMOTE_CACHE_HIT cpu2");
	const struct vxck *d = find(x, "OFFCORE DMND_DATA_RD.LOCAL_DRAM_AND_REMOTE_CACHE_HIT cpu2", NULL);
	CHECK(d && strncmp(x->w[0].ev[d->ev[0]].name, "wsm_dp::OFFCORE_RESPONSE_1:", 27) == 0,
	      "Westmere: the DRAM response on RSP_1");
	free(x);
}

/* The same model under both generations: the SNB-EP chase of the memory
 * set (20 MiB LLC, 8 slices) expects the same per hop as Nehalem's. */
static void test_one_model(void)
{
	struct vgeom n = geom(VG_NHMEP), s;
	memset(&s, 0, sizeof(s));
	s.sockets = 2;
	s.cores = 8;
	s.channels = 4;
	s.llc_bytes = 20u << 20;
	s.l1_bytes = 32u << 10;
	s.l2_bytes = 256u << 10;
	s.l1_ways = s.l2_ways = 8;
	s.llc_ways = 20;
	s.pf_dis = 0xf;
	struct chase_case k = ccase(CL_MEM, 0);
	struct vxset *x = malloc(sizeof(*x));
	CHECK_EQ_INT(snbep_chase(&s, &k, x), 0, "snbep_chase mem");
	want_sum(x, "TOR_INSERTS.MISS_OPCODE(DRd) s0", 1,
		 "snbep_unc_cbo0::UNC_C_TOR_INSERTS:MISS_OPCODE:OPC_DRD:socket=0");
	want_sum(x, "CAS_COUNT.RD s0 all ch", 1, NULL);
	CHECK_EQ_INT(nhm_chase(&n, &k, x), 0, "nhm_chase mem");
	want_sum(x, "LLC_MISS.READ s0", 1, NULL);
	/* one slice: every line's slice is 0 */
	CHECK_EQ_INT(vgeom_llc_slice(&n, 0x12345640), 0, "Nehalem: no slices");
	CHECK_EQ_INT(vgeom_slices(&n), 1, "Nehalem: one LLC");
	CHECK_EQ_INT(vgeom_slices(&s), 8, "SNB-EP: a slice a core");
	free(x);
}

int main(void)
{
	test_stream_local();
	test_stream_nt();
	test_stream_remote();
	test_stream_break();
	test_chase_mem();
	test_chase_levels();
	test_one_model();
	return check_done("test_vnhm");
}
