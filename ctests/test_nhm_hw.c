/*
 * test_nhm_hw.c - the global-control engine (issue 20 item 3) on fake
 * device files of a Nehalem-EP (the hardware backend), asserting register
 * contents: one uncore PMU per socket whose counters share one global
 * enable (MSR 0x391), under the harnesses that hold SNB-EP:
 *  - a start programs the event selects, the fixed control and the QHL
 *    matcher, takes the starting values, then sets the session's enable
 *    bits in the global control (its other bits kept); the stop clears
 *    them before its final read and puts every register back, clearing
 *    through MSR 0x393 the overflow bits its counting set and no other;
 *    counts fold
 *    across 48-bit wraps, read after read;
 *  - every MSR access of a start/read/stop cycle failing once (EIO): the
 *    call that met it fails with an error, and every register ends as
 *    before;
 *  - killed (SIGKILL) after each MSR write of a start and stop in turn:
 *    `pmon reset` puts every register back, the global control's foreign
 *    bits kept, and the journal is gone;
 *  - two sessions of one process killed (both counting, or the first
 *    stopped): `pmon reset` puts back both sessions' enable bits;
 *  - two processes: the second is refused the socket's PMU while the first
 *    counts (nothing written), counts on the other socket meanwhile, and
 *    gets it once the first stopped;
 *  - crafted journal lines for the new registers (a global control's or
 *    overflow line's mask, value or wrote outside its enable bits, a filter past the table, a
 *    counter, an uncore line with a CPU): each named and skipped, the good
 *    line put back;
 *  - the shared filters MSR 0x396 (QHL matcher) and MSR 0x301 (snoop MESF
 *    select): two events needing different values conflict, equal ones
 *    share, in one session and across two.
 * In the fake MSR file, MSR m is the 8 bytes at offset 8 m here (the
 * pread/pwrite below spread them): the Nehalem registers are consecutive
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
#include "journal.h"
#include "pmon/pmon.h"

static char base[128];
static struct fake_world w;
static char err[1024];

/* ------------------------------------------------------ the MSR files */

static int kill_at_write;            /* > 0: SIGKILL after that many MSR writes */
static long fail_at = -1;            /* the access (of fail_writes' kind) that fails once */
static int fail_writes, failed;
static long nreads, nwrites;
#define LOG_MAX 4096
static struct { char op; uint32_t msr; uint64_t v; } oplog[LOG_MAX];
static int nlog;

static int fail_now(int write)
{
	long k = write ? nwrites++ : nreads++;
	if (fail_at >= 0 && write == fail_writes && k == fail_at) {
		failed++;
		errno = EIO;
		return 1;
	}
	return 0;
}

ssize_t pread64(int fd, void *buf, size_t n, off64_t off);
ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t off);
ssize_t pread(int fd, void *buf, size_t n, off_t off);
ssize_t pwrite(int fd, const void *buf, size_t n, off_t off);

ssize_t pread64(int fd, void *buf, size_t n, off64_t off)
{
	if (!fake_is_msr_fd(fd))
		return (ssize_t)syscall(SYS_pread64, fd, buf, n, off);
	if (fail_now(0))
		return -1;
	ssize_t r = (ssize_t)syscall(SYS_pread64, fd, buf, n, off * 8);
	if (nlog < LOG_MAX && n == 8) {
		oplog[nlog].op = 'r';
		oplog[nlog].msr = (uint32_t)off;
		memcpy(&oplog[nlog++].v, buf, 8);
	}
	return r;
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t off)
{
	if (!fake_is_msr_fd(fd))
		return (ssize_t)syscall(SYS_pwrite64, fd, buf, n, off);
	if (fail_now(1))
		return -1;
	ssize_t r = (ssize_t)syscall(SYS_pwrite64, fd, buf, n, off * 8);
	if (nlog < LOG_MAX && n == 8) {
		oplog[nlog].op = 'w';
		oplog[nlog].msr = (uint32_t)off;
		memcpy(&oplog[nlog++].v, buf, 8);
	}
	if (kill_at_write > 0 && --kill_at_write == 0)
		raise(SIGKILL);
	return r;
}

ssize_t pread(int fd, void *buf, size_t n, off_t off) { return pread64(fd, buf, n, off); }
ssize_t pwrite(int fd, const void *buf, size_t n, off_t off) { return pwrite64(fd, buf, n, off); }

/* The test's own accesses to the files: at offset 8 m, past the
 * interposed calls (not counted, failed or logged). */
