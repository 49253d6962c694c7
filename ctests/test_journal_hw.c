/*
 * test_journal_hw.c - the journal and `pmon reset` on fake device files
 * (the hardware backend), as a crash, a full disk and a hostile journal
 * would try them:
 *  - a process killed mid-count (its journal lines of a dead owner): another
 *    process's start on the same boxes is refused naming `pmon reset`, its
 *    clean count on other boxes leaves them, and `pmon reset` then puts the
 *    killed process's CBo and PCU registers back; a line whose pid is ours
 *    but whose start time is not (a reused pid) is not taken for ours;
 *  - a stop whose journal cleanup fails (no space to rewrite it, a run
 *    directory where it cannot be removed) returns its counts with rc 0 and
 *    a warning of its own, and the lines left never let `pmon reset`
 *    overwrite a register another agent set since;
 *  - crafted journals (IA32_MISC_ENABLE, MSR 0x0, MSR 0x180 of a CPU of the
 *    other socket, the PCI command register, a filter index past the
 *    table, a wrong CPU, reserved bits, a counter, garbage, a truncated
 *    line, a bad sum): each line named and skipped, no register outside
 *    the PMON set written, the good lines put back;
 *  - the journal's files: mode 0600, a symlink in its place refused and its
 *    target untouched, temporaries of killed processes removed, a damaged
 *    journal blocking a start with a message naming it and `pmon reset`;
 *    a journal of another user, of mode 0644 or with a second link is not
 *    read (`pmon reset` names it and writes nothing).
 * The cleanup faults come from unlinkat() and write() defined here: libpmon's
 * calls resolve to them (like fault_syscalls.h), and fail for journal files
 * while armed.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "fake_hw.h"
#include "fake_msr8.h"
#include "journal.h"
#include "pmon/platform.h"
#include "pmon/pmon.h"

static char base[128];
static struct fake_world w;

/* ---------------------------------------------------------- cleanup faults */

static int unlink_errno, write_errno, faults;

static int is_journal_fd(int fd)
{
	char link[64], path[512];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return 0;
	path[n] = 0;
	return strstr(path, ".journal") != NULL;
}

/* journal.c removes the journal with unlinkat() and writes it with
 * write() (a new file renamed over it): both fail on demand here */
int unlinkat(int dirfd, const char *path, int flags);
ssize_t write(int fd, const void *buf, size_t n);

int unlinkat(int dirfd, const char *path, int flags)
{
	if (unlink_errno && strstr(path, ".journal") && !strstr(path, ".tmp")) {
		faults++;
		errno = unlink_errno;
		return -1;
	}
	return (int)syscall(SYS_unlinkat, dirfd, path, flags);
}

ssize_t write(int fd, const void *buf, size_t n)
{
	if (write_errno && is_journal_fd(fd)) {
		faults++;
		errno = write_errno;
		return -1;
	}
	return (ssize_t)syscall(SYS_write, fd, buf, n);
}

/* A process killed at an exact step: armed, the pwrite() of value to MSR
 * kill_msr is made, then the process kills itself (SIGKILL: no handler, no
 * cleanup).  libpmon's MSR backend is built with 64-bit offsets: its
 * pwrite() is pwrite64(). */
static long kill_msr = -1;
static uint64_t kill_value;
static int kill_at_write;          /* > 0: killed after that many MSR writes */

ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t off)
{
	ssize_t r = (ssize_t)syscall(SYS_pwrite64, fd, buf, n, off);
	uint64_t v = 0;
	if (kill_msr >= 0 && off == kill_msr && n == sizeof(v)) {
		memcpy(&v, buf, sizeof(v));
		if (v == kill_value)
			raise(SIGKILL);
	}
	if (kill_at_write > 0 && fake_is_msr_fd(fd) && --kill_at_write == 0)
		raise(SIGKILL);
	return r;
}

/* ----------------------------------------------------------------- helpers */

#define CBO0_BOX_CTL 0xd04
#define CBO0_CTL0 0xd10
#define PCU_BOX_CTL 0xc24
#define PCU_CTL0 0xc30
#define PCU_FILTER 0xc34
#define IMC_CTL0 0xd8
#define IMC_CTR0 0xa0
#define IMC_BOX_CTL 0xf4

static void journal_text(int socket, char *buf, size_t len)
{
	char path[400];
	snprintf(path, sizeof(path), "%s/socket%d.journal", w.run, socket);
	buf[0] = 0;
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	size_t n = fread(buf, 1, len - 1, f);
	buf[n] = 0;
	fclose(f);
}

static int journal_exists(int socket)
{
	char path[400];
	struct stat st;
	snprintf(path, sizeof(path), "%s/socket%d.journal", w.run, socket);
	return lstat(path, &st) == 0;
}

static pmon_session_t *session_of(pmon_machine_t *m, const char *ev1, const char *ev2)
{
	pmon_session_t *s;
	pmon_encoding_t e;
	char err[512];
	pmon_session_create(m, &s);
	for (int i = 0; i < 2; i++) {
		const char *ev = i ? ev2 : ev1;
		if (ev && (pmon_machine_encode(m, ev, &e, err, sizeof(err)) || pmon_session_add(s, &e))) {
			CHECK(0, "encode %s: %s", ev, err);
			pmon_session_destroy(s);
			return NULL;
		}
	}
	return s;
}

/* ------------------------------------------------- crash, then clean stop */

