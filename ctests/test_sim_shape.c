/*
 * test_sim_shape.c - PMON_SIM shape strings: defaults, every key, the error
 * messages (clock and load included), the CPU numbering helpers, and the
 * process's current machine.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "sim_fixture.h"

static struct pmon_sim_shape sh;
static char err[512];

static int parse(const char *spec)
{
	return pmon_sim_shape_parse(spec, &sh, err, sizeof err);
}

static void defaults(void)
{
	CHECK_EQ_INT(parse(NULL), 0, "NULL spec");
	CHECK_EQ_INT(sh.sockets, 2, "default sockets");
	CHECK_EQ_INT(sh.cores, 8, "default cores");
	CHECK_EQ_INT(sh.threads, 2, "default threads");
	CHECK_EQ_INT(sh.channels, 4, "default channels");
	CHECK_EQ_U64(sh.llc_bytes, 20ull << 20, "default llc");
	CHECK_EQ_U64(sh.mem_bytes, 32ull << 30, "default mem");
	CHECK_EQ_U64(sh.dclk_hz, 800000000ull, "default dclk");
	CHECK_EQ_U64(sh.uclk_hz, 2700000000ull, "default uclk");
	CHECK_EQ_U64(sh.tsc_hz, 2700000000ull, "default tsc");
	CHECK_EQ_U64(sh.qclk_hz, 1000000000ull, "default qclk");
	CHECK_EQ_U64(sh.pclk_hz, 800000000ull, "default pclk");
	CHECK_EQ_INT(sh.nodeids[0], 0, "default nodeid 0");
	CHECK_EQ_INT(sh.nodeids[1], 1, "default nodeid 1");
	CHECK_EQ_INT(sh.clock, PMON_SIM_CLOCK_MANUAL, "default clock: manual");
	CHECK_EQ_U64(sh.load_bps, 0, "default load: none");
	CHECK_EQ_INT(parse(""), 0, "empty spec");
	CHECK_EQ_INT(sh.sockets, 2, "empty spec: defaults");
}

static void every_key(void)
{
	CHECK_EQ_INT(parse("sockets=4,cores=6,threads=1,channels=3,llc=15M,mem=8G,"
			   "dclk=933.333M,uclk=2.4G,tsc=2.9GHz,qclk=800M,pclk=1G,"
			   "nodeids=3,1,0,2"), 0, err);
	CHECK_EQ_INT(sh.sockets, 4, "sockets");
	CHECK_EQ_INT(sh.cores, 6, "cores");
	CHECK_EQ_INT(sh.threads, 1, "threads");
	CHECK_EQ_INT(sh.channels, 3, "channels");
	CHECK_EQ_U64(sh.llc_bytes, 15ull << 20, "llc");
	CHECK_EQ_U64(sh.mem_bytes, 8ull << 30, "mem");
	CHECK_EQ_U64(sh.dclk_hz, 933333000ull, "dclk with a fraction");
	CHECK_EQ_U64(sh.uclk_hz, 2400000000ull, "uclk");
	CHECK_EQ_U64(sh.tsc_hz, 2900000000ull, "tsc with Hz unit");
	CHECK_EQ_U64(sh.qclk_hz, 800000000ull, "qclk");
	CHECK_EQ_U64(sh.pclk_hz, 1000000000ull, "pclk");
	CHECK(sh.nodeids[0] == 3 && sh.nodeids[1] == 1 && sh.nodeids[2] == 0 &&
	      sh.nodeids[3] == 2, "nodeids 3,1,0,2");

	CHECK_EQ_INT(parse(" sockets = 1 , cores=2 "), 0, "spaces around keys");
	CHECK(sh.sockets == 1 && sh.cores == 2, "spaces parsed");
	CHECK_EQ_INT(parse("nodeids=1:0"), 0, "nodeids with ':'");
	CHECK(sh.nodeids[0] == 1 && sh.nodeids[1] == 0, "nodeids 1:0");
	CHECK_EQ_INT(parse("nodeids=5,2,cores=4"), 0, "nodeids followed by a key");
	CHECK(sh.nodeids[0] == 5 && sh.nodeids[1] == 2 && sh.cores == 4, "nodeids 5,2 then cores");
	CHECK_EQ_INT(parse("mem=1T,llc=2560K"), 0, "T and K suffixes");
	CHECK_EQ_U64(sh.mem_bytes, 1ull << 40, "mem=1T");
	CHECK_EQ_U64(sh.llc_bytes, 2560ull << 10, "llc=2560K");
	CHECK_EQ_INT(parse("mem=4096MB"), 0, "size with B unit");
	CHECK_EQ_U64(sh.mem_bytes, 4ull << 30, "mem=4096MB");
	CHECK_EQ_INT(parse("clock=wall,load=1.5G"), 0, err);
	CHECK_EQ_INT(sh.clock, PMON_SIM_CLOCK_WALL, "clock=wall");
	CHECK_EQ_U64(sh.load_bps, 1500000000ull, "load=1.5G (powers of ten)");
	CHECK_EQ_INT(parse("clock=auto,load=64K"), 0, err);
	CHECK_EQ_INT(sh.clock, PMON_SIM_CLOCK_AUTO, "clock=auto");
	CHECK_EQ_U64(sh.load_bps, 64000ull, "load=64K");
	CHECK_EQ_INT(parse("load=500MB/s, clock = manual"), 0, err);
	CHECK_EQ_INT(sh.clock, PMON_SIM_CLOCK_MANUAL, "clock=manual");
	CHECK_EQ_U64(sh.load_bps, 500000000ull, "load=500MB/s");
	CHECK_EQ_INT(parse("nodeids=1,0,load=0"), 0, "nodeids then load");
	CHECK_EQ_U64(sh.load_bps, 0, "load=0");
	CHECK_EQ_INT(parse("load=2G"), 0, "the highest load");
	CHECK_EQ_U64(sh.load_bps, PMON_SIM_LOAD_MAX, "load=2G is PMON_SIM_LOAD_MAX");
	CHECK_EQ_INT(parse("load=333333333"), 0, "load in plain bytes per second");
	CHECK_EQ_U64(sh.load_bps, 333333333ull, "load=333333333");
	CHECK_EQ_INT(parse("sockets=8,cores=1,threads=2,channels=1"), 0, "extremes");
	CHECK_EQ_INT(pmon_sim_ncpus(&sh), 16, "8x1x2 CPUs");
}

static void expect_error(const char *spec, const char *msg)
{
	int rc = parse(spec);
	CHECK(rc == -1, "'%s' accepted", spec);
	CHECK(strcmp(err, msg) == 0, "'%s': message\n  got  %s\n  want %s", spec, err, msg);
}

static void errors(void)
{
	expect_error("socket=2",
		     "PMON_SIM: unknown key 'socket' (expected sockets, cores, threads, channels, "
		     "llc, mem, dclk, uclk, tsc, qclk, pclk, nodeids, clock, load, noise, l1, l1ways, l2, "
		     "l2ways, llcways, prefetch, lat_l1, lat_l2, lat_llc, lat_dram, lat_rdram, "
		     "lat_rcache, gen, nt_erratum)");
	expect_error("cores=12", "PMON_SIM: cores=12 out of range 1..8");
	expect_error("sockets=0", "PMON_SIM: sockets=0 out of range 1..8");
	expect_error("sockets=9", "PMON_SIM: sockets=9 out of range 1..8");
	expect_error("threads=4", "PMON_SIM: threads=4 out of range 1..2");
	expect_error("channels=5", "PMON_SIM: channels=5 out of range 1..4");
	expect_error("llc=128M", "PMON_SIM: llc=128M out of range 64K..64M");
	expect_error("mem=1M", "PMON_SIM: mem=1M out of range 64M..4T");
	expect_error("dclk=50M", "PMON_SIM: dclk=50M out of range 100M..2G");
	expect_error("uclk=6G", "PMON_SIM: uclk=6G out of range 100M..5G");
	expect_error("tsc=10G", "PMON_SIM: tsc=10G out of range 100M..5G");
	expect_error("qclk=1K", "PMON_SIM: qclk=1K out of range 100M..5G");
	expect_error("pclk=3G", "PMON_SIM: pclk=3G out of range 100M..2G");
	expect_error("cores=abc", "PMON_SIM: bad value 'abc' for cores (expected an integer)");
	expect_error("cores=", "PMON_SIM: bad value '' for cores (expected an integer)");
	expect_error("dclk=800X",
		     "PMON_SIM: bad value '800X' for dclk (expected a frequency such as 800M or 2.7G)");
	expect_error("mem=1.5",
		     "PMON_SIM: bad value '1.5' for mem (expected a size such as 20M or 32G)");
	expect_error("mem=100000001",
		     "PMON_SIM: mem=100000001 is not a multiple of 64 bytes");
	expect_error("sockets", "PMON_SIM: expected key=value, got 'sockets'");
	expect_error("cores=2,cores=4", "PMON_SIM: key 'cores' given twice");
	expect_error("nodeids=1", "PMON_SIM: nodeids has 1 node ID, expected 2 (one per socket)");
	expect_error("sockets=1,nodeids=0,1",
		     "PMON_SIM: nodeids has 2 node IDs, expected 1 (one per socket)");
	expect_error("nodeids=1,1", "PMON_SIM: nodeids: node ID 1 used twice");
	expect_error("nodeids=8,0", "PMON_SIM: nodeids: bad node ID '8' (expected 0..7)");
	expect_error("nodeids=0,x", "PMON_SIM: nodeids: bad node ID 'x' (expected 0..7)");
	expect_error("clock=sometimes",
		     "PMON_SIM: bad value 'sometimes' for clock (expected manual, wall or auto)");
	expect_error("clock=",
		     "PMON_SIM: bad value '' for clock (expected manual, wall or auto)");
	expect_error("clock=walls",
		     "PMON_SIM: bad value 'walls' for clock (expected manual, wall or auto)");
	expect_error("clock=wall,clock=auto", "PMON_SIM: key 'clock' given twice");
	expect_error("load=-1",
		     "PMON_SIM: bad value '-1' for load (expected bytes per second such as 500M or 1G)");
	expect_error("load=abc",
		     "PMON_SIM: bad value 'abc' for load (expected bytes per second such as 500M or 1G)");
	expect_error("load=1GHz",
		     "PMON_SIM: bad value '1GHz' for load (expected bytes per second such as 500M or 1G)");
	expect_error("load=0.5",
		     "PMON_SIM: bad value '0.5' for load (expected bytes per second such as 500M or 1G)");
	expect_error("load=2000000001",
		     "PMON_SIM: load=2000000001 out of range 0..2G (the emulator models every line "
		     "of the stream; a faster one would take most of a CPU)");
	expect_error("load=10G",
		     "PMON_SIM: load=10G out of range 0..2G (the emulator models every line "
		     "of the stream; a faster one would take most of a CPU)");
	/* a failed parse leaves the caller's shape alone */
	sh.sockets = 77;
	parse("cores=99");
	CHECK_EQ_INT(sh.sockets, 77, "shape untouched on error");
	CHECK_EQ_INT(pmon_sim_shape_parse("bogus=1", &sh, NULL, 0), -1, "no error buffer");
}