static uint64_t nio(int cpu, uint32_t msr, int put, uint64_t v)
{
	return fake_msr8_io(w.msr, cpu, msr, put, v);
}
static void nput(int cpu, uint32_t msr, uint64_t v) { nio(cpu, msr, 1, v); }
static uint64_t nget(int cpu, uint32_t msr) { return nio(cpu, msr, 0, 0); }

/* ------------------------------------------------------------ registers */

#define GLB_CTL   0x391
#define GLB_STAT  0x392
#define GLB_OVF   0x393
#define FIXED_CTR 0x394
#define FIXED_CTL 0x395
#define MATCH     0x396
#define MESF      0x301
#define CTL0      0x3c0
#define CTR0      0x3b0
#define FOREIGN   (1ull << 48)       /* PMI_SEL_CORE0: not pmon's, kept */

/* The registers a session writes, and where (socket 0: CPU 0). */
static const uint32_t regs[] = { GLB_CTL, FIXED_CTL, MATCH, MESF, CTL0, CTL0 + 1, CTL0 + 2,
				 CTL0 + 3, CTL0 + 7 };
#define NREGS ((int)(sizeof(regs) / sizeof(regs[0])))
static uint64_t before[NREGS];

static void preset(void)
{
	for (int r = 0; r < NREGS; r++)
		nput(0, regs[r], before[r] = regs[r] == GLB_CTL ? FOREIGN : 0);
	nput(0, CTL0 + 7, before[NREGS - 1] = 0x00000b);   /* another's, disabled */
	nput(0, GLB_STAT, 0);
}

static int all_as_before(const char *what)
{
	int ok = 1;
	for (int r = 0; r < NREGS; r++)
		if (nget(0, regs[r]) != before[r]) {
			CHECK(0, "%s: MSR 0x%x is 0x%llx, was 0x%llx", what, regs[r],
			      (unsigned long long)nget(0, regs[r]), (unsigned long long)before[r]);
			ok = 0;
		}
	return ok;
}

static const char *const events[] = {
	"nhm_unc::UNC_LLC_MISS:READ:socket=0",
	"nhm_unc::UNC_CLK_UNHALTED:socket=0",
	"nhm_unc::UNC_ADDR_OPCODE_MATCH:LOCAL:RSPFWDI:socket=0",
};

static pmon_session_t *session_of(pmon_machine_t *m, const char *const *ev, int n)
{
	pmon_session_t *s;
	pmon_encoding_t e;
	pmon_session_create(m, &s);
	for (int i = 0; i < n; i++)
		if (pmon_machine_encode(m, ev[i], &e, err, sizeof(err)) || pmon_session_add(s, &e)) {
			CHECK(0, "%s: %s %s", ev[i], err, pmon_session_errmsg(s));
			pmon_session_destroy(s);
			return NULL;
		}
	return s;
}

/* The first log entry at or after i of op on msr (with value v when
 * any is 0), or -1. */
static int find_op(int i, char op, uint32_t msr, int any, uint64_t v)
{
	for (; i < nlog; i++)
		if (oplog[i].op == op && oplog[i].msr == msr && (any || oplog[i].v == v))
			return i;
	return -1;
}

static int last_op(char op, uint32_t msr)
{
	int at = -1;
	for (int i = 0; i < nlog; i++)
		if (oplog[i].op == op && oplog[i].msr == msr)
			at = i;
	return at;
}

/* ------------------------------------------------ program, count, stop */