static void crash_then_clean_stop_then_reset(void)
{
	pmon_machine_t *m;
	char why[512], out[8192], j[8192], mark[64];
	CHECK_EQ_INT(pmon_machine_open(&m, "msr", why, sizeof(why)), PMON_OK, why);
	int cpu = pmon_machine_socket_cpu(m, 0);
	/* what was there before A: a PCU box control frozen-enabled */
	fake_msr_put(w.msr, cpu, PCU_BOX_CTL, 0x10000);
	int p[2];
	CHECK(pipe(p) == 0, "pipe");
	pid_t a = fork();
	if (a == 0) {
		pmon_machine_t *ma;
		char x = 'n';
		close(p[0]);
		if (pmon_machine_open(&ma, "msr", why, sizeof(why)) == 0) {
			pmon_session_t *s = session_of(ma, "snbep_unc_cbo0::UNC_C_CLOCKTICKS:socket=0",
						       "snbep_unc_pcu::UNC_P_CLOCKTICKS:socket=0");
			if (s && pmon_session_start(s) == 0)
				x = 'y';
		}
		if (write(p[1], &x, 1) != 1)
			_exit(1);
		_exit(0);                  /* dies counting: no stop */
	}
	close(p[1]);
	char x = 0;
	CHECK(read(p[0], &x, 1) == 1 && x == 'y', "A counts");
	close(p[0]);
	waitpid(a, NULL, 0);
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu, CBO0_CTL0), 0x400000, "A's CBo 0 CTL0 enabled");
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu, PCU_CTL0), 0x400000, "A's PCU CTL0 enabled");
	snprintf(mark, sizeof(mark), "owner=%ld:", (long)a);
	journal_text(0, j, sizeof(j));
	CHECK(strstr(j, mark) != NULL, "A's lines carry A as their owner: %s", j);

	/* B: A's boxes are refused, naming the journal and `pmon reset` */
	pmon_session_t *b = session_of(m, "snbep_unc_cbo0::UNC_C_CLOCKTICKS:socket=0", NULL);
	CHECK_EQ_INT(pmon_session_start(b), PMON_EBUSY, "B on A's CBo 0");
	CHECK(strstr(pmon_session_errmsg(b), "socket0.journal") &&
	      strstr(pmon_session_errmsg(b), "pmon reset") &&
	      strstr(pmon_session_errmsg(b), "snbep_unc_cbo0"), "names it: %s", pmon_session_errmsg(b));
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu, CBO0_CTL0), 0x400000, "the refused start wrote nothing");
	pmon_session_destroy(b);
	/* B counts on another box of the socket and stops cleanly */
	b = session_of(m, "snbep_unc_cbo1::UNC_C_CLOCKTICKS:socket=0", NULL);
	CHECK_EQ_INT(pmon_session_start(b), PMON_OK, pmon_session_errmsg(b));
	uint64_t v = 1;
	CHECK_EQ_INT(pmon_session_stop(b, &v), PMON_OK, pmon_session_errmsg(b));
	pmon_session_destroy(b);
	journal_text(0, j, sizeof(j));
	CHECK(strstr(j, "box=snbep_unc_cbo0") && strstr(j, "box=snbep_unc_pcu") &&
	      !strstr(j, "box=snbep_unc_cbo1"), "B's clean stop left A's lines, took its own: %s", j);

	int rc = fake_run_tool("reset --socket 0", out, sizeof(out));
	CHECK(rc == 0 && strstr(out, "put back from the journal"), "reset: %s", out);
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu, CBO0_CTL0), 0, "A's CBo 0 CTL0 put back");
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu, CBO0_BOX_CTL), 0, "A's CBo 0 box control put back");
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu, PCU_CTL0), 0, "A's PCU CTL0 put back");
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu, PCU_BOX_CTL), 0x10000, "PCU box control as before A");
	CHECK(!journal_exists(0), "the journal is gone");
	/* a second reset after it: nothing to do, nothing written */
	rc = fake_run_tool("reset --socket 0", out, sizeof(out));
	CHECK(rc == 0 && strstr(out, "nothing written"), "second reset: %s", out);
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu, PCU_BOX_CTL), 0x10000, "PCU box control still as before");

	/* B's box is its own again */
	b = session_of(m, "snbep_unc_cbo0::UNC_C_CLOCKTICKS:socket=0", NULL);
	CHECK_EQ_INT(pmon_session_start(b), PMON_OK, pmon_session_errmsg(b));
	CHECK_EQ_INT(pmon_session_stop(b, &v), PMON_OK, pmon_session_errmsg(b));
	pmon_session_destroy(b);

	/* a line whose pid is ours but whose start time is not: a process
	 * that had our pid before, dead */
	struct pmon_journal_entry e = { .owner = *pmon_owner_self(), .box = "snbep_unc_cbo0", .cpu = -1,
					.kind = REG_CTL, .idx = 0, .value = 0, .mask = ~0ull };
	e.owner.start += 1;
	char line[512], path[400];
	int n = pmon_journal_format(&e, line, sizeof(line));
	snprintf(path, sizeof(path), "%s/socket0.journal", w.run);
	CHECK(n > 0 && fake_write_journal(path, line, (size_t)n) == 0, "a reused pid's line");
	b = session_of(m, "snbep_unc_cbo0::UNC_C_CLOCKTICKS:socket=0", NULL);
	CHECK_EQ_INT(pmon_session_start(b), PMON_EBUSY, "a reused pid is not ours");
	pmon_session_destroy(b);
	unlink(path);
	fake_msr_put(w.msr, cpu, PCU_BOX_CTL, 0);
	pmon_machine_close(m);
}