/* The memory-hierarchy keys (include/pmon/sim.h, MEMORY HIERARCHY). */
static void cache_keys(void)
{
	CHECK_EQ_INT(parse(NULL), 0, "defaults");
	CHECK_EQ_U64(sh.l1_bytes, 32768, "l1 default 32K");
	CHECK_EQ_U64(sh.l2_bytes, 262144, "l2 default 256K");
	CHECK_EQ_INT(sh.l1_ways, 8, "l1ways default");
	CHECK_EQ_INT(sh.l2_ways, 8, "l2ways default");
	CHECK_EQ_INT(sh.llc_ways, 20, "llcways default");
	CHECK_EQ_INT(sh.prefetch, 0, "prefetch: MSR 0x1A4 0 by default (all four on, as silicon)");
	CHECK_EQ_INT((int)sh.lat_ns[PMON_SIM_SUP_L1], 2, "lat_l1");
	CHECK_EQ_INT((int)sh.lat_ns[PMON_SIM_SUP_L2], 5, "lat_l2");
	CHECK_EQ_INT((int)sh.lat_ns[PMON_SIM_SUP_LLC], 15, "lat_llc");
	CHECK_EQ_INT((int)sh.lat_ns[PMON_SIM_SUP_DRAM], 80, "lat_dram");
	CHECK_EQ_INT((int)sh.lat_ns[PMON_SIM_SUP_RDRAM], 130, "lat_rdram");
	CHECK_EQ_INT((int)sh.lat_ns[PMON_SIM_SUP_RCACHE], 110, "lat_rcache");
	CHECK_EQ_INT(parse("l1=16K,l1ways=4,l2=128K,l2ways=16,llc=1M,cores=2,llcways=16,prefetch=0x5,"
			   "lat_l1=1,lat_l2=3,lat_llc=11,lat_dram=70,lat_rdram=140,lat_rcache=99"),
		     0, "every cache key");
	CHECK_EQ_U64(sh.l1_bytes, 16384, "l1");
	CHECK_EQ_U64(sh.l2_bytes, 131072, "l2");
	CHECK_EQ_INT(sh.l1_ways, 4, "l1ways");
	CHECK_EQ_INT(sh.l2_ways, 16, "l2ways");
	CHECK_EQ_INT(sh.llc_ways, 16, "llcways");
	CHECK_EQ_INT(sh.prefetch, 5, "prefetch=0x5: MSR 0x1A4 value");
	CHECK_EQ_INT((int)sh.lat_ns[PMON_SIM_SUP_L1], 1, "lat_l1 set");
	CHECK_EQ_INT((int)sh.lat_ns[PMON_SIM_SUP_L2], 3, "lat_l2 set");
	CHECK_EQ_INT((int)sh.lat_ns[PMON_SIM_SUP_LLC], 11, "lat_llc set");
	CHECK_EQ_INT((int)sh.lat_ns[PMON_SIM_SUP_DRAM], 70, "lat_dram set");
	CHECK_EQ_INT((int)sh.lat_ns[PMON_SIM_SUP_RDRAM], 140, "lat_rdram set");
	CHECK_EQ_INT((int)sh.lat_ns[PMON_SIM_SUP_RCACHE], 99, "lat_rcache set");
	CHECK_EQ_INT(parse("prefetch=on"), 0, "prefetch=on");
	CHECK_EQ_INT(sh.prefetch, 0, "prefetch=on: MSR 0x1A4 0 (all four on)");
	CHECK_EQ_INT(parse("prefetch=off"), 0, "prefetch=off");
	CHECK_EQ_INT(sh.prefetch, 0xf, "prefetch=off: MSR 0x1A4 0xf");
	CHECK_EQ_INT(parse("prefetch=0XA"), 0, "prefetch=0XA");
	CHECK_EQ_INT(sh.prefetch, 0xa, "prefetch=0XA: hex, either case");
	expect_error("prefetch=0x10", "PMON_SIM: prefetch=0x10 out of range 0x0..0xf (MSR 0x1A4: "
		     "bit 0 L2 streamer, 1 L2 adjacent line, 2 DCU next line, 3 DCU IP stride; a "
		     "bit set turns it off)");
	expect_error("prefetch=1", "PMON_SIM: bad value '1' for prefetch (expected on, off or "
		     "the MSR 0x1A4 value 0x0..0xf)");
	expect_error("prefetch=0x", "PMON_SIM: bad value '0x' for prefetch (expected on, off or "
		     "the MSR 0x1A4 value 0x0..0xf)");
	expect_error("prefetch=0xg", "PMON_SIM: bad value '0xg' for prefetch (expected on, off or "
		     "the MSR 0x1A4 value 0x0..0xf)");
	expect_error("l1ways=0", "PMON_SIM: l1ways=0 out of range 1..32");
	expect_error("lat_dram=100001", "PMON_SIM: lat_dram=100001 out of range 0..100000");
	expect_error("l1=48K",
		     "PMON_SIM: l1=49152B with l1ways=8: size / (64 * ways) must be a power of two "
		     "(the number of sets)");
	expect_error("l2=256K,l2ways=3",
		     "PMON_SIM: l2=262144B with l2ways=3: size / (64 * ways) must be a power of two "
		     "(the number of sets)");
	expect_error("l1=64K,l2=32K,l2ways=4",
		     "PMON_SIM: l2 (32768B) is smaller than l1 (65536B): the L2 includes the L1");
}