static void program_and_count(pmon_machine_t *m)
{
	uint64_t v[3];
	preset();
	nput(0, FIXED_CTR, 1000);
	nput(0, GLB_STAT, 1ull << 7);       /* another's overflow, left set */
	pmon_session_t *s = session_of(m, events, 3);
	if (!s)
		return;
	int c0 = pmon_session_counter(s, 0), c2 = pmon_session_counter(s, 2);
	CHECK(c0 >= 0 && c2 >= 0 && c0 != c2, "two general counters (%d, %d)", c0, c2);
	CHECK_EQ_INT(pmon_session_counter(s, 1), -1, "UCLK on the fixed counter");
	const uint32_t ctl = CTL0 + (uint32_t)c0, ctr = CTR0 + (uint32_t)c0;
	nput(0, ctr, 0xfffffffffff0ull);
	nlog = 0;
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	uint64_t want_glb = FOREIGN | 1ull << c0 | 1ull << 32 | 1ull << c2;
	CHECK_EQ_U64(nget(0, ctl), 0x400109, "the select = UNC_LLC_MISS:READ | EN");
	CHECK_EQ_U64(nget(0, CTL0 + (uint32_t)c2), 0x400435, "the matcher event's select | EN");
	CHECK_EQ_U64(nget(0, FIXED_CTL), 1, "fixed control enabled");
	CHECK_EQ_U64(nget(0, MATCH), 0x4000190000000000ull, "MSR 0x396: match opcode RspFwdI");
	CHECK_EQ_U64(nget(0, GLB_CTL), want_glb, "the global control: our three bits, the foreign one kept");
	CHECK_EQ_U64(nget(0, MESF), 0, "MSR 0x301 untouched");
	CHECK_EQ_U64(nget(0, CTL0 + 7), 0xb, "another's disabled select untouched");
	CHECK_EQ_U64(nget(2, GLB_CTL), 0, "socket 1's global control untouched");
	/* the order: selects written, starting values read, then enabled */
	int sel = find_op(0, 'w', ctl, 0, 0x400109), rd = find_op(0, 'r', ctr, 1, 0),
	    en = find_op(0, 'w', GLB_CTL, 0, want_glb);
	CHECK(sel >= 0 && rd > sel && en > rd, "start: select (%d), starting value (%d), enable (%d)",
	      sel, rd, en);
	/* the "hardware" counts: the counter wraps past 2^48, then runs on */
	uint64_t want = 0, at = 0xfffffffffff0ull;
	static const uint64_t next[] = { 0x20, 0x20 + 1000000, 0x20 + 3000000 };
	for (int i = 0; i < 3; i++) {
		want += (next[i] - at) & 0xffffffffffffull;
		at = next[i];
		nput(0, ctr, at);
		nput(0, GLB_STAT, 1ull << 7 | 1ull << c0);    /* the wrap set our overflow bit */
		nput(0, FIXED_CTR, 1000 + 800000ull * (uint64_t)(i + 1));
		CHECK_EQ_INT(pmon_session_read(s, v), PMON_OK, pmon_session_errmsg(s));
		CHECK_EQ_U64(v[0], want, "LLC_MISS: the deltas folded, across the 48-bit wrap");
		CHECK_EQ_U64(v[1], 800000ull * (uint64_t)(i + 1), "UCLK");
	}
	CHECK_EQ_U64(want, 0x30 + 3000000, "the total: 0x30 over the wrap, 3000000 after");
	nlog = 0;
	CHECK_EQ_INT(pmon_session_stop(s, v), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_U64(v[0], want, "the stop's total");
	int off = find_op(0, 'w', GLB_CTL, 0, FOREIGN), fin = last_op('r', ctr);
	/* the final read of the running counters ends the window at its
	 * instant; the enable bits are cleared after it (for the restore) */
	CHECK(off >= 0 && fin >= 0 && fin < off, "stop: the final read (%d) before the enable bits are "
	      "cleared (%d)", fin, off);
	int ovf = find_op(0, 'w', GLB_OVF, 1, 0);
	CHECK(ovf >= 0 && oplog[ovf].v == 1ull << c0 && find_op(ovf + 1, 'w', GLB_OVF, 1, 0) < 0,
	      "stop: the overflow its counting set cleared through MSR 0x393 (0x%llx), another's "
	      "bit 7 not", ovf >= 0 ? (unsigned long long)oplog[ovf].v : 0ull);
	all_as_before("after the stop");
	pmon_session_destroy(s);
}

/* ------------------------------------------------- each access fails once */

static int cycle(pmon_machine_t *m, int *failed_rc)
{
	uint64_t v[3];
	int rc, first = 0;
	pmon_session_t *s = session_of(m, events, 3);
	if (!s)
		return -1;
	rc = pmon_session_start(s);
	first = rc;
	if (!rc) {
		nput(0, CTR0, 0x1234);
		rc = pmon_session_read(s, v);
		first = first ? first : rc;
		rc = pmon_session_stop(s, v);
		first = first ? first : rc;
	}
	pmon_session_destroy(s);
	*failed_rc = first;
	return 0;
}

static void each_access_fails_once(pmon_machine_t *m)
{
	int rc;
	preset();
	nreads = nwrites = 0;
	fail_at = -1;
	cycle(m, &rc);
	CHECK_EQ_INT(rc, PMON_OK, "a clean cycle");
	long R = nreads, W = nwrites;
	CHECK(R > 10 && W > 8, "a cycle reads (%ld) and writes (%ld) MSRs", R, W);
	int tried = 0, hit = 0, errors = 0;
	for (int wr = 0; wr <= 1; wr++)
		for (long k = 0; k < (wr ? W : R); k++) {
			preset();
			nreads = nwrites = 0;
			failed = 0;
			fail_writes = wr;
			fail_at = k;
			cycle(m, &rc);
			fail_at = -1;
			tried++;
			hit += failed;
			char what[64];
			snprintf(what, sizeof(what), "%s %ld failing once", wr ? "write" : "read", k);
			CHECK(rc == PMON_OK || rc == PMON_EIO, "%s: ok (retried) or the injected error "
			      "(rc %d)", what, rc);
			errors += rc == PMON_EIO;
			all_as_before(what);
		}
	CHECK_EQ_INT(hit, tried, "every access of the cycle was made to fail once");
	CHECK(errors > tried / 2, "most faults reach the caller as PMON_EIO (%d of %d; the rest "
	      "were retried by the restore)", errors, tried);
	printf("test_nhm_hw: %ld reads and %ld writes a cycle, each failed once: registers as before, "
	       "%d of %d faults returned as PMON_EIO\n", R, W, errors, tried);
}

/* ---------------------------------------------- killed at each write */

static int journal_exists(int socket)
{
	char path[400];
	snprintf(path, sizeof(path), "%s/socket%d.journal", w.run, socket);
	return access(path, F_OK) == 0;
}

static void killed_at_each_write(pmon_machine_t *m)
{
	char why[512], out[8192];
	int k, killed = 1;
	for (k = 1; killed && k < 64; k++) {
		preset();
		pid_t a = fork();
		if (a == 0) {
			pmon_machine_t *ma;
			pmon_session_t *s;
			if (pmon_machine_open(&ma, "msr", why, sizeof(why)) || !(s = session_of(ma, events, 3)))
				_exit(2);
			kill_at_write = k;
			int rc = pmon_session_start(s);
			rc = rc ? rc : pmon_session_stop(s, NULL);
			_exit(rc ? 3 : 0);
		}
		int st = 0;
		waitpid(a, &st, 0);
		killed = WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
		CHECK(killed || (WIFEXITED(st) && WEXITSTATUS(st) == 0), "write %d: killed, or ran "
		      "through (status 0x%x)", k, st);
		int rc = pmon_machine_reset(m, 0, out, sizeof(out));
		CHECK(rc == PMON_OK, "write %d: reset: %s", k, out);
		char what[64];
		snprintf(what, sizeof(what), "killed after write %d, then reset", k);
		all_as_before(what);
		CHECK(!journal_exists(0), "write %d: the journal is gone", k);
	}
	CHECK(k > 8 && !killed, "a start and stop make more than 8 writes, all tried (%d)", k - 1);
}

/* Two sessions of one process share the PMU (each its own enable bits in
 * the global control), killed with both counting, or after the first
 * stopped: `pmon reset` puts back both sessions' bits, the foreign one
 * kept (the journal merges their lines bit by bit). */
static void two_sessions_killed(pmon_machine_t *m)
{
	char why[512], out[8192];
	for (int first_stopped = 0; first_stopped <= 1; first_stopped++) {
		preset();
		pid_t a = fork();
		if (a == 0) {
			pmon_machine_t *ma;
			pmon_session_t *s1, *s2;
			if (pmon_machine_open(&ma, "msr", why, sizeof(why)) ||
			    !(s1 = session_of(ma, events, 1)) || !(s2 = session_of(ma, events + 1, 1)) ||
			    pmon_session_start(s1) || pmon_session_start(s2))
				_exit(2);
			if (nget(0, GLB_CTL) == FOREIGN)
				_exit(3);
			if (first_stopped && pmon_session_stop(s1, NULL))
				_exit(4);
			raise(SIGKILL);
			_exit(5);
		}
		int st = 0;
		waitpid(a, &st, 0);
		CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "%s: killed counting (0x%x)",
		      first_stopped ? "one stopped" : "both counting", st);
		CHECK(nget(0, GLB_CTL) == (first_stopped ? FOREIGN | 1ull << 32 : FOREIGN | 1ull << 32 | 1),
		      "left enabled: 0x%llx", (unsigned long long)nget(0, GLB_CTL));
		int rc = pmon_machine_reset(m, 0, out, sizeof(out));
		CHECK(rc == PMON_OK, "reset: %s", out);
		all_as_before(first_stopped ? "two sessions, one stopped, killed, reset"
			      : "two sessions killed, reset");
		CHECK(!journal_exists(0), "the journal is gone");
	}
}