/* --------------------------------------------- journal cleanup that fails */

static void cleanup_fails_at_stop(void)
{
	pmon_machine_t *m;
	char why[512], out[8192], j[8192];
	CHECK_EQ_INT(pmon_machine_open(&m, "msr", why, sizeof(why)), PMON_OK, why);
	/* counters at known values before the start */
	fake_pci_put(w.sysfs, 0, 0x7f, 16, 1, IMC_CTR0, 1000);
	fake_pci_put(w.sysfs, 0, 0x7f, 16, 4, IMC_CTR0, 5000);
	pmon_session_t *s1 = session_of(m, "snbep_unc_imc1::UNC_M_CAS_COUNT:RD:socket=1", NULL);
	pmon_session_t *s2 = session_of(m, "snbep_unc_imc2::UNC_M_CAS_COUNT:RD:socket=1", NULL);
	CHECK_EQ_INT(pmon_session_start(s1), PMON_OK, pmon_session_errmsg(s1));
	CHECK_EQ_INT(pmon_session_start(s2), PMON_OK, pmon_session_errmsg(s2));
	fake_pci_put(w.sysfs, 0, 0x7f, 16, 1, IMC_CTR0, 1000 + 12345);
	fake_pci_put(w.sysfs, 0, 0x7f, 16, 4, IMC_CTR0, 5000 + 777);

	/* disk full: the journal cannot be rewritten without s1's lines */
	uint64_t v = 0;
	write_errno = ENOSPC;
	faults = 0;
	int rc = pmon_session_stop(s1, &v);
	write_errno = 0;
	CHECK(faults > 0, "the fault fired (%d)", faults);
	CHECK_EQ_INT(rc, PMON_OK, pmon_session_errmsg(s1));
	CHECK_EQ_U64(v, 12345, "disk full: the count is returned");
	CHECK(!strncmp(pmon_session_errmsg(s1), "warning: ", 9) &&
	      strstr(pmon_session_errmsg(s1), "journal lines could not be removed") &&
	      strstr(pmon_session_errmsg(s1), "No space left on device"),
	      "a warning of its own: %s", pmon_session_errmsg(s1));
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, 0x7f, 16, 1, IMC_CTL0), 0, "iMC1 CTL0 put back");

	/* a run directory where nothing can be written or removed */
	unlink_errno = write_errno = EACCES;
	faults = 0;
	v = 0;
	rc = pmon_session_stop(s2, &v);
	unlink_errno = write_errno = 0;
	CHECK(faults > 0, "the fault fired (%d)", faults);
	CHECK_EQ_INT(rc, PMON_OK, pmon_session_errmsg(s2));
	CHECK_EQ_U64(v, 777, "unwritable run directory: the count is returned");
	CHECK(!strncmp(pmon_session_errmsg(s2), "warning: ", 9) &&
	      strstr(pmon_session_errmsg(s2), "Permission denied"), "a warning of its own: %s",
	      pmon_session_errmsg(s2));
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, 0x7f, 16, 4, IMC_CTL0), 0, "iMC2 CTL0 put back");
	pmon_session_destroy(s1);
	pmon_session_destroy(s2);
	journal_text(1, j, sizeof(j));
	CHECK(strstr(j, "box=snbep_unc_imc1") && strstr(j, "box=snbep_unc_imc2"), "stale lines: %s", j);

	/* another agent takes iMC 1's CTL0 since; `pmon reset` leaves it */
	fake_pci_put(w.sysfs, 0, 0x7f, 16, 1, IMC_CTL0, 0x400f0f);
	rc = fake_run_tool("reset --socket 1", out, sizeof(out));
	CHECK(rc == 0 && strstr(out, "left alone, as they no longer hold what pmon wrote") &&
	      strstr(out, "CTL0 (PCI 0000:7f:10.1 offset 0xd8) holds 0x400f0f"), "reset: %s", out);
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, 0x7f, 16, 1, IMC_CTL0), 0x400f0f, "their CTL0 stays");
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, 0x7f, 16, 4, IMC_CTL0), 0, "iMC2 CTL0 as it was");
	CHECK(!journal_exists(1), "the stale lines are gone");
	fake_pci_put(w.sysfs, 0, 0x7f, 16, 1, IMC_CTL0, 0);
	pmon_machine_close(m);
}

/* ------------------------------------------------------- crafted journals */

/* A dead process: one that ran and was reaped. */
static struct pmon_owner dead_owner(void)
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	struct pmon_owner o = { (long)pid, 12345 };
	return o;
}

static int add_line(char *buf, size_t len, size_t *at, struct pmon_owner o, const char *box, int cpu,
		    enum pmon_reg_kind k, int idx, uint64_t value, int has_wrote, uint64_t wrote,
		    uint64_t mask)
{
	struct pmon_journal_entry e = { .owner = o, .cpu = cpu, .kind = k, .idx = idx, .value = value,
					.mask = mask, .wrote = wrote, .has_wrote = has_wrote };
	snprintf(e.box, sizeof(e.box), "%s", box);
	int n = pmon_journal_format(&e, buf + *at, len - *at);
	if (n > 0)
		*at += (size_t)n;
	return n;
}