static void topology(void)
{
	int s, c, t;
	char buf[64];

	parse(NULL);
	CHECK_EQ_INT(pmon_sim_ncpus(&sh), 32, "default CPUs");
	/* hwloc synthetic numbering: hyperthreads adjacent */
	CHECK_EQ_INT(pmon_sim_cpu_of(&sh, 0, 0, 1), 1, "cpu of s0 c0 t1");
	CHECK_EQ_INT(pmon_sim_cpu_of(&sh, 0, 1, 0), 2, "cpu of s0 c1 t0");
	CHECK_EQ_INT(pmon_sim_cpu_of(&sh, 1, 0, 0), 16, "cpu of s1 c0 t0");
	CHECK_EQ_INT(pmon_sim_cpu_of(&sh, 1, 7, 1), 31, "cpu of s1 c7 t1");
	CHECK_EQ_INT(pmon_sim_cpu_of(&sh, 2, 0, 0), -1, "socket out of range");
	CHECK_EQ_INT(pmon_sim_cpu_place(&sh, 21, &s, &c, &t), 0, "place 21");
	CHECK(s == 1 && c == 2 && t == 1, "cpu 21 = s1 c2 t1 (got s%d c%d t%d)", s, c, t);
	CHECK_EQ_INT(pmon_sim_cpu_place(&sh, 32, &s, &c, &t), -1, "cpu 32 absent");
	CHECK_EQ_INT(pmon_sim_synthetic(&sh, buf, sizeof buf), 0, "synthetic");
	CHECK(strcmp(buf, "package:2 core:8 pu:2") == 0, "synthetic '%s'", buf);
	parse("sockets=1,cores=6,threads=1");
	pmon_sim_synthetic(&sh, buf, sizeof buf);
	CHECK(strcmp(buf, "package:1 core:6 pu:1") == 0, "synthetic '%s'", buf);
	CHECK_EQ_INT(pmon_sim_cpu_of(&sh, 0, 5, 0), 5, "1 thread per core");
	CHECK_EQ_INT(pmon_sim_synthetic(&sh, buf, 8), -1, "buffer too small");
}