/* Two sessions of one process share the global control; another agent
 * clears the first's enable bit (bit 0) while both count, the first stops
 * (PMON_EBUSY: its bit is the agent's now), the process is killed with the
 * second counting: `pmon reset` still puts back the second's bit (32),
 * leaves bit 0 as the agent set it and the foreign bit 48, and clears
 * through MSR 0x393 the second's overflow bit, not the agent's counter 0's.
 * The first's stop must disown only its own bits of the merged journal
 * lines, not the second's. */
static void one_session_taken_killed(pmon_machine_t *m)
{
	char why[512], out[8192];
	preset();
	pid_t a = fork();
	if (a == 0) {
		pmon_machine_t *ma;
		pmon_session_t *s1, *s2;
		if (pmon_machine_open(&ma, "msr", why, sizeof(why)) ||
		    !(s1 = session_of(ma, events, 1)) || !(s2 = session_of(ma, events + 1, 1)) ||
		    pmon_session_start(s1) || pmon_session_start(s2))
			_exit(2);
		if (nget(0, GLB_CTL) != (FOREIGN | 1ull << 32 | 1))
			_exit(3);
		nput(0, GLB_CTL, FOREIGN | 1ull << 32);     /* the agent takes counter 0 */
		if (pmon_session_stop(s1, NULL) != PMON_EBUSY)
			_exit(4);
		raise(SIGKILL);
		_exit(5);
	}
	int st = 0;
	waitpid(a, &st, 0);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "one taken: killed counting (0x%x)", st);
	CHECK(nget(0, GLB_CTL) == (FOREIGN | 1ull << 32), "left enabled: 0x%llx",
	      (unsigned long long)nget(0, GLB_CTL));
	/* the agent's counter 0 overflowed, so did the second session's fixed counter */
	nput(0, GLB_STAT, 1ull << 32 | 1);
	nput(0, GLB_OVF, 0);
	pmon_machine_reset(m, 0, out, sizeof(out));
	CHECK(nget(0, GLB_OVF) == 1ull << 32, "one session's bit taken, the other killed, reset: "
	      "MSR 0x393 written 0x%llx, not 0x%llx (the agent's counter 0 overflow is not pmon's)",
	      (unsigned long long)nget(0, GLB_OVF), (unsigned long long)(1ull << 32));
	CHECK(nget(0, GLB_CTL) == FOREIGN, "one session's bit taken, the other killed, reset: "
	      "MSR 0x391 is 0x%llx, not 0x%llx (the second session's enable bit 32 left set): %s",
	      (unsigned long long)nget(0, GLB_CTL), (unsigned long long)FOREIGN, out);
	all_as_before("one session's bit taken, the other killed, reset");
	/* the line of the bit the agent took stays (mask 0): gone for the next test */
	char path[400];
	snprintf(path, sizeof(path), "%s/socket0.journal", w.run);
	unlink(path);
}