static void crafted_journals(void)
{
	pmon_machine_t *m;
	char why[512], out[16384], text[8192], path[400];
	size_t at = 0;
	CHECK_EQ_INT(pmon_machine_open(&m, "msr", why, sizeof(why)), PMON_OK, why);
	int cpu0 = pmon_machine_socket_cpu(m, 0), cpu1 = pmon_machine_socket_cpu(m, 1);
	pmon_machine_close(m);
	struct pmon_owner o = dead_owner();
	/* what must never be written */
	fake_msr_put(w.msr, cpu0, 0x1a0, 0x850089);          /* IA32_MISC_ENABLE */
	fake_msr_put(w.msr, cpu0, 0x0, 0x1111);
	fake_msr_put(w.msr, cpu1, 0x180, 0x2222);
	fake_msr_put(w.msr, cpu1, 0x189, 0x3333);             /* the other socket's PERFEVTSEL3 */
	uint32_t cmd = fake_pci_get(w.sysfs, 0, 0x3f, 16, 0, 0x4);
	/* what the good lines put back: registers holding what pmon wrote */
	fake_msr_put(w.msr, cpu0, PCU_FILTER, 0x20);
	fake_msr_put(w.msr, cpu0, CBO0_CTL0 + 0x20, 0x400000);  /* CBo 1 CTL0 */

	at += (size_t)snprintf(text, sizeof(text), "# a crafted journal\n");
	/* IA32_MISC_ENABLE (0x186 + 26), MSR 0x0, 0x180 of the other socket's CPU */
	add_line(text, sizeof(text), &at, o, "snb_ep", cpu0, REG_CTL, 26, 0, 1, 0x850089, ~0ull);
	add_line(text, sizeof(text), &at, o, "snb_ep", cpu0, REG_CTL, -0x186, 0, 1, 0x1111, ~0ull);
	add_line(text, sizeof(text), &at, o, "snb_ep", cpu1, REG_CTL, -6, 0, 1, 0x2222, ~0ull);
	/* a CPU of the other socket with a good register */
	add_line(text, sizeof(text), &at, o, "snb_ep", cpu1, REG_CTL, 3, 0, 1, 0x3333, ~0ull);
	/* the PCI command register of iMC 0 (0xd8 - 4 * 53 = 0x4) */
	add_line(text, sizeof(text), &at, o, "snbep_unc_imc0", -1, REG_CTL, -53, 0, 1, cmd, ~0ull);
	/* a filter index far past the table (read out of bounds before) */
	add_line(text, sizeof(text), &at, o, "snbep_unc_pcu", -1, REG_FILTER, 100000, 0, 1, 0, ~0ull);
	/* reserved bits, a counter, an uncore box with a CPU, an unknown box */
	add_line(text, sizeof(text), &at, o, "snbep_unc_cbo0", -1, REG_CTL, 0, ~0ull, 1, 0, ~0ull);
	add_line(text, sizeof(text), &at, o, "snbep_unc_cbo0", -1, REG_CTR, 0, 0x5, 1, 0, ~0ull);
	add_line(text, sizeof(text), &at, o, "snbep_unc_cbo2", 0, REG_CTL, 0, 0, 1, 0, ~0ull);
	add_line(text, sizeof(text), &at, o, "no_such_box", -1, REG_CTL, 0, 0, 1, 0, ~0ull);
	/* the good lines */
	add_line(text, sizeof(text), &at, o, "snbep_unc_pcu", -1, REG_FILTER, 0, 0, 1, 0x20, ~0ull);
	add_line(text, sizeof(text), &at, o, "snbep_unc_cbo1", -1, REG_CTL, 0, 0, 1, 0x400000, ~0ull);
	snprintf(path, sizeof(path), "%s/socket0.journal", w.run);
	CHECK(fake_write_journal(path, text, at) == 0, "the crafted journal");

	int rc = fake_run_tool("reset --socket 0", out, sizeof(out));
	CHECK_EQ_INT(rc, 1, out);
	static const char *const named[] = {
		"the line of snb_ep ctl 26: snb_ep has no such register",
		"the line of snb_ep ctl -390: snb_ep has no such register",
		"the line of snb_ep ctl -6: cpu 2 is on socket 1",
		"the line of snb_ep ctl 3: cpu 2 is on socket 1",
		"the line of snbep_unc_imc0 ctl -53: snbep_unc_imc0 has no such register",
		"the line of snbep_unc_pcu filter 100000: snbep_unc_pcu has no such register",
		"value 0xffffffffffffffff sets bits software may not set",
		"the line of snbep_unc_cbo0 ctr 0: names a counter",
		"the line of snbep_unc_cbo2 ctl 0: cpu 0: an uncore box's line has cpu -1",
		"names no PMU pmon knows (no_such_box)",
	};
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		CHECK(strstr(out, named[i]) != NULL, "names: %s", named[i]);
	CHECK(strstr(out, "2 register(s) put back from the journal"), "the good lines: %s", out);
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu0, 0x1a0), 0x850089, "IA32_MISC_ENABLE untouched");
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu0, 0x0), 0x1111, "MSR 0x0 untouched");
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu1, 0x180), 0x2222, "socket 1's MSR 0x180 untouched");
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu1, 0x189), 0x3333, "socket 1's PERFEVTSEL3 untouched");
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, 0x3f, 16, 0, 0x4), cmd, "PCI command register untouched");
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu0, PCU_FILTER), 0, "the PCU filter put back");
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu0, CBO0_CTL0 + 0x20), 0, "CBo 1 CTL0 put back");
	CHECK(!journal_exists(0), "the journal is gone (its bad lines with it)");

	/* a damaged journal: garbage, a line whose sum does not match, a
	 * truncated line, beside a good one */
	fake_msr_put(w.msr, cpu0, PCU_FILTER, 0x20);
	at = (size_t)snprintf(text, sizeof(text), "# a damaged journal\n");
	at += (size_t)snprintf(text + at, sizeof(text) - at, "garbage \x01\x02\xff here\n");
	size_t mark = at;
	add_line(text, sizeof(text), &at, o, "snbep_unc_cbo1", -1, REG_CTL, 0, 0, 1, 0x400000, ~0ull);
	char *vpos = strstr(text + mark, "value=0x0");
	if (vpos)
		vpos[8] = '7';                          /* edited: value=0x7 */
	add_line(text, sizeof(text), &at, o, "snbep_unc_pcu", -1, REG_FILTER, 0, 0, 1, 0x20, ~0ull);
	size_t cut = at;
	add_line(text, sizeof(text), &at, o, "snbep_unc_cbo1", -1, REG_CTL, 0, 0, 1, 0x400000, ~0ull);
	at = cut + 40;
	CHECK(fake_write_journal(path, text, at) == 0, "the damaged journal");
	/* a start on the socket is refused, naming the file and `pmon reset` */
	CHECK_EQ_INT(pmon_machine_open(&m, "msr", why, sizeof(why)), PMON_OK, why);
	pmon_session_t *s = session_of(m, "snbep_unc_cbo0::UNC_C_CLOCKTICKS:socket=0", NULL);
	CHECK_EQ_INT(pmon_session_start(s), PMON_EIO, "a start beside a damaged journal");
	CHECK(strstr(pmon_session_errmsg(s), "socket0.journal") &&
	      strstr(pmon_session_errmsg(s), "`pmon reset --socket 0`"), "names the file and the cure: %s",
	      pmon_session_errmsg(s));
	rc = fake_run_tool("reset --socket 0", out, sizeof(out));
	CHECK_EQ_INT(rc, 1, out);
	CHECK(strstr(out, "socket0.journal line 2 has no sum=") &&
	      strstr(out, "socket0.journal line 3 its sum does not match") &&
	      strstr(out, "socket0.journal line 5 has no sum=") &&
	      strstr(out, "1 register(s) put back from the journal"), "names each bad line: %s", out);
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu0, PCU_FILTER), 0, "the good line's PCU filter put back");
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu0, CBO0_CTL0 + 0x20), 0, "the edited line wrote nothing");
	CHECK(!journal_exists(0), "the damaged journal is gone");
	/* and counting on the socket works again */
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_INT(pmon_session_stop(s, NULL), PMON_OK, pmon_session_errmsg(s));
	pmon_session_destroy(s);
	pmon_machine_close(m);
	fake_msr_put(w.msr, cpu0, 0x1a0, 0);
	fake_msr_put(w.msr, cpu0, 0x0, 0);
	fake_msr_put(w.msr, cpu1, 0x180, 0);
	fake_msr_put(w.msr, cpu1, 0x189, 0);
}

