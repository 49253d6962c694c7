/*
 * test_core_glb_hw.c - the core PMU's global control, IA32_PERF_GLOBAL_CTRL
 * (MSR 0x38F), under two sessions of one process that overlap, on fake
 * device files (the hardware backend) of an SNB-EP and of a Nehalem-EP: the
 * global-control engine merges the sessions' enable bits there as it does
 * in the Nehalem uncore's 0x391 (test_nhm_hw.c).  Both generations'
 * core PMUs are one description (src/offcore/offcore.h, OC_BOX_COMMON):
 * the two runs differ in their events (SNB-EP's second session on
 * OFFCORE_RESPONSE_1 and MSR 0x1A7; Nehalem-EP's one RSP register 0x1A6
 * shared by both sessions with the same value).
 *
 * From a global control P (the fixed counters' enables, another agent's, or
 * those with every general counter's enable set too, as Linux leaves the
 * register), with
 * session A on counter a and B on counter b of CPU 0:
 *   start A: P | a;  start B: P | a | b;  stop A: P | b (A's bit back to
 *   what P had);  stop B: P; each select, RSP register and CPU 1's
 *   registers as before; the same with B stopped first;
 *   killed with both counting, or with one stopped: `pmon reset` puts back P.
 * In the fake MSR file, MSR m is the 8 bytes at offset 8 m (the pread and
 * pwrite below spread them): the core PMU's registers are consecutive
 * numbers, which a file at offset m would overlap.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "fake_hw.h"
#include "fake_msr8.h"
#include "pmon/pmon.h"

static char base[128];
static struct fake_world w;
static char err[1024];

/* ------------------------------------------------------ the MSR files */

ssize_t pread64(int fd, void *buf, size_t n, off64_t off);
ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t off);
ssize_t pread(int fd, void *buf, size_t n, off_t off);
ssize_t pwrite(int fd, const void *buf, size_t n, off_t off);