/* One session counting, a second session of the process killed after
 * each MSR write of its start (the global control's journal line already
 * holds what the first wrote; the second's enable bit is written before
 * the start records what it wrote): `pmon reset` puts every register
 * back, the second's enable bit (32) too. */
static void second_start_killed(pmon_machine_t *m)
{
	char why[512], out[8192];
	int k, killed = 1;
	for (k = 1; killed && k < 16; k++) {
		preset();
		pid_t a = fork();
		if (a == 0) {
			pmon_machine_t *ma;
			pmon_session_t *s1, *s2;
			if (pmon_machine_open(&ma, "msr", why, sizeof(why)) ||
			    !(s1 = session_of(ma, events, 1)) || !(s2 = session_of(ma, events + 1, 1)) ||
			    pmon_session_start(s1))
				_exit(2);
			kill_at_write = k;
			if (pmon_session_start(s2))
				_exit(3);
			kill_at_write = 0;
			raise(SIGKILL);
			_exit(4);
		}
		int st = 0;
		waitpid(a, &st, 0);
		CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "second start, write %d: killed "
		      "(status 0x%x)", k, st);
		killed = nget(0, GLB_CTL) != (FOREIGN | 1ull << 32 | 1);   /* not yet past the enable */
		pmon_machine_reset(m, 0, out, sizeof(out));
		char what[96];
		snprintf(what, sizeof(what), "one counting, the second killed after its start's write %d, "
			 "then reset", k);
		all_as_before(what);
		CHECK(!journal_exists(0), "second start, write %d: the journal is gone (%s)", k, out);
	}
	CHECK(k > 2, "the second start's writes were tried up to its enable (%d)", k - 1);
}

/* ------------------------------------------------------ two processes */