/* ------------------------------------------------------ real crashes */

/* A child that starts a session of ev1 (and ev2) on the fake machine, says
 * so through a pipe, then dies by SIGKILL: right away (in_stop 0), or in
 * its stop, right after the stop's freeze of the CBo 0 box control
 * (in_stop 1).  1 when it counted and died so. */
static int killed_counting(const char *ev1, const char *ev2, int in_stop)
{
	int p[2];
	if (pipe(p))
		return 0;
	pid_t a = fork();
	if (a == 0) {
		pmon_machine_t *ma;
		char why[512], x = 'n';
		close(p[0]);
		pmon_session_t *s = NULL;
		if (pmon_machine_open(&ma, "msr", why, sizeof(why)) == 0 &&
		    (s = session_of(ma, ev1, ev2)) && pmon_session_start(s) == 0)
			x = 'y';
		if (write(p[1], &x, 1) != 1 || x != 'y')
			_exit(1);
		if (in_stop) {
			kill_msr = CBO0_BOX_CTL;
			kill_value = 0x10100;       /* the stop's freeze: FRZ_EN | FRZ */
			pmon_session_stop(s, NULL);
			_exit(1);                   /* not reached */
		}
		raise(SIGKILL);
		_exit(1);
	}
	close(p[1]);
	char x = 0;
	int ok = read(p[0], &x, 1) == 1 && x == 'y';
	close(p[0]);
	int st = 0;
	waitpid(a, &st, 0);
	return ok && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
}

/* Killed in its stop, right after the stop froze the box (to read every
 * count at one instant): the box control holds the frozen form of what
 * pmon wrote, which `pmon reset` puts back too (it took it for another
 * agent's and left the box frozen). */