static void current_machine(void)
{
	struct pmon_access *a = NULL;
	char why[256];
	struct pmon_cpuid id;

	CHECK(pmon_sim_current() == NULL, "no machine before the first open");
	setenv("PMON_SIM", "sockets=2,cores=13", 1);
	CHECK_EQ_INT(pmon_sim_access_open(&a, why, sizeof why), PMON_EINVAL, "bad PMON_SIM");
	CHECK(strcmp(why, "PMON_SIM: cores=13 out of range 1..8") == 0, "why '%s'", why);
	CHECK(a == NULL && pmon_sim_current() == NULL, "nothing created");

	setenv("PMON_SIM", "sockets=1,cores=4", 1);
	CHECK_EQ_INT(pmon_sim_access_open(&a, why, sizeof why), PMON_OK, why);
	pmon_sim_t *m = pmon_sim_current();
	CHECK(m != NULL, "machine created");
	CHECK_EQ_INT(pmon_sim_shape(m)->cores, 4, "from PMON_SIM");
	CHECK_EQ_INT(pmon_sim_shape(m)->clock, PMON_SIM_CLOCK_AUTO,
		     "the process-wide machine: clock=auto when PMON_SIM names none");
	CHECK(strcmp(a->ops->name, "sim") == 0, "backend name");
	CHECK_EQ_INT(a->ops->cpu_ident(a, &id, op_why, sizeof op_why), 0, "cpu_ident");
	CHECK(!strcmp(id.vendor, "GenuineIntel") && id.family == 6 && id.model == 45 &&
	      id.stepping == 7, "CPUID 6/45/7 GenuineIntel");
	CHECK(!strcmp(id.brand, "Intel(R) Xeon(R) CPU E5-2680 0 @ 2.70GHz"), "brand");

	/* a second open shares the machine, even with another PMON_SIM */
	struct pmon_access *b = NULL;
	setenv("PMON_SIM", "sockets=2", 1);
	CHECK_EQ_INT(pmon_sim_access_open(&b, why, sizeof why), PMON_OK, why);
	CHECK(pmon_sim_current() == m && b->priv == a->priv, "shared machine");
	b->ops->close(b);
	a->ops->close(a);
	CHECK(pmon_sim_current() == m, "closing keeps the machine");

	/* set_current swaps it; destroy forgets it */
	pmon_sim_t *m2 = sim_new("sockets=1,cores=2");
	CHECK(pmon_sim_set_current(m2) == m, "set_current returns the old one");
	pmon_sim_destroy(m);
	CHECK(pmon_sim_current() == m2, "m2 current");
	pmon_sim_destroy(m2);
	CHECK(pmon_sim_current() == NULL, "destroying the current machine clears it");
	unsetenv("PMON_SIM");
}

int main(void)
{
	cache_keys();
	defaults();
	every_key();
	errors();
	topology();
	current_machine();
	return check_done("test_sim_shape");
}