static void two_processes(pmon_machine_t *m)
{
	int go[2], done[2];
	if (pipe(go) || pipe(done))
		return;
	preset();
	pid_t a = fork();
	if (a == 0) {
		pmon_machine_t *ma;
		pmon_session_t *s = NULL;
		char x = 'n', why[512];
		if (!pmon_machine_open(&ma, "msr", why, sizeof(why)) && (s = session_of(ma, events, 1)) &&
		    !pmon_session_start(s))
			x = 'y';
		if (write(go[1], &x, 1) != 1 || read(done[0], &x, 1) != 1)
			_exit(2);
		_exit(s && pmon_session_stop(s, NULL) == 0 ? 0 : 3);
	}
	char x = 0;
	CHECK(read(go[0], &x, 1) == 1 && x == 'y', "A counts on socket 0");
	uint64_t glb = nget(0, GLB_CTL), ctl0 = nget(0, CTL0);
	pmon_session_t *s = session_of(m, events + 1, 1);
	if (s) {
		CHECK_EQ_INT(pmon_session_start(s), PMON_EBUSY, "B refused socket 0's nhm_unc");
		CHECK(strstr(pmon_session_errmsg(s), "nhm_unc") && strstr(pmon_session_errmsg(s), "busy"),
		      "the refusal names the PMU: %s", pmon_session_errmsg(s));
		CHECK_EQ_U64(nget(0, GLB_CTL), glb, "B wrote nothing: global control");
		CHECK_EQ_U64(nget(0, FIXED_CTL), 0, "B wrote nothing: fixed control");
		CHECK_EQ_U64(nget(0, CTL0), ctl0, "A's select intact");
		pmon_session_destroy(s);
	}
	static const char *const other[] = { "nhm_unc::UNC_CLK_UNHALTED:socket=1" };
	s = session_of(m, other, 1);
	if (s) {
		CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
		CHECK_EQ_U64(nget(2, GLB_CTL), 1ull << 32, "B counts on socket 1 meanwhile");
		CHECK_EQ_INT(pmon_session_stop(s, NULL), PMON_OK, pmon_session_errmsg(s));
		CHECK_EQ_U64(nget(2, GLB_CTL), 0, "socket 1 put back");
		pmon_session_destroy(s);
	}
	CHECK(write(done[1], "x", 1) == 1, "A told to stop");
	int st = 0;
	waitpid(a, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "A stopped cleanly (0x%x)", st);
	s = session_of(m, events + 1, 1);
	if (s) {
		CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
		CHECK_EQ_INT(pmon_session_stop(s, NULL), PMON_OK, pmon_session_errmsg(s));
		pmon_session_destroy(s);
	}
	all_as_before("after both");
	close(go[0]);
	close(go[1]);
	close(done[0]);
	close(done[1]);
}

/* ------------------------------------------------ crafted journal lines */

static void add_line(char *buf, size_t len, size_t *at, struct pmon_owner o, const char *box, int cpu,
		     enum pmon_reg_kind k, int idx, uint64_t value, uint64_t wrote, uint64_t mask)
{
	struct pmon_journal_entry e = { .owner = o, .cpu = cpu, .kind = k, .idx = idx, .value = value,
					.mask = mask, .wrote = wrote, .has_wrote = 1 };
	snprintf(e.box, sizeof(e.box), "%s", box);
	int n = pmon_journal_format(&e, buf + *at, len - *at);
	if (n > 0)
		*at += (size_t)n;
}