static void killed_in_stop(void)
{
	pmon_machine_t *m;
	char why[512], out[8192];
	CHECK_EQ_INT(pmon_machine_open(&m, "msr", why, sizeof(why)), PMON_OK, why);
	int cpu = pmon_machine_socket_cpu(m, 0);
	CHECK(killed_counting("snbep_unc_cbo0::UNC_C_CLOCKTICKS:socket=0", NULL, 1),
	      "A counts, then dies by kill -9 in its stop");
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu, CBO0_BOX_CTL), 0x10100, "frozen by the stop");
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu, CBO0_CTL0), 0x400000, "CTL0 not put back yet");
	int rc = pmon_machine_reset(m, 0, out, sizeof(out));
	CHECK_EQ_INT(rc, PMON_OK, out);
	CHECK(fake_msr_get(w.msr, cpu, CBO0_BOX_CTL) == 0, "the box control put back: %s", out);
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu, CBO0_CTL0), 0, "CTL0 put back");
	CHECK(!journal_exists(0), "the journal is gone");
	pmon_machine_close(m);
}

/* Killed after each register write of a start and stop in turn (the k-th
 * MSR write, k = 1, 2, ... until a run ends without being killed): every
 * time, `pmon reset` puts every register back to what it held before. */
static void killed_at_each_write(void)
{
	pmon_machine_t *m;
	char why[512], out[8192];
	CHECK_EQ_INT(pmon_machine_open(&m, "msr", why, sizeof(why)), PMON_OK, why);
	int cpu = pmon_machine_socket_cpu(m, 0), k, killed = 1;
	static const uint32_t regs[] = { CBO0_BOX_CTL, CBO0_CTL0, PCU_BOX_CTL, PCU_CTL0 };
	static const uint64_t before[] = { 0, 0, 0x10000, 0 };
	for (k = 1; killed && k < 64; k++) {
		for (int r = 0; r < 4; r++)
			fake_msr_put(w.msr, cpu, regs[r], before[r]);
		pid_t a = fork();
		if (a == 0) {
			pmon_machine_t *ma;
			pmon_session_t *s;
			if (pmon_machine_open(&ma, "msr", why, sizeof(why)) ||
			    !(s = session_of(ma, "snbep_unc_cbo0::UNC_C_CLOCKTICKS:socket=0",
					     "snbep_unc_pcu::UNC_P_CLOCKTICKS:socket=0")))
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
		for (int r = 0; r < 4; r++)
			CHECK(fake_msr_get(w.msr, cpu, regs[r]) == before[r], "killed after write %d: MSR "
			      "0x%x is 0x%llx, was 0x%llx: %s", k, regs[r],
			      (unsigned long long)fake_msr_get(w.msr, cpu, regs[r]),
			      (unsigned long long)before[r], out);
		CHECK(!journal_exists(0), "write %d: the journal is gone", k);
	}
	CHECK(k > 8 && !killed, "a start and stop make more than 8 writes, all tried (%d)", k - 1);
	fake_msr_put(w.msr, cpu, PCU_BOX_CTL, 0);
	pmon_machine_close(m);
}

/* ------------------------------------------- the journal kept in memory */

/* On a tmpfs run directory a process keeps the journal's entries it last
 * read or wrote while the file is the same inode: another process's
 * rewrite in between must be seen.  Here A (this process) journals CBo 0,
 * B (a child) then journals CBo 1 on the same socket, A stops: its rewrite
 * must keep B's lines (with entries kept from before B's rewrite, it would
 * write them away). */
static void cached_journal_sees_others(void)
{
	char dir[64] = "/dev/shm/pmon-test-XXXXXX", why[512], j[8192], path[128];
	if (!mkdtemp(dir)) {
		CHECK(0, "a run directory in /dev/shm");
		return;
	}
	setenv("PMON_RUN_DIR", dir, 1);
	pmon_machine_t *m;
	CHECK_EQ_INT(pmon_machine_open(&m, "msr", why, sizeof(why)), PMON_OK, why);
	pmon_session_t *a = session_of(m, "snbep_unc_cbo0::UNC_C_CLOCKTICKS:socket=0", NULL);
	CHECK_EQ_INT(pmon_session_start(a), PMON_OK, pmon_session_errmsg(a));
	int go[2], done[2];
	CHECK(pipe(go) == 0 && pipe(done) == 0, "pipes");
	pid_t b = fork();
	if (b == 0) {
		pmon_machine_t *mb;
		char x = 'n';
		pmon_session_t *s = NULL;
		if (pmon_machine_open(&mb, "msr", why, sizeof(why)) == 0 &&
		    (s = session_of(mb, "snbep_unc_cbo1::UNC_C_CLOCKTICKS:socket=0", NULL)) &&
		    pmon_session_start(s) == 0)
			x = 'y';
		if (write(go[1], &x, 1) != 1 || read(done[0], &x, 1) != 1)
			_exit(1);
		_exit(s && pmon_session_stop(s, NULL) == 0 ? 0 : 1);
	}
	char x = 0;
	CHECK(read(go[0], &x, 1) == 1 && x == 'y', "B counts on CBo 1");
	CHECK_EQ_INT(pmon_session_stop(a, NULL), PMON_OK, pmon_session_errmsg(a));
	snprintf(path, sizeof(path), "%s/socket0.journal", dir);
	j[0] = 0;
	FILE *f = fopen(path, "r");
	if (f) {
		j[fread(j, 1, sizeof(j) - 1, f)] = 0;
		fclose(f);
	}
	CHECK(strstr(j, "box=snbep_unc_cbo1") && !strstr(j, "box=snbep_unc_cbo0"),
	      "A's stop took its lines and kept B's: %s", j);
	int st = 0;
	CHECK(write(done[1], "x", 1) == 1 && waitpid(b, &st, 0) == b && WIFEXITED(st) &&
	      WEXITSTATUS(st) == 0, "B stops");
	CHECK(access(path, F_OK) != 0, "the journal is gone");
	pmon_session_destroy(a);
	pmon_machine_close(m);
	setenv("PMON_RUN_DIR", w.run, 1);
	fake_rmtree(dir);
}

/* ------------------------------------------------- MSR 0x1A4, prefetchers */

/* A process that sets CPU cpu's prefetcher bits to bits and dies by kill -9. */
static int killed_with_prefetch(int cpu, unsigned bits)
{
	pid_t c = fork();
	if (c == 0) {
		pmon_machine_t *mc;
		char why[512];
		if (pmon_machine_open(&mc, "msr", why, sizeof(why)) == 0 &&
		    pmon_machine_prefetch_write(mc, cpu, bits, why, sizeof(why)) == 0)
			raise(SIGKILL);
		_exit(1);
	}
	int st = 0;
	waitpid(c, &st, 0);
	return c > 0 && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
}

static void prefetch_crash(void)
{
	pmon_machine_t *m;
	char why[512], out[8192], j[8192], text[2048], path[400];
	CHECK_EQ_INT(pmon_machine_open(&m, "msr", why, sizeof(why)), PMON_OK, why);
	int cpu0 = pmon_machine_socket_cpu(m, 0), cpu1 = pmon_machine_socket_cpu(m, 1);
	/* bits beyond 0-3 set, the L2 adjacent-line prefetcher off */
	fake_msr_put(w.msr, cpu0, 0x1a4, 0x302);

	/* off and back in one process: the line is written before the
	 * register, and goes once the original is back */
	CHECK_EQ_INT(pmon_machine_prefetch_write(m, cpu0, PMON_PF_ALL, why, sizeof(why)), PMON_OK, why);
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu0, 0x1a4), 0x30f, "all four off, bits 8-9 kept");
	journal_text(0, j, sizeof(j));
	CHECK(strstr(j, "box=prefetch") && strstr(j, "reg=ctl idx=0 value=0x2 wrote=0xf mask=0xf"),
	      "journaled: %s", j);
	CHECK_EQ_INT(pmon_machine_prefetch_write(m, cpu0, 0x2, why, sizeof(why)), PMON_OK, why);
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu0, 0x1a4), 0x302, "back");
	CHECK(!journal_exists(0), "the line went with the restore");

	/* kill -9 with the prefetchers off: `pmon reset` puts them back */
	CHECK(killed_with_prefetch(cpu0, PMON_PF_ALL), "the process died by kill -9");
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu0, 0x1a4), 0x30f, "left off by the killed process");
	int rc = pmon_machine_reset(m, 0, out, sizeof(out));
	CHECK_EQ_INT(rc, PMON_OK, out);
	CHECK(strstr(out, "1 register(s) put back"), "counted: %s", out);
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu0, 0x1a4), 0x302, "reset put bits 0-3 back, 8-9 kept");
	CHECK(!journal_exists(0), "the line is gone");

	/* changed by someone else since the crash: left, named */
	CHECK(killed_with_prefetch(cpu0, PMON_PF_ALL), "killed again");
	fake_msr_put(w.msr, cpu0, 0x1a4, 0x305);
	rc = pmon_machine_reset(m, 0, out, sizeof(out));
	CHECK(strstr(out, "MSR 0x1A4 (prefetchers) of CPU") && strstr(out, "neither what pmon wrote"),
	      "named: %s", out);
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu0, 0x1a4), 0x305, "another agent's value left");

	/* crafted lines: bits beyond 0-3, a CPU of the other socket */
	struct pmon_owner o = dead_owner();
	size_t at = 0;
	text[0] = 0;
	add_line(text, sizeof(text), &at, o, "prefetch", cpu0, REG_CTL, 0, 0x100, 1, 0x5, 0xf);
	add_line(text, sizeof(text), &at, o, "prefetch", cpu0, REG_CTL, 0, 0x0, 1, 0x5, ~0ull);
	add_line(text, sizeof(text), &at, o, "prefetch", cpu1, REG_CTL, 0, 0x0, 1, 0x5, 0xf);
	add_line(text, sizeof(text), &at, o, "prefetch", cpu0, REG_CTL, 0, 0x0, 0, 0, 0xf);
	snprintf(path, sizeof(path), "%s/socket0.journal", w.run);
	CHECK(fake_write_journal(path, text, at) == 0, "the crafted journal");
	rc = pmon_machine_reset(m, 0, out, sizeof(out));
	CHECK(rc != PMON_OK && strstr(out, "bits 0-3 only") && strstr(out, "not on socket 0"),
	      "every crafted line refused: %s", out);
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu0, 0x1a4), 0x305, "CPU 0's MSR 0x1A4 not written");
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu1, 0x1a4), 0, "the other socket's not written");
	fake_msr_put(w.msr, cpu0, 0x1a4, 0);
	unlink(path);
	pmon_machine_close(m);
}