ssize_t pread64(int fd, void *buf, size_t n, off64_t off)
{
	return (ssize_t)syscall(SYS_pread64, fd, buf, n, fake_is_msr_fd(fd) ? off * 8 : off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t off)
{
	return (ssize_t)syscall(SYS_pwrite64, fd, buf, n, fake_is_msr_fd(fd) ? off * 8 : off);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off) { return pread64(fd, buf, n, off); }
ssize_t pwrite(int fd, const void *buf, size_t n, off_t off) { return pwrite64(fd, buf, n, off); }

/* The test's own accesses: at offset 8 m, past the interposed calls. */
static uint64_t nio(int cpu, uint32_t msr, int put, uint64_t v)
{
	return fake_msr8_io(w.msr, cpu, msr, put, v);
}
static void nput(int cpu, uint32_t msr, uint64_t v) { nio(cpu, msr, 1, v); }
static uint64_t nget(int cpu, uint32_t msr) { return nio(cpu, msr, 0, 0); }

/* ------------------------------------------------------------ registers */

#define GLB_CTL  0x38f                 /* IA32_PERF_GLOBAL_CTRL */
#define SEL0     0x186                 /* IA32_PERFEVTSEL0-3 */
#define PMC0     0xc1
#define RSP0     0x1a6
#define RSP1     0x1a7
#define FIXED3   (7ull << 32)          /* the fixed counters' enables, not pmon's */
#define ALL_ON   (FIXED3 | 0xfull)     /* every counter's enable set */
/* a select's enable (22), OS (17) and USR (16) bits, with event and umask */
#define SELECT(ev, um) (1ull << 22 | 1ull << 17 | 1ull << 16 | (um) << 8 | (ev))

static const uint32_t regs[] = { GLB_CTL, SEL0, SEL0 + 1, SEL0 + 2, SEL0 + 3, RSP0, RSP1 };
#define NREGS ((int)(sizeof(regs) / sizeof(regs[0])))
static uint64_t before[2][NREGS];      /* CPU 0, CPU 1 */

static void preset(uint64_t glb)
{
	for (int c = 0; c < 2; c++)
		for (int r = 0; r < NREGS; r++)
			nput(c, regs[r], before[c][r] = regs[r] == GLB_CTL ? glb : 0);
}

static void all_as_before(const char *what)
{
	for (int c = 0; c < 2; c++)
		for (int r = 0; r < NREGS; r++) {
			uint64_t v = nget(c, regs[r]);
			CHECK(v == before[c][r], "%s: CPU %d MSR 0x%x is 0x%llx, was 0x%llx", what, c,
			      regs[r], (unsigned long long)v, (unsigned long long)before[c][r]);
		}
}

/* One generation's two sessions. */
struct gen {
	const char *name;
	unsigned model;                /* 0: the SNB-EP world */
	const char *brand;
	const char *ev[2];             /* session A's, session B's */
	uint64_t sel[2];               /* their selects, enabled */
	uint32_t rsp_msr[2];
	uint64_t rsp[2];
};

static const struct gen gens[] = {
	{ "SNB-EP", 0, NULL,
	  { "snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:ANY_RESPONSE:cpu=0",
	    "snb_ep::OFFCORE_RESPONSE_1:DMND_DATA_RD:LLC_MISS_LOCAL_DRAM:cpu=0" },
	  { SELECT(0xb7, 0x01), SELECT(0xbb, 0x01) }, { RSP0, RSP1 },
	  /* request bit 0; ANY_RESPONSE bit 16 / the supplier bit 22 and every snoop bit 31-37 */
	  { 1ull | 1ull << 16, 1ull | 1ull << 22 | 0x7full << 31 } },
	{ "Nehalem-EP", 26, "Intel(R) Xeon(R) CPU X5570 @ 2.93GHz",
	  { "nhm::OFFCORE_RESPONSE_0:DMND_DATA_RD:LOCAL_DRAM:cpu=0",
	    "nhm::OFFCORE_RESPONSE_0:DMND_DATA_RD:LOCAL_DRAM:cpu=0" },
	  { SELECT(0xb7, 0x01), SELECT(0xb7, 0x01) }, { RSP0, RSP0 },
	  /* request bit 0, response LOCAL_DRAM bit 14: one value, shared */
	  { 1ull | 1ull << 14, 1ull | 1ull << 14 } },
};

static pmon_session_t *session_of(pmon_machine_t *m, const char *ev)
{
	pmon_session_t *s;
	pmon_encoding_t e;
	if (pmon_session_create(m, &s))
		return NULL;
	if (pmon_machine_encode(m, ev, &e, err, sizeof(err)) || pmon_session_add(s, &e)) {
		CHECK(0, "%s: %s %s", ev, err, pmon_session_errmsg(s));
		pmon_session_destroy(s);
		return NULL;
	}
	return s;
}

static int journal_exists(int socket)
{
	char path[400];
	snprintf(path, sizeof(path), "%s/socket%d.journal", w.run, socket);
	return access(path, F_OK) == 0;
}

/* Start A, start B, stop one, stop the other (A first when a_first). */
static void overlap(pmon_machine_t *m, const struct gen *g, uint64_t p, int a_first)
{
	char what[160];
	snprintf(what, sizeof(what), "%s, global control 0x%llx, %s stopped first", g->name,
		 (unsigned long long)p, a_first ? "A" : "B");
	preset(p);
	pmon_session_t *s[2] = { session_of(m, g->ev[0]), session_of(m, g->ev[1]) };
	if (!s[0] || !s[1]) {
		pmon_session_destroy(s[0]);
		pmon_session_destroy(s[1]);
		return;
	}
	int rc = pmon_session_start(s[0]);
	CHECK(rc == PMON_OK, "%s: start A: %s", what, pmon_session_errmsg(s[0]));
	int a = pmon_session_counter(s[0], 0);
	CHECK(a >= 0 && a < 4, "%s: A on a general counter (%d)", what, a);
	if (rc || a < 0 || a > 3)
		goto out;
	CHECK(nget(0, GLB_CTL) == (p | 1ull << a), "%s: start A: 0x%llx, want 0x%llx", what,
	      (unsigned long long)nget(0, GLB_CTL), (unsigned long long)(p | 1ull << a));
	rc = pmon_session_start(s[1]);
	CHECK(rc == PMON_OK, "%s: start B: %s", what, pmon_session_errmsg(s[1]));
	int b = pmon_session_counter(s[1], 0);
	CHECK(b >= 0 && b < 4 && b != a, "%s: B on another general counter (%d, A %d)", what, b, a);
	if (rc || b < 0 || b > 3 || b == a)
		goto out;
	uint64_t both = p | 1ull << a | 1ull << b;
	CHECK(nget(0, GLB_CTL) == both, "%s: start B: 0x%llx, want 0x%llx", what,
	      (unsigned long long)nget(0, GLB_CTL), (unsigned long long)both);
	CHECK_EQ_U64(nget(0, SEL0 + (uint32_t)a), g->sel[0], "A's select");
	CHECK_EQ_U64(nget(0, SEL0 + (uint32_t)b), g->sel[1], "B's select");
	CHECK_EQ_U64(nget(0, g->rsp_msr[0]), g->rsp[0], "A's RSP register");
	CHECK_EQ_U64(nget(0, g->rsp_msr[1]), g->rsp[1], "B's RSP register");
	CHECK_EQ_U64(nget(1, GLB_CTL), p, "CPU 1's global control untouched");
	int first = a_first ? 0 : 1, other = 1 - first, bit_first = a_first ? a : b,
	    bit_other = a_first ? b : a;
	CHECK(pmon_session_stop(s[first], NULL) == PMON_OK, "%s: first stop: %s", what,
	      pmon_session_errmsg(s[first]));
	/* the stopped session's bit back to what p had, the other's kept */
	uint64_t left = p | 1ull << bit_other;
	CHECK(nget(0, GLB_CTL) == left, "%s: after the first stop: 0x%llx, want 0x%llx", what,
	      (unsigned long long)nget(0, GLB_CTL), (unsigned long long)left);
	CHECK_EQ_U64(nget(0, SEL0 + (uint32_t)bit_first), 0, "the stopped session's select put back");
	CHECK_EQ_U64(nget(0, SEL0 + (uint32_t)bit_other), g->sel[other], "the other's select counting");
	CHECK_EQ_U64(nget(0, g->rsp_msr[other]), g->rsp[other], "the other's RSP register kept");
	CHECK(pmon_session_stop(s[other], NULL) == PMON_OK, "%s: second stop: %s", what,
	      pmon_session_errmsg(s[other]));
	all_as_before(what);
	CHECK(!journal_exists(0), "%s: the journal is gone", what);
out:
	pmon_session_destroy(s[0]);
	pmon_session_destroy(s[1]);
}

/* Killed with both counting (stopped 0) or with A stopped (1): pmon reset
 * puts back p. */
static void killed(pmon_machine_t *m, const struct gen *g, uint64_t p, int stopped)
{
	char why[512], out[8192], what[160];
	snprintf(what, sizeof(what), "%s, global control 0x%llx, killed with %s", g->name,
		 (unsigned long long)p, stopped ? "A stopped" : "both counting");
	preset(p);
	pid_t pid = fork();
	if (pid == 0) {
		pmon_machine_t *ma;
		pmon_session_t *a, *b;
		if (pmon_machine_open(&ma, "msr", why, sizeof(why)) || !(a = session_of(ma, g->ev[0])) ||
		    !(b = session_of(ma, g->ev[1])) || pmon_session_start(a) || pmon_session_start(b))
			_exit(2);
		if (stopped && pmon_session_stop(a, NULL))
			_exit(3);
		raise(SIGKILL);
		_exit(4);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "%s: killed (status 0x%x)", what, st);
	uint64_t left = nget(0, GLB_CTL);
	if (p != ALL_ON)
		CHECK((left & 0xf) != 0, "%s: left enabled: 0x%llx", what, (unsigned long long)left);
	int rc = pmon_machine_reset(m, 0, out, sizeof(out));
	CHECK(rc == PMON_OK, "%s: reset: %s", what, out);
	all_as_before(what);
	CHECK(!journal_exists(0), "%s: the journal is gone", what);
}

int main(void)
{
	for (size_t i = 0; i < sizeof(gens) / sizeof(gens[0]); i++) {
		const struct gen *g = &gens[i];
		pmon_machine_t *m;
		if (fake_tmpdir(base, sizeof(base)) ||
		    (g->model ? fake_nhm_world(base, g->model, g->brand, &w) : fake_snbep_world(base, 1, &w))) {
			CHECK(0, "%s: could not build the fake device files", g->name);
			continue;
		}
		int rc = pmon_machine_open(&m, "msr", err, sizeof(err));
		CHECK(rc == PMON_OK, "%s: open: %s", g->name, err);
		if (rc == PMON_OK) {
			static const uint64_t glb[] = { FIXED3, ALL_ON };
			for (int p = 0; p < 2; p++) {
				overlap(m, g, glb[p], 1);
				overlap(m, g, glb[p], 0);
				killed(m, g, glb[p], 0);
				killed(m, g, glb[p], 1);
			}
			pmon_machine_close(m);
		}
		fake_rmtree(base);
	}
	return check_done("test_core_glb_hw");
}