static void crafted_journal(pmon_machine_t *m)
{
	char text[8192], out[16384], path[400];
	size_t at = 0;
	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	struct pmon_owner dead = { (long)pid, 12345 };
	preset();
	/* what a killed process left: CTL0 and the global control enabled */
	nput(0, CTL0, 0x400109);
	nput(0, GLB_CTL, FOREIGN | 1);
	nput(0, GLB_STAT, 1ull << 7 | 1);    /* counter 0 overflowed; bit 7 another's */
	const uint64_t en = 0xffull | 1ull << 32;
	add_line(text, sizeof(text), &at, dead, "nhm_unc", -1, REG_CTL, 0, 0, 0x400109, ~0ull);
	add_line(text, sizeof(text), &at, dead, "nhm_unc", -1, REG_GLOBAL_CTL, 0, 0, 1, 1);
	add_line(text, sizeof(text), &at, dead, "nhm_unc", -1, REG_GLOBAL_OVF, 0, 0, 1, 1);
	add_line(text, sizeof(text), &at, dead, "nhm_unc", -1, REG_GLOBAL_OVF, 0, 0, 1, 1ull << 40);
	add_line(text, sizeof(text), &at, dead, "nhm_unc", -1, REG_GLOBAL_OVF, 0, 0x80, 1, 1);
	/* hostile: bits past the enables, a value or wrote outside the mask,
	 * a filter past the table, a counter, an uncore line with a CPU */
	add_line(text, sizeof(text), &at, dead, "nhm_unc", -1, REG_GLOBAL_CTL, 0, 0, 0, en | 1ull << 63);
	add_line(text, sizeof(text), &at, dead, "nhm_unc", -1, REG_GLOBAL_CTL, 0, 2, 1, 1);
	add_line(text, sizeof(text), &at, dead, "nhm_unc", -1, REG_GLOBAL_CTL, 0, 0, 3, 1);
	add_line(text, sizeof(text), &at, dead, "nhm_unc", -1, REG_FILTER, 2, 0, 0, ~0ull);
	add_line(text, sizeof(text), &at, dead, "nhm_unc", -1, REG_FILTER, 1, 0x100, 0, ~0ull);
	add_line(text, sizeof(text), &at, dead, "nhm_unc", -1, REG_CTR, 0, 0, 0, ~0ull);
	add_line(text, sizeof(text), &at, dead, "nhm_unc", -1, REG_CTL, 8, 0, 0, ~0ull);
	add_line(text, sizeof(text), &at, dead, "nhm_unc", 1, REG_CTL, 1, 0, 0, ~0ull);
	add_line(text, sizeof(text), &at, dead, "nhm_unc", -1, REG_BOX_CTL, 0, 0, 0, ~0ull);
	add_line(text, sizeof(text), &at, dead, "nhm_unc", -1, REG_CTL, 2, 1ull << 20, 0, ~0ull);
	snprintf(path, sizeof(path), "%s/socket0.journal", w.run);
	fake_mkdir_p(w.run);
	CHECK_EQ_INT(fake_write_journal(path, text, at), 0, "journal written");
	nlog = 0;
	int rc = pmon_machine_reset(m, 0, out, sizeof(out));
	CHECK_EQ_INT(rc, PMON_EINVAL, "bad lines make the reset's result an error");
	CHECK(strstr(out, "3 register(s) put back"), "the three good lines put back: %s", out);
	int skipped = 0;
	for (const char *p = out; (p = strstr(p, "the line of nhm_unc")); p++)
		skipped++;
	CHECK_EQ_INT(skipped, 12, "twelve hostile lines named and skipped");
	all_as_before("after the crafted journal's reset");
	for (int i = 0; i < nlog; i++)
		CHECK(oplog[i].op == 'r' || oplog[i].msr == CTL0 || oplog[i].msr == GLB_CTL ||
		      (oplog[i].msr == GLB_OVF && oplog[i].v == 1),
		      "the reset wrote only CTL0, the global control and counter 0's overflow "
		      "(MSR 0x%x = 0x%llx)", oplog[i].msr, (unsigned long long)oplog[i].v);
	CHECK(find_op(0, 'w', GLB_OVF, 0, 1) >= 0, "counter 0's overflow cleared");
	CHECK(!journal_exists(0), "the journal is gone");
}

/* ------------------------------------------------ the shared filters */

static int add_all(pmon_machine_t *m, pmon_session_t *s, const char *a, const char *b)
{
	pmon_encoding_t e;
	if (pmon_machine_encode(m, a, &e, err, sizeof(err)) || pmon_session_add(s, &e))
		return -1000;
	CHECK_EQ_INT(pmon_machine_encode(m, b, &e, err, sizeof(err)), PMON_OK, err);
	return pmon_session_add(s, &e);
}