/* ----------------------------------------------------------------- files */

static void files(void)
{
	pmon_machine_t *m;
	char why[512], path[400], tmp1[400], tmp2[400], target[400];
	struct stat st;
	CHECK_EQ_INT(pmon_machine_open(&m, "msr", why, sizeof(why)), PMON_OK, why);
	/* a killed process's temporaries */
	snprintf(tmp1, sizeof(tmp1), "%s/socket1.journal.tmp99999", w.run);
	snprintf(tmp2, sizeof(tmp2), "%s/socket1.journal.tmp99999.aBcDeF", w.run);
	fake_write_file(tmp1, "x", 1);
	fake_write_file(tmp2, "x", 1);
	umask(0);
	pmon_session_t *s = session_of(m, "snbep_unc_imc1::UNC_M_CAS_COUNT:RD:socket=1", NULL);
	snprintf(path, sizeof(path), "%s/socket1.journal", w.run);
	/* they are looked for at a process's first change of the socket's
	 * journal: this process changed it already, a new one starts */
	pid_t child = fork();
	if (child == 0) {
		int bad = pmon_session_start(s) != PMON_OK;
		bad |= (stat(path, &st) != 0 || (st.st_mode & 0777) != 0600) << 1;
		bad |= (stat(tmp1, &st) == 0 || stat(tmp2, &st) == 0) << 2;
		bad |= (pmon_session_stop(s, NULL) != PMON_OK) << 3;
		_exit(bad);
	}
	int status = -1;
	CHECK(child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status), "the child");
	status = WIFEXITED(status) ? WEXITSTATUS(status) : 15;
	CHECK(!(status & 1), "the new process starts");
	CHECK(!(status & 2), "journal mode 0600 under umask 0");
	CHECK(!(status & 4), "the killed process's temporaries removed");
	CHECK(!(status & 8), "the new process stops");
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_INT(pmon_session_stop(s, NULL), PMON_OK, pmon_session_errmsg(s));
	umask(022);
	/* a symlink where the journal goes: not followed */
	snprintf(target, sizeof(target), "%s/precious", base);
	fake_write_file(target, "precious\n", 9);
	CHECK(symlink(target, path) == 0, "plant the symlink");
	CHECK_EQ_INT(pmon_session_start(s), PMON_EIO, "a symlinked journal is refused");
	CHECK(strstr(pmon_session_errmsg(s), "socket1.journal"), "names it: %s", pmon_session_errmsg(s));
	char buf[32] = "";
	FILE *f = fopen(target, "r");
	if (f) {
		CHECK(fgets(buf, sizeof(buf), f) != NULL, "read the target");
		fclose(f);
	}
	CHECK(!strcmp(buf, "precious\n"), "the target untouched: %s", buf);
	CHECK_EQ_U64(fake_pci_get(w.sysfs, 0, 0x7f, 16, 1, IMC_CTL0), 0, "nothing written");
	unlink(path);
	pmon_session_destroy(s);
	pmon_machine_close(m);
}

/* A journal that is not one pmon made (another user's, one others may
 * write, one with a second link: swapped or planted through a parent
 * directory another user controls) is not read: `pmon reset` names it and
 * writes nothing; the same line in a file of pmon's own is put back. */
static void foreign_journal(void)
{
	pmon_machine_t *m;
	char why[512], out[8192], text[1024], path[400], link2[400];
	size_t at = 0;
	CHECK_EQ_INT(pmon_machine_open(&m, "msr", why, sizeof(why)), PMON_OK, why);
	int cpu0 = pmon_machine_socket_cpu(m, 0);
	add_line(text, sizeof(text), &at, dead_owner(), "snbep_unc_pcu", -1, REG_FILTER, 0, 0, 1,
		 0x20, ~0ull);
	snprintf(path, sizeof(path), "%s/socket0.journal", w.run);
	snprintf(link2, sizeof(link2), "%s/journal-link", base);
	static const char *const how[] = { "owned by uid 65534", "mode 0644", "two links" };
	for (int k = 0; k < 3; k++) {
		fake_msr_put(w.msr, cpu0, PCU_FILTER, 0x20);
		CHECK(fake_write_journal(path, text, at) == 0, "the journal");
		if (k == 0)
			CHECK(chown(path, 65534, 65534) == 0, "chown");
		if (k == 1)
			CHECK(chmod(path, 0644) == 0, "chmod");
		if (k == 2)
			CHECK(link(path, link2) == 0, "link");
		int rc = pmon_machine_reset(m, 0, out, sizeof(out));
		CHECK(rc != PMON_OK, "a journal %s is refused (rc %d): %s", how[k], rc, out);
		CHECK(strstr(out, "socket0.journal") != NULL, "named: %s", out);
		CHECK(fake_msr_get(w.msr, cpu0, PCU_FILTER) == 0x20, "nothing written from a "
		      "journal %s", how[k]);
		unlink(link2);
		unlink(path);
	}
	CHECK(fake_write_journal(path, text, at) == 0, "pmon's own journal");
	CHECK_EQ_INT(pmon_machine_reset(m, 0, out, sizeof(out)), PMON_OK, out);
	CHECK_EQ_U64(fake_msr_get(w.msr, cpu0, PCU_FILTER), 0, "the same line of pmon's own "
		     "journal is put back");
	pmon_machine_close(m);
}

int main(void)
{
	if (fake_tmpdir(base, sizeof(base)) || fake_snbep_world(base, 1, &w)) {
		CHECK(0, "fake device files");
		return check_done("test_journal_hw");
	}
	crash_then_clean_stop_then_reset();
	cleanup_fails_at_stop();
	crafted_journals();
	prefetch_crash();
	killed_in_stop();
	killed_at_each_write();
	cached_journal_sees_others();
	files();
	foreign_journal();
	fake_rmtree(base);
	return check_done("test_journal_hw");
}