static void shared_filters(pmon_machine_t *m)
{
	static const struct { const char *a, *b; int rc; } pairs[] = {
		{ "nhm_unc::UNC_ADDR_OPCODE_MATCH:LOCAL:RSPFWDI", "nhm_unc::UNC_ADDR_OPCODE_MATCH:REMOTE:RSPFWDS",
		  PMON_ECONFLICT },
		{ "nhm_unc::UNC_ADDR_OPCODE_MATCH:LOCAL:RSPFWDI", "nhm_unc::UNC_ADDR_OPCODE_MATCH:REMOTE:RSPFWDI",
		  PMON_OK },
		{ "nhm_unc::UNC_ADDR_OPCODE_MATCH:LOCAL:opc=0x19", "nhm_unc::UNC_ADDR_OPCODE_MATCH:IOH:RSPFWDI",
		  PMON_OK },
		{ "nhm_unc::UNC_ADDR_OPCODE_MATCH:LOCAL:ADDR:addr=0x1000", "nhm_unc::UNC_ADDR_OPCODE_MATCH:LOCAL:RSPFWDI",
		  PMON_ECONFLICT },
		{ "nhm_unc::UNC_GQ_SNOOP:GOTO_S_HIT_M", "nhm_unc::UNC_GQ_SNOOP:GOTO_I_HIT_E", PMON_ECONFLICT },
		{ "nhm_unc::UNC_GQ_SNOOP:GOTO_S_HIT_M", "nhm_unc::UNC_GQ_SNOOP:GOTO_S_HIT_M:e=1", PMON_OK },
		{ "nhm_unc::UNC_GQ_SNOOP:GOTO_S_HIT_M", "nhm_unc::UNC_ADDR_OPCODE_MATCH:LOCAL:RSPFWDI", PMON_OK },
	};
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		pmon_session_t *s;
		pmon_session_create(m, &s);
		int rc = add_all(m, s, pairs[i].a, pairs[i].b);
		CHECK(rc == pairs[i].rc, "%s with %s: rc %d, want %d (%s)", pairs[i].a, pairs[i].b, rc,
		      pairs[i].rc, pmon_session_errmsg(s));
		if (rc == PMON_ECONFLICT)
			CHECK(strstr(pmon_session_errmsg(s), "MSR_UNCORE_ADDR_OPCODE_MATCH") ||
			      strstr(pmon_session_errmsg(s), "MSR_GQ_SNOOP_MESF") ||
			      strstr(pmon_session_errmsg(s), "opc") || strstr(pmon_session_errmsg(s), "mesf"),
			      "the conflict names the shared register: %s", pmon_session_errmsg(s));
		pmon_session_destroy(s);
	}
	/* two sessions: the second needs another matcher value while the first counts */
	preset();
	pmon_session_t *s1, *s2;
	pmon_session_create(m, &s1);
	pmon_session_create(m, &s2);
	pmon_encoding_t e;
	CHECK_EQ_INT(pmon_machine_encode(m, "nhm_unc::UNC_GQ_SNOOP:GOTO_S_HIT_E", &e, err, sizeof(err)),
		     PMON_OK, err);
	CHECK_EQ_INT(pmon_session_add(s1, &e), PMON_OK, pmon_session_errmsg(s1));
	CHECK_EQ_INT(pmon_machine_encode(m, "nhm_unc::UNC_GQ_SNOOP:GOTO_I_HIT_F", &e, err, sizeof(err)),
		     PMON_OK, err);
	CHECK_EQ_INT(pmon_session_add(s2, &e), PMON_OK, pmon_session_errmsg(s2));
	CHECK_EQ_INT(pmon_session_start(s1), PMON_OK, pmon_session_errmsg(s1));
	CHECK_EQ_U64(nget(0, MESF), 0x02, "MSR 0x301 = E -> S");
	uint64_t glb = nget(0, GLB_CTL);
	CHECK_EQ_INT(pmon_session_start(s2), PMON_EBUSY, "another value of MSR 0x301 refused");
	CHECK_EQ_U64(nget(0, MESF), 0x02, "MSR 0x301 kept");
	CHECK_EQ_U64(nget(0, GLB_CTL), glb, "the global control kept");
	pmon_session_destroy(s2);
	pmon_session_create(m, &s2);
	CHECK_EQ_INT(pmon_machine_encode(m, "nhm_unc::UNC_GQ_SNOOP:GOTO_S_HIT_E:i=1", &e, err, sizeof(err)),
		     PMON_OK, err);
	CHECK_EQ_INT(pmon_session_add(s2, &e), PMON_OK, pmon_session_errmsg(s2));
	CHECK_EQ_INT(pmon_session_start(s2), PMON_OK, pmon_session_errmsg(s2));
	CHECK_EQ_U64(nget(0, GLB_CTL), FOREIGN | 3, "both sessions' enable bits");
	CHECK_EQ_INT(pmon_session_stop(s1, NULL), PMON_OK, pmon_session_errmsg(s1));
	CHECK_EQ_U64(nget(0, GLB_CTL), FOREIGN | 2, "the first's bit cleared, the second's kept");
	CHECK_EQ_U64(nget(0, MESF), 0x02, "MSR 0x301 kept for the second");
	CHECK_EQ_INT(pmon_session_stop(s2, NULL), PMON_OK, pmon_session_errmsg(s2));
	pmon_session_destroy(s1);
	pmon_session_destroy(s2);
	all_as_before("after the two sessions");
}

int main(void)
{
	pmon_machine_t *m;
	if (fake_tmpdir(base, sizeof(base)) ||
	    fake_nhm_world(base, 26, "Intel(R) Xeon(R) CPU X5570 @ 2.93GHz", &w)) {
		CHECK(0, "could not build the fake device files");
		return check_done("test_nhm_hw");
	}
	int rc = pmon_machine_open(&m, "msr", err, sizeof(err));
	CHECK_EQ_INT(rc, PMON_OK, err);
	if (rc == PMON_OK) {
		program_and_count(m);
		shared_filters(m);
		two_processes(m);
		crafted_journal(m);
		killed_at_each_write(m);
		two_sessions_killed(m);
		one_session_taken_killed(m);
		second_start_killed(m);
		each_access_fails_once(m);
		pmon_machine_close(m);
	}
	fake_rmtree(base);
	return check_done("test_nhm_hw");
}
